"""The catalogs (translations/): every word of messages.pot translated in German and French,
with the same placeholders, and every email template rendered in each language with none of
its fixed words left in English."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from jinja2 import ChainableUndefined

from service.mailwire.outbound import catalogs
from service.mailwire.outbound.templating import TEMPLATES, make_env
from tests.languages.helpers import email_contexts, words

POT = catalogs.CATALOGS / "messages.pot"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]")


def _catalog(path: Path, locale: str | None = None):
    with path.open("rb") as f:
        return read_po(f, locale=locale)


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_every_word_is_translated_with_its_placeholders(lang):
    wanted = {m.id for m in _catalog(POT) if m.id}
    catalog = _catalog(catalogs.CATALOGS / lang / "LC_MESSAGES" / "messages.po", lang)
    have = {m.id: m for m in catalog if m.id}
    assert wanted - set(have) == set(), "run `make translations` and translate the new words"
    for msgid in wanted:
        msg = have[msgid]
        singular = msgid if isinstance(msgid, str) else msgid[0]
        strings = [msg.string] if isinstance(msg.string, str) else list(msg.string)
        assert all(strings), f"{lang}: {singular!r} is not translated"
        assert "fuzzy" not in msg.flags, f"{lang}: {singular!r} is only a guess (fuzzy)"
        for text in strings:
            assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(singular)), \
                f"{lang}: {singular!r} and its translation name different values"


#: English words that no German or French email has (a fixed word left in English)
ENGLISH = {"the", "your", "you", "and", "is", "this", "with", "when", "game", "move",
           "email", "nothing", "every", "ignore", "accept", "decline", "never",
           "tournament", "ladder", "round", "rounds", "reply", "says", "only", "changed",
           "clock", "invites", "challenge", "picture", "since", "wrote", "over", "news",
           "standings", "stop", "open", "to", "of", "by", "it", "who", "we", "today"}


EMAIL_TEMPLATES = sorted(p.relative_to(TEMPLATES).as_posix()
                         for p in (TEMPLATES / "email").iterdir()
                         if p.suffix in (".txt", ".html") and not p.name.startswith("_"))


@pytest.mark.parametrize("lang", ["de", "fr"])
@pytest.mark.parametrize("name", EMAIL_TEMPLATES)
def test_every_email_template_speaks_the_language(name, lang):
    env = make_env().overlay(undefined=ChainableUndefined)
    english_seen = set()
    for ctx in email_contexts():
        with catalogs.speaking("en"):
            english_seen |= words(env.get_template(name).render(ctx)) & ENGLISH
        with catalogs.speaking(lang):
            rendered = env.get_template(name).render(ctx)
        left = words(rendered) & ENGLISH
        assert not left, f"{name} in {lang} still says {sorted(left)}:\n{rendered}"
    if name.endswith(".html"):
        with catalogs.speaking(lang):
            assert f'lang="{lang}"' in env.get_template(name).render(email_contexts()[0])
    # the check has teeth: the template's English has such words (account's are the letter's)
    assert english_seen or name.startswith("email/account"), name


def test_a_languages_dates_are_its_own():
    from datetime import datetime
    when = datetime(2026, 12, 6, 10, 0)
    assert catalogs.moment(when) == "06 December 2026, 10:00 UTC"
    with catalogs.speaking("de"):
        assert catalogs.moment(when) == "6. Dezember 2026, 10:00 UTC"
    with catalogs.speaking("fr"):
        assert catalogs.moment(when) == "6 décembre 2026, 10:00 UTC"


@pytest.mark.parametrize(("header", "chosen"), [
    ("fr-CH, fr;q=0.9, en;q=0.8", "fr"), ("de-DE,de;q=0.9", "de"), ("es, it", "en"),
    ("es, de;q=0.5, fr;q=0.7", "fr"), ("", "en"), ("de;q=0", "en"), (None, "en")])
def test_accept_language_picks_the_best_of_ours(header, chosen):
    assert catalogs.negotiate(header) == chosen
