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
from tests.languages.helpers import words

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


class Links:
    def game(self):
        return "http://turnpost.test/g/x"

    def unsubscribe(self):
        return "http://turnpost.test/u/x"


def _contexts():
    """Every branch of the email templates: the same letter twice, its switches flipped."""
    filler = "Qx"
    page = {"my_clock": {"deadline_text": filler, "paused": False}, "your_turn": True,
            "lead": "", "whose_move": "", "news": [filler, filler], "headline": filler}
    base = {
        "marker": "--", "game_title": "Qux", "game_id": 7, "names": ["Zed", "Yan"], "me": 0,
        "others": ["Yan"], "movers": ["Yan"], "links": Links(), "page": page,
        "refusal": {"why": filler, "line": filler, "suggestions": [filler]},
        "said": {"name": "Zed", "text": filler, "private": True},
        "plans_dropped": [filler], "forced": [filler], "bounced": ["Zed"], "reminder": True,
        "moves": [{"text": filler, "url": "http://turnpost.test/m/x"}], "plans": [filler],
        "plan_hints": [filler], "partial_txt": "email/_picture.html",
        "partial_html": "email/_picture.html", "inviter": "Zed", "title": "Qux", "seats": 2,
        "accept": "http://a", "decline": "http://d", "never": "http://n", "clock": filler,
        "expires": filler, "opponent": "Yan", "rated": True, "started": True,
        "lobby": "http://l", "challenger": "Zed", "place": 2, "their_place": 3,
        "link": "http://x", "starts": filler, "answer_within": filler, "name": "Zed",
        "tournament": 4, "round": 1, "rounds": 3, "standings": [filler], "format": "Swiss",
        "no_vacation": True, "why": filler, "their_subject": filler, "subject": filler,
        "paragraphs": [filler], "button": filler, "small": filler}
    flipped = {**base, "said": {"name": "Zed", "text": filler, "private": False},
               "reminder": False, "started": False, "rated": False, "their_subject": "",
               "page": {**page, "your_turn": False, "my_clock": {"paused": True}},
               "result": filler}
    return [base, flipped]


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
    for ctx in _contexts():
        with catalogs.speaking("en"):
            english_seen |= words(env.get_template(name).render(ctx)) & ENGLISH
        with catalogs.speaking(lang):
            rendered = env.get_template(name).render(ctx)
        left = words(rendered) & ENGLISH
        assert not left, f"{name} in {lang} still says {sorted(left)}:\n{rendered}"
    if name.endswith(".html"):
        with catalogs.speaking(lang):
            assert f'lang="{lang}"' in env.get_template(name).render(_contexts()[0])
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
