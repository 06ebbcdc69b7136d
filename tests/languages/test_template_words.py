"""The templates' words (`_()`, `gettext()`, `ngettext()`, `{% trans %}`) said by catalogs'
own one-call callables exactly as Jinja's newstyle callables say them: the same words in each
language, values escaped in an HTML template and not in a text one, `num` filled in. Budget:
under a second."""
from __future__ import annotations

import pytest
from jinja2 import Environment

from service.mailwire.outbound import catalogs

SNIPPETS = [
    '{{ _("room for %(room)s", room=value) }}',
    '{{ _("full") }}|{{ gettext("Trees in play") }}',
    '{{ ngettext("%(num)d card", "%(num)d cards", n) }}',
    '{{ ngettext("%(num)d card", "%(num)d cards", 1) }}',
    '{% trans deadline=value %}Your move by <strong>{{ deadline }}</strong>.{% endtrans %}',
    '{% trans %}Your notes (nobody else sees them; <code>note clear</code> removes them):'
    '{% endtrans %}',
    '{{ _("100%% sure: %(x)s", x=value) }}',           # a word no catalog has
]
VALUE = 'Ann & <Bob> "4"'


def _env(autoescape: bool, ours: bool) -> Environment:
    env = Environment(autoescape=autoescape, extensions=["jinja2.ext.i18n"])
    if ours:
        catalogs.install(env)
    else:       # Jinja's own newstyle callables over the same loader
        env.install_gettext_callables(catalogs._raw_gettext, catalogs._raw_ngettext,
                                      newstyle=True)
    return env


@pytest.mark.parametrize("lang", sorted(catalogs.LANGUAGES))
@pytest.mark.parametrize("autoescape", [True, False])
def test_ours_say_what_jinjas_newstyle_callables_say(lang, autoescape):
    ours, jinjas = _env(autoescape, True), _env(autoescape, False)
    for source in SNIPPETS:
        with catalogs.speaking(lang):
            said = ours.from_string(source).render(value=VALUE, n=3)
            expected = jinjas.from_string(source).render(value=VALUE, n=3)
        assert said == expected, source
    if autoescape:
        with catalogs.speaking(lang):
            said = ours.from_string(SNIPPETS[0]).render(value=VALUE)
        assert "&lt;Bob&gt;" in said and "<Bob>" not in said


def test_the_words_are_translated_and_the_calls_are_ours():
    env = _env(True, True)
    with catalogs.speaking("de"):
        said = env.from_string('{{ _("full") }}').render()
    assert said != "full" and said == catalogs.translations("de").gettext("full")
    # `_` is the callable itself, not Jinja's alias that looks `gettext` up at each call
    assert env.globals["_"] is env.globals["gettext"]
