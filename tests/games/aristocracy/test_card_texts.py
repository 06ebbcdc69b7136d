"""Canonical texts name cards by rank and suit (``stall 3♦ Q♣``), never by copy: copies of one
card in one zone are interchangeable and listed once; where they are not (hand vs stall,
exposed vs face-down, two buildings at one address card, declarations) the text says so."""
from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from service.games.aristocracy import GAME
from service.games.aristocracy.rules import decisions
from service.games.aristocracy.state import Building
from service.games.contract import CommandError, replay
from tests.games.aristocracy.helpers import play, say, started, turn

B = Building
SUFFIX = re.compile(r"[A-Z0-9]\.\d")


def roundtrip_all(s, seat):
    """Every listed move: a distinct text without copy suffixes that parses back to it."""
    moves = GAME.legal_moves(s, seat)
    texts = [GAME.describe(m) for m in moves]
    assert len(set(texts)) == len(texts), "two listed moves read the same"
    for m, text in zip(moves, texts, strict=True):
        assert not SUFFIX.search(text), text
        assert GAME.parse(s, seat, text) == [m], text
    # the texts of the decision at hand (the standing end choice, A19, is listed too)
    return [t for m, t in zip(moves, texts, strict=True) if m["type"] != "end_choice"]


@pytest.mark.parametrize("seats,options,seed", [
    (2, {"round_cap": 2}, 1),
    (3, {"sizes": "2-3-4", "round_cap": 2}, 2),
    (4, {"sizes": "4-5-7", "downgrade_many": True, "round_cap": 1}, 3),
    (5, {"herald_order_commits": True, "round_cap": 1}, 4),
])
def test_every_listed_move_round_trips_in_every_position(seats, options, seed):
    rng = random.Random(seed)
    s = replay(GAME, GAME.start(seats, GAME.validate_options(seats, options), rng))
    stages = set()
    while s.result is None:
        for seat in range(seats):
            if roundtrip_all(s, seat):
                stages.add(s.stage)
        seat = min(GAME.to_act(s))
        bot = "greedy" if seat % 2 else "random"
        s = replay(GAME, GAME.decide(s, seat, GAME.bots[bot](s, seat, rng), rng), s)
    assert {"stall", "turn", "ball", "bid"} <= stages


def test_texts_name_cards_by_rank_and_suit():
    s = turn([["3D.2", "KC.1", "8S.1", "8D.1"], [], []], stalls=[["QC.2", "8H.2"], ["5H.1"], []])
    s = replace(s, market=("10S.2",))
    texts = roundtrip_all(s, 0)
    assert "trade Q♣ for market 10♠" in texts and "trade 8♥ for p2 5♥" in texts
    assert "sell Q♣ 8♥" in texts and "hide Q♣" in texts
    assert "favor K♣ build at 8♠ with 8♦ 8♥ 3♦" in texts
    assert GAME.describe({"type": "stall", "cards": ["3D.1", "QC.2"]}) == "stall 3♦ Q♣"


def test_interchangeable_copies_are_listed_once_and_any_copy_is_legal():
    s = started(3)
    s = replace(s, hands=(("3D.2", "3D.1", "QC.1"), *s.hands[1:]))
    moves = decisions(s, 0)
    assert {"type": "stall", "cards": ["3D.1"]} in moves
    assert not any("3D.2" in m["cards"] for m in moves if len(m["cards"]) == 1)
    assert GAME.parse(s, 0, "stall 3♦ Q♣") == [{"type": "stall", "cards": ["3D.1", "QC.1"]}]
    assert GAME.parse(s, 0, "stall 3d 3♦")[0]["cards"] == ["3D.1", "3D.2"]
    s2, _ = play(s, 0, {"type": "stall", "cards": ["3D.2"]})      # the other copy: legal
    assert s2.choices[0] == ["3D.2"]


def test_parse_reads_every_way_of_writing_a_card():
    s = turn([["7H.2", "KC.1"], [], []], stalls=[["2S.1"], [], []])
    for text in ("7♥", "7h", "7H", "7♥\ufe0f", "7♡", "7H.2", "7", "7♥#2"):
        (m,) = GAME.parse(s, 0, f"favor king build at {text} with 2")
        assert m["address"] == "7H.2", text
    with pytest.raises(CommandError):
        GAME.parse(s, 0, "hide 7♥")


def test_hand_and_stall_copies_are_told_apart_by_the_word_stall():
    farm = B("7H.1", ("7S.1", "7D.1", "3C.1"))
    s = turn([["8S.2", "KC.1"], [], []], stalls=[["8S.1", "KC.2"], [], []],
             buildings=[[farm], [], []])
    texts = roundtrip_all(s, 0)
    assert "store 8♠ in 7♥ for 3♣" in texts and "store stall 8♠ in 7♥ for 3♣" in texts
    (m,) = GAME.parse(s, 0, "store stall 8♠ in 7♥ for 3♣")
    assert m["card"] == "8S.1" and m["mark"] == {"8S.1": "stall"}
    s2, _ = play(s, 0, m)
    assert "3C.1" in s2.stalls[0] and s2.hands[0] == ("8S.2", "KC.1")
    (m,) = GAME.parse(s, 0, "store 8♠ in 7♥")
    assert m["card"] == "8S.2" and "mark" not in m
    (m,) = GAME.parse(s, 0, "favor stall K♣ build at 8♠ with 8♠ K♣")
    assert m["card"] == "KC.2" and m["cards"] == ["8S.1", "KC.1"]
    assert GAME.describe(m) == "favor stall K♣ build at 8♠ with 8♠ K♣"
    # the word is only written when it matters
    s = turn([["KC.1"], [], []], stalls=[["8S.1"], [], []], buildings=[[farm], [], []])
    assert "store 8♠ in 7♥ for 3♣" in roundtrip_all(s, 0)
    assert GAME.parse(s, 0, "store stall 8♠ in 7♥ for 3♣")[0].get("mark") is None


def test_exposed_and_face_down_copies_are_told_apart():
    est = B("8H.1", ("8S.1", "3C.2", "8C.1", "3C.1"), "3C.1")
    s = turn([["8D.1"], [], []], stalls=[["2S.1"], [], []], buildings=[[est], [], []])
    texts = roundtrip_all(s, 0)
    assert "store 8♦ in 8♥ for 3♣" in texts and "store 8♦ in 8♥ for face-down 3♣" in texts
    assert GAME.parse(s, 0, "store 8 in 8 for 3")[0]["out"] == "3C.1"
    s2, _ = say(s, 0, "store 8♦ in 8♥ for face-down 3♣")
    assert s2.buildings[0][0].exposed == "3C.1" and "3C.2" in s2.hands[0]


def test_two_buildings_at_one_address_card_keep_the_copy_number():
    """The one place a copy is named: the same address card twice in one player's row."""
    a = B("7H.1", ("7S.1", "7D.1", "7C.1"), None, "2C.1")
    b = B("7H.2", ("7S.2", "7D.2", "7C.2"), None, "4C.1")
    s = turn([["QS.1"], [], []], stalls=[["2S.1"], [], []], buildings=[[a, b], [], []])
    texts = roundtrip_all(s, 0)
    assert "harvest 7♥" in texts and "harvest 7♥#2" in texts
    assert GAME.parse(s, 0, "harvest 7♥#2")[0]["building"] == "7H.2"
    other = turn([["QS.1"], [], []], stalls=[["2S.1"], [], []], buildings=[[], [a, b], []])
    texts = roundtrip_all(other, 0)
    assert "favor Q♠ visit p2 7♥" in texts and "favor Q♠ visit p2 7♥#2" in texts
    alone = turn([["QS.1"], [], []], stalls=[["2S.1"], [], []], buildings=[[b], [], []])
    assert "harvest 7♥" in roundtrip_all(alone, 0)


def test_declarations_tell_the_two_copies_apart():
    """A16: declaring different copies is not declaring the same card."""
    s = started(3)
    s = replace(s, stage="bid", royal="J", sealed_seats=(0, 1, 2), waiting=(0, 1, 2),
                market=("3D.2", "3D.1", "4H.1"), herald=0, coins=(5, 5, 5))
    for seat, bid in enumerate([2, 2, 0]):
        s, _ = play(s, seat, {"type": "bid", "coins": bid})
    assert roundtrip_all(s, 0) == ["declare 3♦#2", "declare 3♦", "declare 4♥"]
    s, _ = say(s, 0, "declare 3♦")
    s, _ = say(s, 1, "declare 3♦#2")
    assert "3D.1" in s.hands[0] and "3D.2" in s.hands[1]


def test_single_top_bidder_and_buys_take_either_copy_as_one():
    s = started(3)
    s = replace(s, stage="bid", royal="J", sealed_seats=(0, 1, 2), waiting=(0, 1, 2),
                market=("3D.2", "3D.1", "4H.1"), herald=0, coins=(5, 5, 5))
    for seat, bid in enumerate([2, 1, 0]):
        s, _ = play(s, seat, {"type": "bid", "coins": bid})
    assert roundtrip_all(s, 0) == ["take 3♦", "take 4♥"]
    assert GAME.legal_moves(s, 0)[0] == {"type": "take", "card": "3D.1"}


def test_refusals_suggest_canonical_texts():
    s = turn([["8S.1"], [], []], stalls=[["8H.1", "8H.2"], [], []])
    with pytest.raises(CommandError) as err:
        GAME.parse(s, 0, "hide 9")
    assert err.value.suggestions == ["hide 8♥"]


def test_history_writes_cards_the_same_way():
    s = turn([[], [], []], stalls=[["5H.2"], ["KS.1"], []])
    _, events = say(s, 0, "trade 5♥ for p2 K♠")
    text = GAME.redact(events[0], 1)["text"]
    assert "5♥" in text and "K♠" in text and not SUFFIX.search(text)
