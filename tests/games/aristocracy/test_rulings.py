"""Scenario tests for the rulings (and amended sentences) not pinned elsewhere, the
deadline defaults (`timeout_move`) and the bots the service offers."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from service.games.aristocracy import GAME
from service.games.aristocracy.flow import advance, recorder
from service.games.aristocracy.state import Building as B
from service.games.contract import IllegalMove
from tests.games.aristocracy.helpers import play, say, started, turn
from tests.games.aristocracy.test_discard_pile import clean


def test_a2_first_herald_random_and_royals_pass_left_after_the_jack():
    """A2: the first Herald is random; Herald order runs clockwise from the Herald; the
    royals pass left after the Jack phase only."""
    # RULINGS A2
    heralds = {started(4, seed=k).herald for k in range(12)}
    assert len(heralds) > 1
    s = replace(started(4), herald=2, stage="closing", royal="Q", market=())
    assert s.order() == [2, 3, 0, 1]
    run = recorder(s)
    advance(run, random.Random(1))
    assert run.state.herald == 2 and run.state.royal == "J"
    s = replace(run.state, stage="closing", market=(), stalls=((),) * 4)
    run = recorder(s)
    advance(run, random.Random(1))
    assert run.state.herald == 3 and run.state.royal == "K" and run.state.round == 2


def test_a3_the_lobby_says_sealed_choices_are_made_at_once_and_offers_herald_order():
    """A3 as amended: choosing at once is deliberate, the lobby says so in words, and the
    seed's Herald order is the option (off by default)."""
    # RULINGS A3
    opt = GAME.options["herald_order_commits"]
    assert opt.default is False
    words = (opt.help + " " + opt.label).lower()
    for needed in ("same time", "herald order", "stalls", "bids"):
        assert needed in words, needed


def test_a8_457_chateau_downgrade_takes_two_cards_as_one_downgrade():
    """A8 as amended: with sizes 4-5-7 a château (6 building cards) becomes an estate (4) by
    taking two building cards, as one downgrade; offers, refusal and the move agree."""
    # RULINGS A8
    ch = B("8H.1", ("8S.1", "8D.1", "8C.1", "8H.2", "2C.1", "4C.1"))
    s = turn([[], [], []], stalls=[["2S.1", "3S.1"], [], []], buildings=[[ch], [], []])
    s = replace(s, options={**s.options, "sizes": "4-5-7"})
    assert s.kind(ch) == "chateau"
    offered = [m for m in GAME.legal_moves(s, 0) if m["type"] == "downgrade"]
    assert [len(m["cards"]) for m in offered] == [2]
    with pytest.raises(IllegalMove) as err:
        play(s, 0, {"type": "downgrade", "building": "8H.1", "cards": ["2C.1"]})
    assert "2 building cards" in err.value.why and "estate" in err.value.why
    s2, _ = say(s, 0, "downgrade chateau 8")
    assert s2.kind(s2.buildings[0][0]) == "estate" and s2.actions == 1
    assert {"2C.1", "4C.1"} <= set(s2.hands[0])
    s3, _ = play(s, 0, offered[0])
    assert s3.buildings == s2.buildings


def test_a8_refusal_names_every_downgrade_the_option_offers():
    # RULINGS A8
    ch = B("8H.1", ("8S.1", "8D.1", "8C.1", "2C.1", "4C.1"))
    s = turn([[], [], []], stalls=[["2S.1"], [], []], buildings=[[ch], [], []])
    s = replace(s, options={**s.options, "downgrade_many": True})
    offered = sorted(len(m["cards"]) for m in GAME.legal_moves(s, 0)
                     if m["type"] == "downgrade")
    assert offered == [1, 2, 5]
    with pytest.raises(IllegalMove) as err:
        play(s, 0, {"type": "downgrade", "building": "8H.1", "cards": []})
    for k in offered:
        assert f"{k} building card" in err.value.why


def test_a13_a_sold_card_and_the_market_leftovers_are_public_discards():
    """A13 / hidden information: cards discarded in the open are known to everyone even
    face down (only the 4 oldest are face up)."""
    # RULINGS A13
    pile = ("5H.2", "6H.2", "7H.2", "8H.2")
    s = turn([[], [], []], stalls=[["2S.1", "3S.1", "4S.1"], [], []], discard=pile,
             face_up=pile)
    s, _ = say(clean(s), 0, "sell 2 3")
    assert s.face_up == pile
    for seat in (0, 1, 2, None):
        assert not {"2S.1", "3S.1"} & GAME.secrets(s, seat)


def test_a15_ball_reveal_option_shows_the_pooled_cards():
    # RULINGS A15
    for reveal in (False, True):
        s = started(3, seed=5, ball_reveal=reveal)
        s = replace(s, stage="ball", sealed_seats=(0, 1, 2), waiting=(0, 1, 2), royal="Q")
        gift = s.hands[0][0]
        s, _ = play(s, 0, {"type": "ball", "cards": [gift]})
        s, _ = play(s, 1, {"type": "ball", "cards": []})
        s, ev = play(s, 2, {"type": "ball", "cards": []})
        held = next(e for e in ev if e.type == "BallHeld")
        assert ("pooled" in GAME.redact(held, 1)["text"]) is reveal


def test_a20_market_leftovers_discarded_and_stalls_back_to_hands():
    """A20: after the turns the market is discarded in drawn order and stall cards go
    back to their owners' hands."""
    # RULINGS A20
    s = turn([[], [], []], stalls=[["2S.1"], [], ["9C.1"]], market=("4H.1", "5H.1"))
    s = replace(s, turned=(0, 2))
    s, _ = say(s, 0, "pass")
    assert s.discard[:2] == ("4H.1", "5H.1") and "2S.1" in s.hands[0]
    assert "9C.1" in s.hands[2] and s.stalls == ((), (), ())


def test_a21_variant_sizes_build_and_hands():
    """A21: 5-6-7 builds farms of 4 building cards and deals 9; 2-3-4 uses one deck."""
    # RULINGS A21
    s = started(2, sizes="5-6-7")
    assert s.bcounts() == (4, 5, 6) and len(s.hands[0]) == 9
    s = started(2, sizes="2-3-4")
    assert s.bcounts() == (1, 2, 3) and len(s.hands[0]) == 5


def test_hidden_information_hands_and_building_cards_stay_with_their_owner():
    """Hidden information: hands and face-down building cards are the owner's alone."""
    # RULINGS Hidden information
    # RULINGS A11
    farm = B("7H.1", ("7S.1", "7D.1", "3C.1"))
    s = turn([["QS.1"], ["AH.1"], []], stalls=[["2S.1"], [], []], buildings=[[], [farm], []])
    s = clean(s)
    assert "AH.1" in GAME.secrets(s, 0) and "AH.1" not in GAME.secrets(s, 1)
    assert "3C.1" in GAME.secrets(s, 0) and "3C.1" not in GAME.secrets(s, 1)
    assert "7H.1" not in GAME.secrets(s, 0)          # the address is public


# ---------------------------------------------------------------- deadlines and bots


def test_timeout_move_defaults_for_every_kind_of_decision():
    """The service plays `timeout_move` when a seat's clock runs out: always the mildest
    legal choice, never one that ends the game or spends coins."""
    # RULINGS A3
    s = started(3)
    assert GAME.timeout_move(s, 0) == {"type": "stall", "cards": []}
    t = turn([[], [], []], stalls=[["2S.1"], ["3S.1"], []])
    assert GAME.timeout_move(t, 0) == {"type": "pass"}
    assert GAME.timeout_move(t, 1) is None              # not their turn
    end = replace(started(2), stage="end", asked=(1,))
    assert GAME.timeout_move(end, 1) == {"type": "pass"}
    bid = replace(started(3), stage="bid", royal="J", sealed_seats=(0, 1, 2),
                  waiting=(0, 1, 2), market=("2H.1", "3H.1", "4H.1"), herald=0)
    assert GAME.timeout_move(bid, 2) == {"type": "bid", "coins": 0}


def test_timeout_move_in_auctions_and_visits():
    # RULINGS A16
    s = replace(started(3), stage="bid", royal="J", sealed_seats=(0, 1, 2),
                waiting=(0, 1, 2), market=("2H.1", "3H.1", "4H.1"), herald=0)
    for seat, coins in enumerate((1, 1, 0)):
        s, _ = play(s, seat, {"type": "bid", "coins": coins})
    assert s.stage == "declare"
    assert GAME.timeout_move(s, 0) == {"type": "declare", "card": "2H.1"}
    s, _ = play(s, 0, GAME.timeout_move(s, 0))
    assert GAME.timeout_move(s, 1) == {"type": "declare", "card": "3H.1"}
    # RULINGS A12
    farm = B("7H.1", ("7S.1", "7D.1", "3C.1"))
    v = turn([["QS.1"], [], []], stalls=[["2S.1"], [], []], buildings=[[], [farm], []])
    v, _ = say(v, 0, "favor Q visit p2 7")
    assert GAME.timeout_move(v, 0) == {"type": "expose", "card": None}
    farm = B("7H.1", ("7S.1", "7D.1", "3C.1"), "3C.1")
    v = turn([["QS.1"], [], []], stalls=[["2S.1"], [], []], buildings=[[], [farm], []])
    v, _ = say(v, 0, "favor Q visit p2 7")
    assert GAME.timeout_move(v, 0) == {"type": "take_coin"}


def test_bots_easy_and_normal():
    assert {"easy", "normal"} <= set(GAME.bots)
    s = started(3)
    rng = random.Random(3)
    for name in ("easy", "normal"):
        move = GAME.bots[name](s, 0, rng)
        assert move in GAME.legal_moves(s, 0) or move["type"] == "stall"
        play(s, 0, move)
