"""Magnate rulings M12-M21 (docs/rules/rulings.md): the end, scoring, variants."""
from __future__ import annotations

import random

import pytest

from service.games.contract import IllegalMove, OptionError
from service.games.magnate import GAME
from service.games.magnate.costs import places
from service.games.magnate.scoring import column_total, final
from service.games.magnate.setup import property_deck
from tests.games.magnate.helpers import Script, act, deed, dev, new, player, quiet, say, toks, types

SELL = {"type": "sell"}


def sell(st, seat, chance=None, **kw):
    return act(st, seat, {**SELL, "card": st.players[seat].hand[0]}, chance or Script(
        *([5, 6] * 20)), **kw)


# ---------------------------------------------------------------- M12 the end

def test_m12_first_empty_draw_reshuffles_and_finishes_the_draw():
    # RULINGS M12
    """M12: the first time a card must be drawn from an empty pile, the discards (the card just
    sold included) are shuffled into a new pile and the draw is finished."""
    st = quiet(new(), draw=(), discard=("5ML",))
    st = player(st, 0, hand=("3MV", "4VL", "6SY"))
    st, ev = sell(st, 0)
    assert types(ev)[:5] == ["Sold", "TurnEnded", "Reshuffled", "Drew", "Rolled"]
    assert ev[2].data == {"pile": 2, "order": ["5ML", "3MV"]}
    assert st.pile == 2 and st.final_left is None


def test_m12_two_players_last_card_then_one_final_turn_each():
    # RULINGS M12
    """M12: when the second pile's last card is drawn, no more draws: each player, starting
    with the next one, takes one final turn without drawing; hands discarded unscored."""
    st = quiet(new(), draw=("5ML",), pile=2)
    st = player(st, 0, hand=("3MV", "4VL", "6SY"))
    st = player(st, 1, hand=("7SK", "8YK", "9LK"))
    st, ev = sell(st, 0)
    assert types(ev) == ["Sold", "TurnEnded", "Drew", "EndTriggered", "Rolled"]
    assert st.turn == 1 and GAME.view(st, 0)["end"].startswith("2 turns left")
    st, ev = sell(st, 1)
    assert types(ev) == ["Sold", "TurnEnded", "Rolled"]        # no draw in a final turn
    assert st.turn == 0 and GAME.view(st, 1)["end"] == "this is the last turn"
    st, ev = sell(st, 0)
    assert types(ev) == ["Sold", "TurnEnded", "GameEnded"]
    assert [len(p.hand) for p in st.players] == [0, 0]
    assert len(st.discard) == 7 and GAME.outcome(st) is not None
    assert GAME.legal_moves(st, 0) == [] and GAME.to_act(st) == frozenset()


def test_m12_three_players_end_on_the_third_pile():
    # RULINGS M12
    # RULINGS M21
    """M12/M21: with three players the discards are reshuffled twice; the third pile's last card
    starts the final turns, next player first."""
    st = quiet(new(3, ruleset="modern", three=True), draw=(), discard=(), pile=2, turn=2)
    for s, h in enumerate((("3MV", "4VL"), ("6SY", "7SK"), ("8YK", "9LK"))):
        st = player(st, s, hand=h)
    st, ev = sell(st, 2)
    assert types(ev) == ["Sold", "TurnEnded", "Reshuffled", "Drew", "EndTriggered", "Rolled"]
    assert ev[2].data["pile"] == 3 and st.turn == 0
    for seat in (0, 1):
        st, ev = sell(st, seat)
        assert types(ev) == ["Sold", "TurnEnded", "Rolled"]
    st, ev = sell(st, 2)
    assert types(ev) == ["Sold", "TurnEnded", "GameEnded"]


def test_m12_two_player_game_does_not_reshuffle_twice():
    # RULINGS M12
    """M12: two players end on the second pile: no third pile."""
    st = quiet(new(), draw=("5ML",), pile=2)
    st = player(st, 0, hand=("3MV", "4VL", "6SY"))
    st, ev = sell(st, 0)
    assert "Reshuffled" not in types(ev) and "EndTriggered" in types(ev)


def test_m12_mega_draws_two_and_stops_at_the_last_card():
    # RULINGS M12
    # RULINGS M20
    """M12/M20: mega draws two; if the first takes the last card the second is not drawn."""
    st = quiet(new(mega=True), draw=("5ML.1",), pile=2)
    st = player(st, 0, hand=("3MV.1", "4VL.1", "6SY.1", "7SK.1", "8YK.1", "9LK.1"))
    st, ev = sell(st, 0)
    assert types(ev) == ["Sold"] and st.plays_left == 1       # two plays a turn
    st, ev = sell(st, 0)
    assert types(ev) == ["Sold", "TurnEnded", "Drew", "EndTriggered", "Rolled"]
    st = quiet(new(mega=True), draw=("5ML.1", "5ML.2", "1M.1"))
    st = player(st, 0, hand=("3MV.1", "4VL.1", "6SY.1", "7SK.1", "8YK.1", "9LK.1"))
    st, _ = sell(st, 0)
    st, ev = sell(st, 0)
    assert types(ev) == ["Sold", "TurnEnded", "Drew", "Drew", "Rolled"]
    assert len(st.players[0].hand) == 6


# ---------------------------------------------------------------- M13 scoring

def _scored(cols0, cols1, tok0=(), tok1=(), **opts):
    st = quiet(new(**opts))
    for d, col in cols0.items():
        st = player(st, 0, column=(d, col))
    for d, col in cols1.items():
        st = player(st, 1, column=(d, col))
    st = player(st, 0, tokens=toks(**dict(tok0)))
    st = player(st, 1, tokens=toks(**dict(tok1)))
    return final(st)


def test_m13_most_districts_wins_ties_score_nothing():
    # RULINGS M13
    """M13/seed 000: the higher total takes a district; equal totals score for neither."""
    o = _scored({1: dev("9MS"), 2: dev("4VL")}, {1: dev("4MS"), 2: dev("4VL"), 3: dev("2MK")})
    assert o["scores"] == [1, 1]
    assert o["detail"]["leaders"][:3] == [0, None, 1]


def test_m13_first_tiebreak_developed_value():
    # RULINGS M13
    """M13: tie on points: higher total value of developed properties wins."""
    o = _scored({1: dev("9MS")}, {2: dev("4VL")})
    assert o["scores"] == [1, 1] and o["winners"] == [0]
    assert o["how"] == "tie on districts, broken by developed value"


def test_m13_second_tiebreak_tokens_then_draw():
    # RULINGS M13
    """M13: then more tokens; then a draw."""
    o = _scored({1: dev("9MS")}, {2: dev("9VY")}, tok0={"M": 2}, tok1={"K": 3})
    assert o["winners"] == [1] and "tokens" in o["how"]
    o = _scored({1: dev("9MS")}, {2: dev("9VY")}, tok0={"M": 3}, tok1={"K": 3})
    assert o["winners"] == [0, 1] and o["how"] == "draw"


def test_m13_modern_aces_count_at_district_value_in_tiebreak():
    # RULINGS M13
    """M13: modern Aces count at their district value in the developed-value tie-break."""
    o = _scored({1: dev("1M", "4MS", "9MS")}, {2: dev("9VY", "4VL")}, ruleset="modern")
    assert o["detail"]["developed"] == [16, 13] and o["winners"] == [0]


def test_m13_three_way_district_needs_a_strict_leader():
    # RULINGS M13
    # RULINGS M21
    """M13/M21: the Excuse is contested by all three; the winner beats every other total."""
    st = quiet(new(3, ruleset="modern", three=True))
    st = player(st, 0, column=(1, dev("9MS")))
    st = player(st, 1, column=(1, dev("9VY")))
    st = player(st, 2, column=(1, dev("4VL")))
    assert final(st)["detail"]["leaders"][0] is None
    st = player(st, 2, column=(1, dev("9LK", "6LK")))
    assert final(st)["detail"]["leaders"][0] == 2


# ---------------------------------------------------------------- M14 Courts

def test_m14_courts_default_off_classic_on_modern():
    # RULINGS M14
    """M14: Courts default off in classic, on in modern; either can be chosen."""
    assert GAME.validate_options(2, {})["courts"] == "off"
    assert GAME.validate_options(2, {"ruleset": "modern"})["courts"] == "on"
    assert "TMVK" in property_deck(GAME.validate_options(2, {"courts": "on"}))
    assert "TMVK" not in property_deck(GAME.validate_options(2, {"ruleset": "modern",
                                                                  "courts": "off"}))


def test_m14_court_costs_ten_each_suit_deed_three_sells_three_counts_ten():
    # RULINGS M14
    """M14: develop for 10 of its suits, each at least once; deed 3; sell for 3; counts 10."""
    st = quiet(new(ruleset="modern"))
    st = player(st, 0, hand=("TMVK", "3MV", "4VL"), tokens={"M": 8, "V": 1, "K": 1})
    moves = GAME.legal_moves(st, 0)
    buys = [m for m in moves if m["type"] == "buy" and m["card"] == "TMVK"]
    assert {tuple(sorted(m["pay"].items())) for m in buys} == {(("K", 1), ("M", 8), ("V", 1))}
    st2 = player(st, 0, tokens={"M": 10})
    assert not [m for m in GAME.legal_moves(st2, 0) if m["type"] == "buy"
                and m["card"] == "TMVK"]
    st3, ev = act(st, 0, {"type": "sell", "card": "TMVK"}, stop="Drew")
    assert ev[0].data["gain"] == {"M": 1, "V": 1, "K": 1}
    assert column_total(dev("TMVK"), True) == 10
    assert {"type": "deed", "card": "TMVK", "district": 1} in moves


# ---------------------------------------------------------------- M15 Pawn properties

def test_m15_pawn_properties_classic_only_without_courts():
    # RULINGS M15
    """M15: Pawns go into the deck as Courts; every district takes any first card; classic only
    and needs Courts off."""
    opts = GAME.validate_options(2, {"pawn_properties": True})
    assert "PMYK" in property_deck(opts)
    st = quiet(new(pawn_properties=True))
    assert st.districts == ("", "", "0", "", "")
    assert [len(places(st, 0, c)) for c in ("4VL", "PMYK")] == [5, 5]
    with pytest.raises(OptionError, match="Courts"):
        GAME.validate_options(2, {"pawn_properties": True, "courts": "on"})
    with pytest.raises(OptionError, match="classic"):
        GAME.validate_options(2, {"pawn_properties": True, "ruleset": "modern"})


# ---------------------------------------------------------------- M16 replace the Ace

def _ace_game(mode):
    st = quiet(new(replace_ace=True), draw=("1M", "1S", "5ML", "6SY"))
    st = player(st, 0, hand=("3MV", "4VL", "6MV"), aces=mode)
    return st


def test_m16_always_replaces_every_ace_and_everyone_gains():
    # RULINGS M16
    """M16: a replaced Ace is discarded, every player gains one token of its suit, the drawer
    draws again (repeat)."""
    st, ev = sell(_ace_game("always"), 0)
    assert types(ev)[:7] == ["Sold", "TurnEnded", "Drew", "AceReplaced", "Drew", "AceReplaced",
                             "Drew"]
    assert st.players[0].hand[-1] == "5ML" and "1M" in st.discard and "1S" in st.discard
    assert [e.data["income"] for e in ev if e.type == "Rolled"]   # then the next roll


def test_m16_never_keeps_it():
    st, ev = sell(_ace_game("never"), 0)
    assert types(ev) == ["Sold", "TurnEnded", "Drew", "Rolled"] and "1M" in st.players[0].hand


def test_m16_ask_keeps_the_turn_open_for_the_answer():
    # RULINGS M16
    """M16: "ask" keeps the turn open for that answer; nobody else waits."""
    st, ev = sell(_ace_game("ask"), 0)
    assert types(ev) == ["Sold", "TurnEnded", "Drew"] and st.phase == "ask"
    assert GAME.to_act(st) == frozenset([0])
    moves = GAME.legal_moves(st, 0)
    assert moves[:2] == [{"type": "replace", "card": "1M"}, {"type": "keep", "card": "1M"}]
    assert not [m for m in moves if m["type"] in ("sell", "trade", "buy")]
    st2, ev = say(st, 0, "replace the ace")
    assert types(ev) == ["AceReplaced", "Drew"] and st2.phase == "ask" and st2.asked == "1S"
    st3, ev = say(st2, 0, "keep")
    assert types(ev) == ["AceKept", "Rolled"] and st3.turn == 1
    st4, ev = say(st2, 0, "replace aces never")            # a standing answer answers now
    assert types(ev) == ["AceSettingSet", "AceKept", "Rolled"]


def test_m16_only_the_end_of_turn_draw_and_setting_any_time():
    # RULINGS M16
    """M16: the deal is never replaced; the standing choice may be set off-turn."""
    deck = ",".join(["1M", "1S", "1V", "1L", "1Y", "1K"] + [c for c in property_deck(
        GAME.validate_options(2, {})) if c[0] != "1"])
    st = new(replace_ace=True, deck=deck)
    assert sorted(st.players[0].hand + st.players[1].hand) == sorted(
        ["1M", "1S", "1V", "1L", "1Y", "1K"])
    off = 1 - st.turn
    st2, ev = say(st, off, "replace aces always")
    assert st2.players[off].aces == "always" and types(ev) == ["AceSettingSet"]
    with pytest.raises(IllegalMove):
        act(new(), 0, {"type": "replace_aces", "mode": "always"})   # variant off


# ---------------------------------------------------------------- M17, M18

def test_m17_random_start_player_and_every_turn_starts_with_a_roll():
    # RULINGS M17
    """M17: the start player is random; the first turn starts with the automatic roll."""
    firsts = set()
    for seed in range(20):
        events = GAME.start(2, GAME.validate_options(2, {}), random.Random(seed))
        assert types(events) == ["GameStarted", "Rolled"]
        assert events[1].data["seat"] == events[0].data["first"]
        firsts.add(events[0].data["first"])
    assert firsts == {0, 1}


def test_m18_the_bank_never_runs_out():
    # RULINGS M18
    """M18: income is paid whatever the number of tokens already out."""
    st = quiet(new())
    st = player(st, 0, tokens={"K": 40}, crowns=("NK",))
    from tests.games.magnate.helpers import rolled
    st, _ = rolled(st, 0, 10, 2)
    assert st.players[0].tokens == toks(K=41)


# ---------------------------------------------------------------- M19 deed income choice

def test_m19_default_fewest_held_ties_in_suit_order_and_standing_choice():
    # RULINGS M19
    """M19: default: the card's suit the owner holds fewest of, ties in suit order; a standing
    preference, settable any time (even off-turn), overrides it."""
    from tests.games.magnate.helpers import rolled
    st = quiet(new())
    st = player(st, 1, column=(3, (deed("7ML"),)))
    after, _ = rolled(st, 0, 7, 2)
    assert after.players[1].tokens == toks(M=1)                  # tie: Moons first
    st = player(st, 1, tokens={"M": 0, "L": 2})
    after, _ = rolled(st, 0, 7, 2)
    assert after.players[1].tokens == toks(L=2, M=1)
    st, ev = say(st, 1, "prefer leaves for chance meeting")       # off-turn: seat 0 to play
    assert types(ev) == ["PreferenceSet"] and st.turn == 0
    after, _ = rolled(st, 0, 7, 2)
    assert after.players[1].tokens == toks(L=3)
    with pytest.raises(IllegalMove, match="already"):
        act(st, 1, {"type": "prefer", "card": "7ML", "suit": "L"})
    assert {"type": "prefer", "card": "7ML", "suit": "L"} not in GAME.legal_moves(st, 1)
    assert {"type": "prefer", "card": "7ML", "suit": "M"} in GAME.legal_moves(st, 1)


# ---------------------------------------------------------------- M20, M21

def test_m20_mega_setup():
    # RULINGS M20
    """M20: 9 districts (8 Pawns + one Excuse), 12 Crowns 6 each, 6-card hands, two plays,
    double taxation forced, the second Excuse removed."""
    opts = GAME.validate_options(2, {"mega": True})
    assert opts["double_taxation"] is True
    st = new(mega=True)
    assert len(st.districts) == 9 and st.districts[4] == "0.1" and st.removed == ("0.2",)
    assert [len(p.crowns) for p in st.players] == [6, 6]
    assert [sum(p.tokens) for p in st.players] != [0, 0]
    assert all(len(p.hand) == 6 for p in st.players)
    assert st.plays_left == 2
    assert len(property_deck(opts)) == 60


def test_m21_three_players_layout():
    # RULINGS M21
    """M21: modern only; the Excuse and six Pawns (two from a second deck); each arm contested
    by its two flanking players, the Excuse by all; 5 districts each; Crowns 2 each; 3 piles."""
    st = new(3, ruleset="modern", three=True)
    assert st.districts[0] == "0" and len(st.districts) == 7
    assert sum(1 for d in st.districts if d.endswith(".2")) == 2
    assert st.contest == ((0, 1, 2), (0, 1), (0, 1), (1, 2), (1, 2), (2, 0), (2, 0))
    assert [sum(s in c for c in st.contest) for s in range(3)] == [5, 5, 5]
    assert [len(p.crowns) for p in st.players] == [2, 2, 2] and st.piles == 3
    with pytest.raises(OptionError, match="modern"):
        GAME.validate_options(3, {"three": True})
    with pytest.raises(OptionError, match="exactly three"):
        GAME.validate_options(2, {"three": True, "ruleset": "modern"})
    with pytest.raises(OptionError, match="exactly three"):
        GAME.validate_options(3, {"ruleset": "modern"})
    with pytest.raises(OptionError, match="mega"):
        GAME.validate_options(3, {"three": True, "ruleset": "modern", "mega": True})
    st = quiet(st)
    st = player(st, 0, hand=("3MV", "4VL", "5SV"))
    assert all(m["district"] in (1, 2, 3, 6, 7) for m in GAME.legal_moves(st, 0)
               if "district" in m)
