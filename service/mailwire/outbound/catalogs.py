"""The languages Turnpost speaks (English, German, French) and their gettext catalogs
(translations/<lang>/LC_MESSAGES/messages.po, compiled at install by `make install`).

One loader for every word: the emails' templates (the Jinja i18n extension, below), the use
cases' answers and refusals (`gettext` here: service.play knows no Flask) and the pages
(service.web installs the same callables in its own environment, the locale chosen by
Flask-Babel). The language of the moment is a context variable: the relay sets it to the
recipient's while it composes their email, a reply's batch to the writer's while it runs, a
page's request to the reader's. Nothing set: English."""
from __future__ import annotations

import contextvars
import io
import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from babel.dates import format_date, format_time
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations
from jinja2 import pass_eval_context
from markupsafe import Markup

CATALOGS = Path(__file__).resolve().parents[3] / "translations"
DEFAULT = "en"
#: every language, by its code, in its own name (the switcher and /me show these)
LANGUAGES = {"en": "English", "de": "Deutsch", "fr": "Français"}

_current: contextvars.ContextVar[str] = contextvars.ContextVar("turnpost_language",
                                                               default=DEFAULT)


def known(code: str | None) -> str | None:
    """The language code as we store it ("de"), or None when it is none of ours."""
    code = (code or "").strip().lower().replace("_", "-").split("-", 1)[0]
    return code if code in LANGUAGES else None


def chosen(code: str | None) -> str:
    """A stored preference as the language to use (None or anything unknown: English)."""
    return known(code) or DEFAULT


def negotiate(accept_language: str | None) -> str:
    """The best of our languages for an Accept-Language header ("fr-CH, fr;q=0.9, en;q=0.8"):
    the first by quality that we have; English when none is."""
    ranked = []
    for n, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        code = known(tag)
        if code is not None and quality > 0:
            ranked.append((-quality, n, code))
    return min(ranked)[2] if ranked else DEFAULT


@cache
def translations(code: str) -> NullTranslations:
    """The catalog of a language, read once per process: its compiled .mo, or, when that is
    missing or older than the .po (a checkout not installed again), the .po itself."""
    if code == DEFAULT or code not in LANGUAGES:
        return NullTranslations()
    po = CATALOGS / code / "LC_MESSAGES" / "messages.po"
    mo = po.with_suffix(".mo")
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as f:
            return Translations(f)
    if not po.exists():
        return NullTranslations()
    with po.open("rb") as f:
        catalog = read_po(f, locale=code)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return Translations(buf)


def N_(message: str) -> str:
    """A message to translate where it is used, marked here for `make translations`."""
    return message


def day(when) -> str:
    """A date as the current language writes it ("06 December 2026", "6. Dezember 2026")."""
    if _current.get() == DEFAULT:
        return f"{when:%d %B %Y}"           # as the English emails always wrote it
    return format_date(when, format="long", locale=_current.get())


def moment(when) -> str:
    """A time in UTC as the current language writes it ("6. Dezember 2026, 10:00 UTC")."""
    if _current.get() == DEFAULT:
        return f"{when:%d %B %Y, %H:%M} UTC"
    return f"{day(when)}, {format_time(when, format='short', locale=_current.get())} UTC"


def number(n: int) -> str:
    """A count as the current language groups its digits ("2,000", "2.000", "2 000"): a
    German reader takes "2,000" for two."""
    if _current.get() == DEFAULT:
        return f"{n:,}"                     # as the English always wrote it
    return format_decimal(n, locale=_current.get())


def current() -> str:
    return _current.get()


@contextmanager
def speaking(code: str | None) -> Iterator[str]:
    """Everything said inside is in this language (None or unknown: English)."""
    lang = chosen(code)
    token = _current.set(lang)
    try:
        yield lang
    finally:
        _current.reset(token)


def gettext(message: str, **values) -> str:
    """The message in the current language, `%(name)s` filled from `values`."""
    text = translations(_current.get()).gettext(message)
    return text % values if values else text


#: the name gettext's tools look for (`make translations` extracts `_(...)`), so a module
#: imports it as it is instead of renaming gettext on the way in
_ = gettext


def spoken(template: str, args: Mapping) -> str:
    """An engine's template (service.games.text: str.format's named braces, a parameter that
    is a phrase translated on its own) in the current language. Given no args, the template
    is the whole sentence (an engine's English with no template yet: shown as it is)."""
    text = _raw_gettext(template)
    if not args:
        return text
    return text.format(**{k: spoken(v["template"], v["args"]) if isinstance(v, dict) else v
                          for k, v in args.items()})


def kept(message: str, /, **values) -> str:
    """A sentence stored now to be said later, in the language of whoever reads it then (a
    plan's reason for being dropped, told in its writer's next turn email): the marked
    message and its values as text. A value may be an engine's refusal or phrase
    (`{"template", "args"}`), said in that language too."""
    return json.dumps({"message": message, "values": values}, ensure_ascii=False)


def unkept(stored: str) -> str:
    """A sentence `kept` earlier, in the current language; any other text (stored before
    sentences were kept so) as it is."""
    try:
        said = json.loads(stored)
    except ValueError:
        return stored
    if not isinstance(said, dict) or "message" not in said:
        return stored
    return gettext(said["message"], **{k: spoken(v["template"], v["args"])
                                       if isinstance(v, dict) else v
                                       for k, v in said["values"].items()})


def ngettext(singular: str, plural: str, n: int, **values) -> str:
    text = translations(_current.get()).ngettext(singular, plural, n)
    return text % {"num": n, **values}


def install(env) -> None:
    """The Jinja i18n extension's callables, speaking the current language, in `env` (it must
    have the extension `jinja2.ext.i18n`). Newstyle: Jinja puts the values in and escapes
    them in an autoescaped template.

    `_()`, `gettext()`, `ngettext()` and `{% trans %}` then call ours below, which do what
    Jinja's newstyle callables do in one call: Jinja's reach the words through the template
    context two or three times (its `_` looks `gettext` up at every call, which calls the
    loader through the context again), and a turn email says some fifty sentences."""
    env.install_gettext_callables(_raw_gettext, _raw_ngettext, newstyle=True)
    env.globals.update(_=_template_gettext, gettext=_template_gettext,
                       ngettext=_template_ngettext)


@pass_eval_context
def _template_gettext(eval_ctx, message: str, /, **values) -> str:
    text = _raw_gettext(message)
    if eval_ctx.autoescape:
        text = Markup(text)        # the values are escaped as they go in, the words are not
    return text % values           # always a format string, as Jinja's newstyle has it


@pass_eval_context
def _template_ngettext(eval_ctx, singular: str, plural: str, n: int, /, **values) -> str:
    values.setdefault("num", n)
    text = _raw_ngettext(singular, plural, n)
    if eval_ctx.autoescape:
        text = Markup(text)
    return text % values


def _raw_gettext(message: str) -> str:
    return translations(_current.get()).gettext(message)


def _raw_ngettext(singular: str, plural: str, n: int) -> str:
    return translations(_current.get()).ngettext(singular, plural, n)
