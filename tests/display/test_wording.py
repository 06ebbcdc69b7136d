"""Every template of every game, rendered in sample positions for every seat (and the
spectator), reads as English written for a person: names instead of seat numbers, "your"
instead of "you's", no doubled words and no Python values leaking through."""
from __future__ import annotations

import re

import pytest

from service.display.seatview import fill
from service.mailwire.outbound.templating import reply_subject
from tests.display.render import ENV, history_lines, partials, readable, turn_email
from tests.display.samples import CASES, play

BAD = {
    "a seat number": re.compile(r"\b(seat|player) \d", re.I),
    "you's": re.compile(r"\byou's\b", re.I),
    "a doubled word": re.compile(r"\b([a-z]+)\s+\1\b", re.I),
    "a Python value": re.compile(r"\b(None|True|False)\b|\{'|\[\]"),
    "a lower-case 'you' starting a sentence": re.compile(r"(\A|[.!?]\s+)you\b"),
    "their turn after you": re.compile(r"\byou \w+ their\b", re.I),
    "Re: Re:": re.compile(r"\bRe:\s*Re:", re.I),
}
# doubled words that are English ("had had") or the game's own (Trees' "the Ace of Knots")
DOUBLES_OK = {"had", "that"}


def problems(text: str) -> list[str]:
    found = []
    for what, pattern in BAD.items():
        for m in pattern.finditer(text):
            if what == "a doubled word" and m.group(1).lower() in DOUBLES_OK:
                continue
            start = max(0, m.start() - 40)
            found.append(f"{what}: ...{text[start:m.end() + 40]!r}...")
    return found


@pytest.fixture(scope="module", params=CASES, ids=[c[0] for c in CASES])
def samples(request):
    return play(*request.param)


def test_turn_emails_read_well(samples):
    for sample in samples:
        for seat in range(len(sample.names)):
            msg = turn_email(sample, seat)
            text = msg.get_body(("plain",)).get_content()
            html = msg.get_body(("html",)).get_content()
            found = (problems(msg["Subject"]) + problems(readable(text))
                     + problems(readable(html, html=True)))
            assert not found, f"{sample.entry} {sample.when} seat {seat}: {found[:5]}"


def test_page_partials_read_well_for_players_and_spectators(samples):
    for sample in samples:
        for seat in [*range(len(sample.names)), None]:
            parts = partials(sample, seat)
            found = problems(readable(parts["txt"])) + problems(readable(parts["html"], True))
            assert not found, f"{sample.entry} {sample.when} seat {seat}: {found[:5]}"


def test_history_reads_well_for_every_seat(samples):
    end = samples[-1]
    for seat in [*range(len(end.names)), None]:
        found = [p for line in history_lines(end, seat) for p in problems(line)]
        assert not found, f"{end.entry} history for seat {seat}: {found[:5]}"


def test_you_gets_your_possessive_and_a_capital():
    names = ["Anna", "Ben"]
    assert fill("{p1} takes the Mill from {p0}'s stall.", names, 0) == \
        "Ben takes the Mill from your stall."
    assert fill("{p0}'s building is full.", names, 0) == "Your building is full."
    assert fill("{p1} dealt. {p0} started with the Moon set.", names, 0) == \
        "Ben dealt. You started with the Moon set."
    assert fill("{p0} ends their turn.", names, 0) == "You end your turn."
    assert fill("{p0} ends their turn.", names, 1) == "Anna ends their turn."


def test_a_reply_subject_has_one_re():
    assert reply_subject("Re: RE: AW: Magnate #3") == "Re: Magnate #3"
    notice = ENV.get_template("email/notice.subject.txt").render(their_subject="Re: Trees #1")
    assert notice.strip() == "Re: Trees #1"


def test_aristocracy_counts_one_action_in_the_singular():
    from service.games.contract import Event
    from service.games.registry import get

    said = [fill(get("aristocracy").redact(Event("TurnBegan", {"seat": 0, "actions": n}),
                                           None)["text"], ["Anna"], None) for n in (1, 2)]
    assert said == ["Anna takes a turn with 1 action.", "Anna takes a turn with 2 actions."]


def test_the_light_keeper_has_one_name_on_the_page_and_in_the_email():
    # the card's name as the rulings write it (RULINGS, Magnate's Pawns): "the Light Keeper"
    named = False
    for sample in play("magnate", 2, {}):
        for seat in (0, 1, None):
            for text in partials(sample, seat).values():
                assert "Light\u00adkeeper" not in text and "Lightkeeper" not in text
                named = named or "Light Keeper" in text
    assert named
