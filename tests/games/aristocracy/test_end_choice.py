"""A19 as amended 2026-11-27 (rules version 4): ending the game is a private standing choice,
and nobody is asked."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from service.games.aristocracy import GAME
from service.games.aristocracy.flow import advance, recorder
from service.games.aristocracy.state import Building as B
from service.games.contract import IllegalMove
from tests.games.aristocracy.helpers import play, say, started

CHATEAU = B("9H.1", ("9S.1", "9D.1", "9C.1", "9H.2", "9S.2"))
FARMS = tuple(B(f"{r}H.1", (f"{r}S.1", f"{r}D.1", f"{r}C.1")) for r in "234")
OTHER_FARMS = tuple(B(f"{r}D.2", (f"{r}S.2", f"{r}C.2", f"{r}H.2")) for r in "567")
OTHER_CHATEAU = B("8H.1", ("8S.1", "8D.1", "8C.1", "8H.2", "8S.2"))


def _king_phase_closing(s, herald=0, both=False):
    """The end of a King phase where seat 0 qualifies (a château and three farms), and
    seat 1 too when `both`."""
    second = (OTHER_CHATEAU, *OTHER_FARMS) if both else (FARMS[0],)
    s = replace(
        s,
        stage="closing",
        royal="K",
        market=(),
        herald=herald,
        buildings=((CHATEAU, *FARMS), second),
    )
    run = recorder(s)
    advance(run, random.Random(1))
    return run.state, run.events


def test_a19_amended_nobody_is_asked_the_qualifier_ends_it_by_default():
    # RULINGS A19 (amended 2026-11-27): default "end"; nobody is asked
    s, events = _king_phase_closing(started(2))
    assert "EndOffered" not in [e.type for e in events]
    assert s.stage == "over" and s.result["how"] == "ended" and s.result["by"] == 0
    assert GAME.outcome(s).winners == (0,)


def test_a19_amended_a_player_who_plays_on_is_passed_over():
    # RULINGS A19 (amended): a player who chose to play on does not end it; the game goes on
    s, _ = say(started(2), 0, "play on")
    assert s.play_on == (0,)
    s2, events = _king_phase_closing(s)
    assert s2.stage != "over" and s2.royal == "Q"
    assert not {"EndOffered", "GameEnded"} & {e.type for e in events}


def test_a19_amended_first_in_herald_order_whose_choice_is_set_ends_it():
    # RULINGS A19 (amended): the players in Herald order; the first who qualifies and whose
    # choice is "end" ends the game
    s, _ = _king_phase_closing(started(2), herald=1, both=True)
    assert s.result["by"] == 1
    quiet, _ = say(started(2), 1, "play on")
    s, _ = _king_phase_closing(quiet, herald=1, both=True)
    assert s.result["by"] == 0


def test_a19_amended_the_choice_is_set_any_time_and_changes_back():
    # RULINGS A19 (amended): a standing choice each player sets at any time, on or off turn
    s = started(3)
    for seat in range(3):
        assert GAME.legal_moves(s, seat)[-1] == {"type": "end_choice", "end": False}
    s1, events = play(s, 2, {"type": "end_choice", "end": False})
    assert [e.type for e in events] == ["EndChoiceSet"] and s1.stage == s.stage
    assert GAME.legal_moves(s1, 2)[-1] == {"type": "end_choice", "end": True}
    assert GAME.describe({"type": "end_choice", "end": True}) == "end the game when I can"
    assert GAME.describe({"type": "end_choice", "end": False}) == "play on"
    for text in ("end the game when I can", "End game when I can", "end when able"):
        assert GAME.parse(s1, 2, text) == [{"type": "end_choice", "end": True}]
    s2, _ = say(s1, 2, "end the game when I can")
    assert s2.play_on == ()
    with pytest.raises(IllegalMove):
        play(s2, 2, {"type": "end_choice", "end": True})  # no change
    assert {"type": "end_choice", "end": False} not in GAME.menu(s, min(GAME.to_act(s)))


def test_a19_amended_the_choice_is_private():
    # RULINGS A19 (amended) and Hidden information: the choice is its owner's alone
    s = started(3)
    s1, events = play(s, 1, {"type": "end_choice", "end": False})
    (event,) = events
    assert GAME.redact(event, 1)["text"] == "You play on: you will not end the game."
    assert [GAME.redact(event, x) for x in (0, 2, None)] == [None, None, None]
    assert GAME.view(s1, 1)["end_when_able"] is False
    for reader in (0, 2, None):
        assert GAME.view(s1, reader) == GAME.view(s, reader)
        assert GAME.view(s1, reader).get("end_when_able", True) is True


def test_a19_rules_3_games_still_ask_and_refuse_the_standing_choice():
    # RULINGS A19: a game begun before the amendment plays on under its rules: the offer
    s, events = _king_phase_closing(started(2, rules=3))
    assert "EndOffered" in [e.type for e in events] and s.stage == "end"
    old = started(2, rules=3)
    assert not [m for m in GAME.legal_moves(old, 0) if m["type"] == "end_choice"]
    with pytest.raises(IllegalMove):
        GAME.decide(old, 0, {"type": "end_choice", "end": False}, random.Random(0))
    assert "end_when_able" not in GAME.view(old, 0)
