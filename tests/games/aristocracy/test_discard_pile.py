"""A13 with A11/A14: which discards lie face up.

Version 2 (A13 as amended, the tests at the end of this file): the 4 oldest discards are
face up, always, whoever discarded them; a tax or production card among them is public.

Version 1 (games begun before version 2 keep it; the tests named ``_v1`` pin it): the
discard pile runs oldest to newest and at most four of its cards lie face up, but a card
discarded unseen or hidden (a farm's production card discarded when the farm is upgraded,
A11, or dissolved by a downgrade or a visit, A8/A12; tax discards, A14) goes into the pile
face down and does not take a face-up place as it arrives, even when fewer than four cards
lie face up. Only public discards fill free face-up places as they arrive. A face-down card
turns up only by A13's rule: when a Buy takes a face-up card, the oldest face-down card
turns up, and from then on it is public.
"""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from service.games.aristocracy import GAME
from service.games.aristocracy.flow import advance, recorder
from service.games.aristocracy.state import Building as B
from service.games.cards import french
from service.games.contract import IllegalMove
from tests.games.aristocracy.helpers import play, say, started, turn
from tests.games.test_invariants import ids_in

SEATS = (0, 1, 2, None)


def clean(s):
    """The scenario's cards taken out of the deck, so that every card lies in one place
    (secrets() counts the deck as secret)."""
    placed = [c for z, cards in GAME.zones(s).items() if z != "deck" for c in cards]
    assert len(placed) == len(set(placed))
    return replace(s, deck=tuple(c for c in s.deck if c not in set(placed)))


def assert_face_down(s, card, events=(), told=(), seats=SEATS):
    """`card` lies face down in the pile: no view shows it, it is secret to every seat
    (its owner and the discarder included), and no history entry names it to a seat not
    in `told`."""
    assert card in s.discard and card not in s.face_up
    assert card in GAME.zones(s)["discard:face-down"]
    for seat in seats:
        v = GAME.view(s, seat)
        assert card not in v["discard_face_up"]
        assert card not in ids_in(v), f"seat {seat} sees {card}"
        assert card in GAME.secrets(s, seat)
        if seat in told:
            continue
        for e in events:
            seen = GAME.redact(e, seat)
            assert seen is None or french.label(card) not in seen["text"], (seat, e.type)


def assert_face_up(s, card, seats=SEATS):
    assert card in s.face_up and card in GAME.zones(s)["discard"]
    for seat in seats:
        assert card in GAME.view(s, seat)["discard_face_up"]
        assert card not in GAME.secrets(s, seat)


def test_a11_upgrade_discards_production_face_down_into_an_almost_empty_pile_v1():
    """A11/A13: upgrading a farm discards its production card unseen. With one card in the
    pile it must not take one of the free face-up places (the leak the audit found); a later
    public discard (a sale) does take them."""
    farm = B("7H.1", ("7S.2", "7D.1", "7C.1"), None, "QC.2")
    s = turn([["7S.1"], [], []], stalls=[["2S.1", "3S.1", "4S.1"], [], []], coins=[2, 3, 3],
             buildings=[[farm], [], []], discard=("5H.2",), face_up=("5H.2",), rules=1)
    s = clean(s)
    s, ev = say(s, 0, "royal upgrade farm 7 with 7")
    assert s.discard == ("5H.2", "QC.2") and s.face_up == ("5H.2",)
    assert_face_down(s, "QC.2", ev)
    for seat in SEATS:
        v = GAME.view(s, seat)
        assert v["discard_face_up"] == ["5H.2"] and v["discard_count"] == 2
    s, ev2 = say(s, 0, "sell 2 3")
    assert s.face_up == ("5H.2", "2S.1", "3S.1"), "public discards fill the free places"
    assert_face_down(s, "QC.2", ev + ev2)
    with pytest.raises(IllegalMove):
        play(s, 0, {"type": "royal", "do": "buy", "take": "QC.2"})


def test_a8_dissolved_farm_production_goes_face_down_v1():
    """A8: a downgraded farm comes home whole and its production card is discarded unseen,
    face down, though the pile is empty."""
    farm = B("7H.1", ("7S.1", "7D.1", "3C.1"), None, "9C.2")
    s = clean(turn([[], [], []], stalls=[["2S.1", "3S.1"], [], []], buildings=[[farm], [], []],
                   rules=1))
    s, ev = say(s, 0, "downgrade farm 7")
    assert s.buildings[0] == () and s.discard == ("9C.2",) and s.face_up == ()
    assert_face_down(s, "9C.2", ev)


def test_a12_visit_dissolving_a_farm_exposed_card_up_production_down_v1():
    """A12: discarding the exposed card of a farm dissolves it; the exposed card is public
    and takes a face-up place, the production card is discarded unseen, face down."""
    farm = B("7H.1", ("7S.1", "7D.1", "3C.1"), "3C.1", "9C.2")
    s = turn([["QS.1"], [], []], stalls=[["2S.1", "3S.1"], [], []],
             buildings=[[], [farm], []], rules=1)
    s = clean(s)
    s, ev = say(s, 0, "favor Q visit p2 7")
    s, ev2 = say(s, 0, "discard exposed")
    assert s.buildings[1] == ()
    assert s.discard == ("QS.1", "3C.1", "9C.2") and s.face_up == ("QS.1", "3C.1")
    assert_face_up(s, "3C.1")
    assert_face_down(s, "9C.2", ev + ev2)


def test_a14_tax_discards_go_face_down_into_an_almost_empty_pile_v1():
    """A14/A13: tax discards are hidden, so they lie face down even with free face-up
    places; the history names them to the discarder only."""
    s = started(2, rules=1)
    big = tuple(f"{r}C.2" for r in ("2", "3", "4", "5", "6", "7", "8", "10", "J"))
    small = tuple(f"{r}D.2" for r in ("2", "3", "4", "5", "6", "7"))
    s = replace(s, stage="phase", hands=(big, small), round=2, discard=("5H.2",),
                face_up=("5H.2",), market=(), deck=s.deck + s.hands[0] + s.hands[1] + s.market)
    s = clean(s)
    run = recorder(s)
    advance(run, random.Random(1))
    s = run.state
    assert s.stage == "tax" and s.sealed_seats == (0,)
    taxed = list(s.hands[0][:3])
    s, ev = play(s, 0, {"type": "discard", "cards": taxed})
    assert s.face_up == ("5H.2",) and s.discard == ("5H.2", *taxed)
    for card in taxed:
        assert_face_down(s, card, ev, told=(0,), seats=(0, 1, None))
    paid = next(e for e in ev if e.type == "TaxPaid")
    assert french.label(taxed[0]) in GAME.redact(paid, 0)["text"]
    for seat in (0, 1, None):
        assert GAME.view(s, seat)["discard_face_up"] == ["5H.2"]


def test_a13_buy_turns_up_the_oldest_face_down_card_v1():
    """A13: a face-down card (here a production card discarded on an upgrade) turns up
    only when a Buy takes a face-up card; then it is public."""
    farm = B("7H.1", ("7S.2", "7D.1", "7C.1"), None, "QC.2")
    s = turn([["7S.1", "JS.1"], [], []], stalls=[["2S.1", "3S.1", "4S.1", "5S.1"], [], []],
             buildings=[[farm], [], []], rules=1)
    s = clean(s)
    s, ev = say(s, 0, "royal upgrade farm 7 with 7")
    s, ev2 = say(s, 0, "sell 2 3")
    assert s.discard == ("QC.2", "2S.1", "3S.1") and s.face_up == ("2S.1", "3S.1")
    assert_face_down(s, "QC.2", ev + ev2)
    buys = [m for m in GAME.legal_moves(s, 0) if m.get("do") == "buy"]
    assert buys and all(m["take"] != "QC.2" for m in buys)
    s, _ = say(s, 0, "favor J buy 2")
    assert "2S.1" in s.hands[0]
    assert s.discard == ("QC.2", "3S.1", "JS.1")
    assert s.face_up == ("QC.2", "3S.1", "JS.1"), "the oldest face-down card turns up"
    assert_face_up(s, "QC.2")


def test_a13_reshuffle_takes_the_whole_pile_face_up_and_down():
    """A13: an empty deck is refilled by shuffling the whole pile, face-down cards too."""
    s = started(2)
    s = replace(s, deck=("AS.1",), discard=("2S.1", "3S.1", "4S.1"), face_up=("3S.1",),
                stage="phase", royal="Q", stalls=((), ()), market=())
    run = recorder(s)
    advance(run, random.Random(3))
    shuffled = next(e for e in run.events if e.type == "Reshuffled")
    assert sorted(shuffled.data["order"]) == ["2S.1", "3S.1", "4S.1"]
    assert run.state.discard == () and run.state.face_up == ()


# ---------------------------------------------------------------- version 2 (as amended)


def test_a13_v2_tax_discards_among_the_4_oldest_turn_up_and_are_public():
    """A13 as amended / A14: a hidden tax discard that lands among the 4 oldest is turned up
    and becomes public, whoever discarded it; the next one lies face down and stays secret."""
    # RULINGS Hidden information
    # RULINGS A13
    # RULINGS A14
    s = started(2)
    assert s.rules >= 2     # A13 as amended since version 2
    big = tuple(f"{r}C.2" for r in ("2", "3", "4", "5", "6", "7", "8", "10", "J", "Q"))
    small = tuple(f"{r}D.2" for r in ("2", "3", "4", "5", "6", "7"))
    s = replace(s, stage="phase", hands=(big, small), round=2, discard=("5H.2",),
                face_up=("5H.2",), market=(), deck=s.deck + s.hands[0] + s.hands[1] + s.market)
    s = clean(s)
    run = recorder(s)
    advance(run, random.Random(1))
    s = run.state
    assert s.stage == "tax" and s.sealed_seats == (0,)
    taxed = list(s.hands[0][:4])
    s, ev = play(s, 0, {"type": "discard", "cards": taxed})
    assert s.discard == ("5H.2", *taxed) and s.face_up == ("5H.2", *taxed[:3])
    for card in taxed[:3]:
        assert_face_up(s, card, seats=(0, 1, None))
    assert_face_down(s, taxed[3], ev, told=(0,), seats=(0, 1, None))


def test_a13_v2_production_discarded_unseen_turns_up_among_the_4_oldest():
    """A13 as amended / A11: upgrading a farm discards its production card unseen; landing
    second in the pile it is turned up at once, and a Buy may take it."""
    # RULINGS A11
    # RULINGS A13
    farm = B("7H.1", ("7S.2", "7D.1", "7C.1"), None, "QC.2")
    s = turn([["7S.1", "JS.1"], [], []], stalls=[["2S.1", "3S.1", "4S.1"], [], []],
             coins=[2, 3, 3], buildings=[[farm], [], []], discard=("5H.2",), face_up=("5H.2",))
    s = clean(s)
    s, ev = say(s, 0, "royal upgrade farm 7 with 7")
    assert s.discard == ("5H.2", "QC.2") and s.face_up == ("5H.2", "QC.2")
    assert_face_up(s, "QC.2")
    buys = [m["take"] for m in GAME.legal_moves(s, 0) if m.get("do") == "buy"]
    assert "QC.2" in buys
    s, _ = say(s, 0, "favor J buy Q")
    assert "QC.2" in s.hands[0]


def test_a13_v2_dissolved_farm_production_turns_up_in_an_empty_pile():
    """A13 as amended / A8: a downgraded farm's production card, discarded unseen into an
    empty pile, is among the 4 oldest and so face up."""
    # RULINGS A8
    farm = B("7H.1", ("7S.1", "7D.1", "3C.1"), None, "9C.2")
    s = clean(turn([[], [], []], stalls=[["2S.1", "3S.1"], [], []], buildings=[[farm], [], []]))
    s, _ = say(s, 0, "downgrade farm 7")
    assert s.discard == ("9C.2",) and s.face_up == ("9C.2",)
    assert_face_up(s, "9C.2")


def test_a13_v2_buy_turns_up_the_oldest_face_down_card():
    """A13: Buy takes a face-up card; the oldest face-down one turns up, so the 4 oldest are
    still the face-up ones."""
    # RULINGS A13
    pile = ("5H.2", "6H.2", "7H.2", "8H.2", "9H.2", "10H.2")
    s = turn([["JS.1"], [], []], stalls=[["2S.1", "3S.1"], [], []], discard=pile,
             face_up=pile[:4])
    s = clean(s)
    assert_face_down(s, "9H.2")
    s, _ = say(s, 0, "favor J buy 6")
    assert s.discard == ("5H.2", "7H.2", "8H.2", "9H.2", "10H.2", "JS.1")
    assert s.face_up == ("5H.2", "7H.2", "8H.2", "9H.2")
    assert_face_up(s, "9H.2")


def test_favor_discard_is_public_wherever_it_lies():
    """Hidden information as amended: a J/Q/K discarded for a favor is shown as it is
    played, so it is no secret to anyone even when it lies face down in the pile."""
    # RULINGS Hidden information
    # RULINGS A10
    pile = ("5H.2", "6H.2", "7H.2", "8H.2", "9H.2")
    s = turn([["JS.1"], [], []], stalls=[["2S.1", "3S.1"], [], []], discard=pile,
             face_up=pile[:4])
    s = clean(s)
    s, ev = say(s, 0, "favor J buy 5")
    assert "JS.1" in s.discard and "JS.1" not in s.face_up
    favored = next(e for e in ev if e.type == "Favored")
    for seat in SEATS:
        assert "JS.1" not in GAME.secrets(s, seat)
        assert "J♠" in GAME.redact(favored, seat)["text"]
    assert "9H.2" not in GAME.secrets(s, 1), "the oldest face-down card turned up"
