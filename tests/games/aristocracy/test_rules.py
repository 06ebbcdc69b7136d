"""Scenario tests, one or more per ruling A1-A21 (docs/rules/rulings.md) and seed sentence."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from service.games.aristocracy import GAME
from service.games.aristocracy.flow import advance, recorder
from service.games.aristocracy.rules import decisions
from service.games.aristocracy.state import Building, all_cards
from service.games.contract import CommandError, IllegalMove, OptionError, replay
from tests.games.aristocracy.helpers import play, say, started, turn

B = Building


def test_a1_two_decks_less_one_set_of_diamond_royals():
    """A1: only one deck's K♦ Q♦ J♦ are removed: 101 cards."""
    # RULINGS A1
    cards = all_cards("4-5-6")
    assert len(cards) == len(set(cards)) == 101
    assert "KD.1" in cards and "KD.2" not in cards and "QD.2" not in cards
    assert len(all_cards("2-3-4")) == 49


def test_a21_hand_sizes_and_deal():
    """A21: hand size = twice the farm size minus one; the short game 5 cards, one deck."""
    # RULINGS A21
    for sizes, k in (("4-5-6", 7), ("5-6-7", 9), ("4-5-7", 7), ("2-3-4", 5)):
        s = started(3, sizes=sizes)
        assert all(len(h) == k for h in s.hands)
        assert s.coins == (3, 3, 3)
        assert s.bcounts() == tuple(x - 1 for x in s.sizes)


def test_deck_option_fixes_order_and_is_checked():
    order = all_cards("2-3-4")
    s = started(2, sizes="2-3-4", deck=",".join(order))
    assert s.hands[0] == tuple(order[:5]) and s.hands[1] == tuple(order[5:10])
    assert s.market == tuple(order[10:12])
    with pytest.raises(OptionError):
        GAME.validate_options(2, {"sizes": "2-3-4", "deck": "AS.1,2S.1"})


def test_a20_first_king_phase_has_no_draw_and_starts_with_stalls():
    """A20: market 2 cards; no draw in the very first King phase; nobody is over the limit."""
    # RULINGS A20
    s = started(3)
    assert s.stage == "stall" and len(s.market) == 2 and s.royal == "K" and s.round == 1
    assert GAME.to_act(s) == frozenset({0, 1, 2})


def test_a3_sealed_stalls_collected_replaceable_and_revealed_together():
    """A3: all choose at once; a choice may be replaced until the last is in; nothing of it
    reaches another seat before the reveal."""
    # RULINGS A3
    s = started(3)
    c0 = s.hands[0][0]
    s, ev = play(s, 0, {"type": "stall", "cards": [c0]})
    assert GAME.to_act(s) == frozenset({1, 2})
    assert GAME.legal_moves(s, 0), "a seat that chose may still replace its choice"
    for seat in (1, 2, None):
        assert c0 not in str(GAME.view(s, seat)) or c0 in str(GAME.view(s, seat)["market"])
        assert all(c0 not in str(GAME.redact(e, seat)) for e in ev)
    assert GAME.view(s, 0)["sealed"]["mine"] == [c0]
    s, _ = play(s, 0, {"type": "stall", "cards": []})     # replaced
    s, _ = play(s, 1, {"type": "stall", "cards": []})
    assert s.stage == "stall"
    s, _ = play(s, 2, {"type": "stall", "cards": [s.hands[2][0]]})
    assert s.stalls[0] == () and len(s.stalls[2]) == 1


def test_a3_herald_order_commits():
    """A3 option: collected in Herald order; later players see only counts."""
    # RULINGS A3
    s = started(3, herald_order_commits=True)
    first, second = s.order()[0], s.order()[1]
    assert GAME.to_act(s) == frozenset({first})
    with pytest.raises(IllegalMove):
        play(s, second, {"type": "stall", "cards": []})
    s, _ = play(s, first, {"type": "stall", "cards": list(s.hands[first][:2])})
    assert GAME.to_act(s) == frozenset({second})
    assert GAME.view(s, second)["sealed"]["counts"] == {str(first): 2}


def test_timeout_defaults():
    s = started(3)
    assert GAME.timeout_move(s, 0) == {"type": "stall", "cards": []}


def test_a4_actions_equal_stall_size_and_pass_ends():
    """A4: actions = stall size at the start of the turn; trading does not change it."""
    # RULINGS A4
    s = turn([["2H.1"], ["3H.1"], []], stalls=[["5H.1", "6H.1"], ["KS.1"], []], herald=0)
    s = replace(s, market=("9C.1",))
    s, _ = say(s, 0, "trade 5 for market 9")
    assert s.actions == 1 and s.stalls[0] == ("9C.1", "6H.1")
    s, _ = say(s, 0, "hide 9")
    assert s.active != 0 and s.stage == "turn" and s.active == 1   # turn over; p2 acts


def test_a4_a5_turn_order_lowest_stall_value_then_herald_order():
    """A4/A5: lowest stall value acts first, ties in Herald order; empty stalls skip."""
    # RULINGS A4
    # RULINGS A5
    s = started(3)
    s = replace(s, herald=1, hands=(("KH.1", "2C.1"), ("5C.1",), ("AH.1", "4C.1", "9C.1")))
    s, _ = play(s, 0, {"type": "stall", "cards": ["KH.1"]})
    s, _ = play(s, 1, {"type": "stall", "cards": ["5C.1"]})
    s, _ = play(s, 2, {"type": "stall", "cards": ["AH.1", "4C.1"]})
    assert s.active == 1           # 5 vs 5: seat 1 is the Herald
    s, _ = say(s, 1, "pass")
    assert s.active == 2
    s, _ = say(s, 2, "pass")
    assert s.active == 0


def test_a6_trade_with_opponent_stall():
    # RULINGS A6
    s = turn([[], [], []], stalls=[["5H.1"], ["KS.1"], []])
    s, _ = say(s, 0, "trade 5 for p2 K")
    assert s.stalls[0] == ("KS.1",) and s.stalls[1] == ("5H.1",)
    with pytest.raises((IllegalMove, CommandError)):
        say(turn([[], [], []], stalls=[["5H.1"], [], []]), 0, "trade 5 for p1 5")


def test_a7_store_swaps_and_ends_exposure():
    """A7: the card taken out goes where the incoming came from; exposure ends."""
    # RULINGS A7
    s = turn([["7C.1"], [], []], stalls=[["2S.1"], [], []],
             buildings=[[B("7H.1", ("7S.1", "7D.1", "3C.1"), "3C.1")], [], []])
    s, _ = say(s, 0, "store 7 in farm 7")
    b = s.buildings[0][0]
    assert b.cards == ("7S.1", "7D.1", "7C.1") and b.exposed is None and b.complete()
    assert "3C.1" in s.hands[0]


def test_a8_downgrade_estate_and_farm():
    """A8: one building card to the hand; from a farm everything comes home."""
    # RULINGS A8
    est = B("8H.1", ("8S.1", "8D.1", "8C.1", "2C.1"))
    farm = B("7H.1", ("7S.1", "7D.1", "3C.1"), None, "9C.2")
    s = turn([[], [], []], stalls=[["2S.1", "3S.1"], [], []], buildings=[[est, farm], [], []])
    s, _ = say(s, 0, "downgrade estate 8")
    assert len(s.buildings[0][0].cards) == 3 and "2C.1" in s.hands[0]
    s, _ = say(s, 0, "downgrade farm 7")
    assert len(s.buildings[0]) == 1
    assert {"7H.1", "7S.1", "7D.1", "3C.1"} <= set(s.hands[0]) and "9C.2" in s.discard


def test_a8_downgrade_many_option():
    # RULINGS A8
    ch = B("8H.1", ("8S.1", "8D.1", "8C.1", "2C.1", "4C.1"))
    s = turn([[], [], []], stalls=[["2S.1"], [], []], buildings=[[ch], [], []])
    with pytest.raises(IllegalMove):
        play(s, 0, {"type": "downgrade", "building": "8H.1", "cards": ["2C.1", "4C.1"]})
    s = replace(s, options={**s.options, "downgrade_many": True})
    s2, _ = play(s, 0, {"type": "downgrade", "building": "8H.1", "cards": ["2C.1", "4C.1"]})
    assert s2.kind(s2.buildings[0][0]) == "farm"


def test_a9_sell_two_for_a_coin():
    # RULINGS A9
    s = turn([[], [], []], stalls=[["2S.1", "3S.1"], [], []])
    s, _ = say(s, 0, "sell 2 3")
    assert s.coins[0] == 4 and s.discard[-2:] == ("2S.1", "3S.1")


def test_a10_favor_any_phase_and_royal_for_a_coin():
    """A10: a face card grants its royal's action in any phase; Royal costs 1 coin and only
    does the current phase's action."""
    # RULINGS A10
    # RULINGS A13
    hand = ["JS.1", "4C.1"]
    s = turn([hand, [], []], stalls=[["2S.1"], [], []], royal="Q")
    s = replace(s, discard=("5H.2", "6H.2", "7H.2", "8H.2", "9H.2"),
                face_up=("5H.2", "6H.2", "7H.2", "8H.2"))
    with pytest.raises(IllegalMove):
        say(s, 0, "royal buy 5")
    s2, _ = say(s, 0, "favor J buy 5")
    assert "5H.2" in s2.hands[0] and "JS.1" not in s2.hands[0] and s2.coins[0] == 3
    assert s2.face_up == ("6H.2", "7H.2", "8H.2", "9H.2"), "A13: the next turns face up"
    s = replace(s, royal="J")
    s3, _ = say(s, 0, "royal buy 6")
    assert s3.coins[0] == 2 and "6H.2" in s3.hands[0]


def test_a11_build_and_upgrade():
    """A11: address + 3/4/5 face-down cards from hand and stall; upgrades add cards and
    discard the farm's production unseen; mismatches allowed."""
    # RULINGS A11
    s = turn([["8S.1", "8D.1", "3H.1", "KC.1"], [], []], stalls=[["8H.1", "8C.1"], [], []])
    s, _ = say(s, 0, "favor K build estate at 8 with 8 8 8 3")
    b = s.buildings[0][0]
    assert s.kind(b) == "estate" and not b.complete() and "KC.1" in s.discard
    s = turn([["7S.1"], [], []], stalls=[["2S.1"], [], []], coins=[2, 3, 3],
             buildings=[[B("7H.1", ("7S.2", "7D.1", "7C.1"), None, "QC.2")], [], []])
    s, _ = say(s, 0, "royal upgrade farm 7 with 7")
    b = s.buildings[0][0]
    assert s.kind(b) == "estate" and b.production is None and "QC.2" in s.discard
    assert b.address == "7H.1" and s.coins[0] == 1
    with pytest.raises(IllegalMove):
        play(turn([["2S.1", "3S.1"], [], []], stalls=[["4S.1"], [], []]), 0,
             {"type": "royal", "do": "build", "address": "4S.1", "cards": ["2S.1", "3S.1"]})


def test_a12_visit_mismatch_pays_and_exposes_privately():
    # RULINGS A12
    farm = B("7H.1", ("7S.1", "7D.1", "3C.1"))
    s = turn([["QS.1"], [], []], stalls=[["2S.1"], [], []], buildings=[[], [farm], []])
    s, ev = say(s, 0, "favor Q visit p2 farm 7")
    assert s.stage == "visit" and s.coins == (4, 2, 3)
    assert "3C.1" in GAME.view(s, 0)["visit"]["look"]
    assert "3C.1" not in str(GAME.view(s, 2)) and "3♣" not in GAME.redact(ev[-1], 2)["text"]
    assert "3♣" in GAME.redact(ev[-1], 0)["text"]
    s, _ = say(s, 0, "expose 3")
    assert s.buildings[1][0].exposed == "3C.1" and s.stage == "turns" or s.active != 0


def test_a12_visit_all_matching_does_nothing():
    # RULINGS A12
    farm = B("7H.1", ("7S.1", "7D.1", "7C.1"))
    s = turn([["QS.1"], [], []], stalls=[["2S.1", "3S.1"], [], []],
             buildings=[[], [farm], []])
    s, _ = say(s, 0, "favor Q visit p2 7")
    assert s.stage == "turn" and s.coins == (3, 3, 3)


def test_a12_exposed_card_discarded_degrades():
    # RULINGS A12
    est = B("8H.1", ("8S.1", "8D.1", "8C.1", "2C.1"), "2C.1")
    s = turn([["QS.1"], [], []], stalls=[["2S.1", "3S.1"], [], []], buildings=[[], [est], []])
    s, _ = say(s, 0, "favor Q visit p2 8")
    assert s.visit["mode"] == "exposed"
    s1, _ = say(s, 0, "discard exposed")
    assert s1.kind(s1.buildings[1][0]) == "farm" and s1.buildings[1][0].complete()
    s2, _ = say(s, 0, "take coin")
    assert s2.coins == (4, 2, 3)
    farm = B("7H.1", ("7S.1", "7D.1", "3C.1"), "3C.1")
    s = turn([["QS.1"], [], []], stalls=[["2S.1", "3S.1"], [], []], buildings=[[], [farm], []])
    s, _ = say(s, 0, "favor Q visit p2 7")
    s, _ = say(s, 0, "discard exposed")
    assert s.buildings[1] == () and {"7H.1", "7S.1", "7D.1"} <= set(s.hands[1])


def test_a13_reshuffle_when_deck_runs_out():
    # RULINGS A13
    s = started(2)
    s = replace(s, deck=("AS.1",), discard=("2S.1", "3S.1", "4S.1"), stage="phase",
                royal="Q", stalls=((), ()), market=())
    from service.games.aristocracy.flow import advance, recorder
    run = recorder(s)
    advance(run, random.Random(3))
    assert run.events[1].type == "MarketDrawn" or run.events[1].type == "Reshuffled"
    assert run.state.discard == () and run.state.market[0] == "AS.1"


def test_a14_tax_over_the_limit():
    """A14: hand limit 7 + châteaux; over it, choose exactly the excess, hidden."""
    # RULINGS A14
    s = started(2)
    ch = B("9H.1", ("9S.1", "9D.1", "9C.1", "9H.2", "9S.2"))
    big = tuple(f"{r}C.2" for r in ("2", "3", "4", "5", "6", "7", "8", "10", "J"))
    s = replace(s, stage="phase", hands=(big, big[:7]), round=2,
                buildings=((), (ch,)), deck=tuple(c for c in s.deck if c not in big))
    from service.games.aristocracy.flow import advance, recorder
    run = recorder(s)
    advance(run, random.Random(1))
    s = run.state
    assert s.stage == "tax" and s.sealed_seats == (0,)       # 10 > 7, while 8 <= 7 + 1 château
    with pytest.raises(IllegalMove):
        play(s, 0, {"type": "discard", "cards": list(s.hands[0][:2])})
    s, ev = play(s, 0, {"type": "discard", "cards": list(s.hands[0][:3])})
    assert len(s.hands[0]) == 7 and s.stage == "stall"
    assert "discards 3" in GAME.redact(ev[-2], 1)["text"]


def test_a15_ball_returns_as_many_as_given():
    # RULINGS A15
    s = started(3, seed=5)
    s = replace(s, stage="ball", sealed_seats=(0, 1, 2), waiting=(0, 1, 2), royal="Q")
    given = list(s.hands[0][:3])
    s, _ = play(s, 0, {"type": "ball", "cards": given})
    s, _ = play(s, 1, {"type": "ball", "cards": []})
    s, ev = play(s, 2, {"type": "ball", "cards": list(s.hands[2][:1])})
    assert [len(h) for h in s.hands] == [7, 7, 7] and len(s.market) == 2
    held = next(e for e in ev if e.type == "BallHeld")
    assert "gives 3" in GAME.redact(held, 1)["text"]


def _auction(bids, coins=(5, 5, 5), rules=None):
    s = started(3, rules=rules)
    s = replace(s, stage="bid", royal="J", sealed_seats=(0, 1, 2), waiting=(0, 1, 2),
                market=("2H.1", "3H.1", "4H.1"), herald=0, coins=coins)
    for seat, b in enumerate(bids):
        s, _ = play(s, seat, {"type": "bid", "coins": b})
    return s


def test_a16_single_top_bidder_pays_second_price():
    # RULINGS A16
    s = _auction([3, 1, 0])
    assert s.stage == "pick" and GAME.to_act(s) == frozenset({0})
    s, _ = say(s, 0, "take 3")
    assert "3H.1" in s.hands[0] and s.coins == (4, 5, 5)


def test_a16_ties_declare_in_herald_order():
    # RULINGS A16
    s = _auction([2, 2, 2])
    assert s.stage == "declare"
    s, _ = say(s, 0, "declare 2")
    s, _ = say(s, 1, "declare 2")
    s, _ = say(s, 2, "declare 4")
    assert "4H.1" in s.hands[2] and s.coins == (5, 5, 3)
    assert "2H.1" in s.discard and s.market == ("3H.1",) or "3H.1" in s.discard


def test_a16_top_bid_zero_sells_nothing_v1():
    """Version 1 only (games begun before A16 was amended): all-zero bids sold nothing."""
    s = _auction([0, 0, 0], rules=1)
    assert s.stage == "stall" and len(s.market) == 3


def test_a16_v2_all_zero_bids_tie_and_declare():
    """A16 as amended: 0 is a bid like any other; when every bid is 0 all are tied top
    bidders and declare in Herald order, a card declared by one alone going for 0."""
    # RULINGS A16
    s = _auction([0, 0, 0])
    assert s.stage == "declare" and s.auction["tied"] == [0, 1, 2] and s.auction["price"] == 0
    s, _ = say(s, 0, "declare 2")
    s, _ = say(s, 1, "declare 3")
    s, _ = say(s, 2, "declare 3")
    assert "2H.1" in s.hands[0] and s.coins == (5, 5, 5)
    assert "3H.1" in s.discard and s.market == ("4H.1",)


def test_a16_v2_every_player_bids_and_a_coinless_one_bids_0():
    """A16 as amended: every player takes part; one without coins bids 0 at once (nobody
    waits on them); they are a tied top bidder when every bid is 0."""
    # RULINGS A16
    s = started(3)
    s = replace(s, stage="closing", royal="Q", market=(), coins=(0, 2, 0), herald=0,
                offered=True)
    run = recorder(s)
    advance(run, random.Random(2))
    s = run.state
    assert s.stage == "bid" and s.sealed_seats == (0, 1, 2)
    assert s.choices == {0: 0, 2: 0} and GAME.to_act(s) == frozenset({1})
    auto = [e for e in run.events if e.type == "ChoiceMade"]
    assert "has no coins and bids 0" in GAME.redact(auto[0], 1)["text"]
    assert decisions(s, 1) == [{"type": "bid", "coins": k} for k in range(3)]
    s, _ = play(s, 1, {"type": "bid", "coins": 0})
    assert s.stage == "declare" and s.auction["tied"] == [0, 1, 2]


def test_a16_v1_coinless_players_are_left_out():
    s = started(3, rules=1)
    s = replace(s, stage="closing", royal="Q", market=(), coins=(0, 2, 0), herald=0,
                offered=True)
    run = recorder(s)
    advance(run, random.Random(2))
    assert run.state.stage == "bid" and run.state.sealed_seats == (1,)


def test_a17_production_and_a18_income():
    # RULINGS A17
    # RULINGS A18
    # RULINGS A2
    farm = B("7H.1", ("7S.1", "7D.1", "7C.1"))
    est = B("8H.1", ("8S.1", "8D.1", "8C.1", "2C.1"))
    s = started(2)
    s = replace(s, stage="closing", royal="Q", buildings=((farm, est), ()), market=())
    from service.games.aristocracy.flow import advance, recorder
    run = recorder(s)
    advance(run, random.Random(1))
    assert run.state.coins == (4, 3)
    s = replace(run.state, stage="closing", royal="J")
    top = s.deck[0]
    run = recorder(s)
    advance(run, random.Random(1))
    s = run.state
    assert s.buildings[0][0].production == top and s.buildings[0][1].production is None
    assert top not in str(GAME.view(s, 0)) and s.herald == (started(2).herald + 1) % 2


def test_a19_end_offered_only_when_true_and_scoring():
    # RULINGS A19: a game begun under rules 3 still asks those who qualify
    ch = B("9H.1", ("9S.1", "9D.1", "9C.1", "9H.2", "9S.2"))
    farms = tuple(B(f"{r}H.1", (f"{r}S.1", f"{r}D.1", f"{r}C.1")) for r in "234")
    s = started(2, rules=3)
    s = replace(s, stage="closing", royal="K", buildings=((ch, *farms), (farms[0],)),
                market=())
    from service.games.aristocracy.flow import advance, recorder
    run = recorder(s)
    advance(run, random.Random(1))
    s = run.state
    assert s.stage == "end" and GAME.to_act(s) == frozenset({0})
    s2, _ = say(s, 0, "pass")
    assert s2.stage == "ball" and s2.royal == "Q"
    s3, _ = say(s, 0, "end game")
    out = GAME.outcome(s3)
    assert out.scores == (6.0, 1.0) and out.winners == (0,)


def test_a19_tie_breaks_coins_then_hand_value_then_herald():
    # RULINGS A19
    s = started(2)
    s = replace(s, stage="end", asked=(0,), coins=(3, 3), herald=1,
                hands=(("KH.1",), ("QH.1",)))
    s2, _ = say(s, 0, "end game")
    assert GAME.outcome(s2).winners == (1,)      # equal everything: Herald order
    s = replace(s, hands=(("KH.1", "2C.1"), ("QH.1",)))
    assert GAME.outcome(say(s, 0, "end game")[0]).winners == (0,)
    s = replace(s, coins=(3, 4))
    assert GAME.outcome(say(s, 0, "end game")[0]).winners == (1,)


def test_round_cap_ends_after_the_jack_phase():
    # RULINGS A19
    s = started(2, round_cap=1)
    s = replace(s, stage="closing", royal="J", market=())
    from service.games.aristocracy.flow import advance, recorder
    run = recorder(s)
    advance(run, random.Random(1))
    assert run.state.stage == "over" and GAME.outcome(run.state).how.startswith("the round")


def test_waiting_seat_refused_and_state_unchanged():
    s = turn([[], [], []], stalls=[["2S.1"], ["3S.1"], []])
    with pytest.raises(IllegalMove):
        play(s, 1, {"type": "pass"})


def test_replay_reproduces():
    rng = random.Random(4)
    o = GAME.validate_options(3, {})
    log = GAME.start(3, o, rng)
    s = replay(GAME, log)
    for _ in range(200):
        seat = min(GAME.to_act(s))
        ev = GAME.decide(s, seat, GAME.bots["greedy"](s, seat, rng), rng)
        log += ev
        s = replay(GAME, ev, s)
    assert replay(GAME, log) == s
