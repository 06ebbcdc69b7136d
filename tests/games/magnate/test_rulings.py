"""One scenario per Magnate ruling, M1-M21 (docs/rules/rulings.md)."""
from __future__ import annotations

import pytest

from service.games.contract import IllegalMove
from service.games.magnate import GAME, costs
from service.games.magnate.scoring import column_total
from tests.games.magnate.helpers import act, deed, dev, new, player, quiet, rolled, toks, types

# ---------------------------------------------------------------- M1 income

def test_m1_crowns_pay_on_a_ten():
    # RULINGS M1
    """M1: R = 10: one token per Crown held, of its suit, to every player."""
    st = quiet(new())
    st = player(st, 0, crowns=("NM", "NS", "NV"))
    st = player(st, 1, crowns=("NL", "NY", "NK"))
    st, ev = rolled(st, 1, 10, 4)
    assert st.players[0].tokens == toks(M=1, S=1, V=1)
    assert st.players[1].tokens == toks(L=1, Y=1, K=1)
    assert ev.data["high"] == 10 and ev.data["dice"] == [10, 4]


def test_m1_developed_pays_each_suit_deed_pays_one():
    # RULINGS M1
    """M1: R = 2..9: a developed property pays each of its suits, a deed one of them."""
    st = quiet(new())
    st = player(st, 0, column=(1, dev("7SK")))
    st = player(st, 1, column=(1, (deed("7ML"),)), tokens={"M": 2})
    st, _ = rolled(st, 0, 7, 3)
    assert st.players[0].tokens == toks(S=1, K=1)
    assert st.players[1].tokens == toks(M=2, L=1)      # M19 default: Leaves, the fewer held


def test_m1_doubles_pay_once_and_other_ranks_nothing():
    # RULINGS M1
    """M1: "if the dice are doubles, you still just collect resources once" (seed 000)."""
    st = quiet(new())
    st = player(st, 0, column=(1, dev("7SK", "3SK")))
    st, _ = rolled(st, 0, 7, 7)
    assert st.players[0].tokens == toks(S=1, K=1)


def test_m1_double_ones_pay_developed_aces():
    # RULINGS M1
    """M1: R = 1 (double 1s only): per developed Ace one token of its suit; taxation first."""
    st = quiet(new(ruleset="modern"))
    st = player(st, 0, column=(1, dev("1M", "1K")), tokens={"S": 3})
    st = player(st, 1, column=(3, (deed("1V"),)))    # M1: a deeded Ace pays its suit
    st, ev = rolled(st, 0, 1, 1, 2)                   # tax die 2: Suns
    assert ev.data["taxed"] == ["S"]
    assert st.players[0].tokens == toks(M=1, S=1, K=1)
    assert st.players[1].tokens == toks(V=1)


def test_m1_courts_never_pay():
    # RULINGS M1
    # RULINGS M14
    """M1/M14: "Courts cannot be rolled" (seed 002); a 10 pays Crowns only."""
    st = quiet(new(ruleset="modern"))
    st = player(st, 0, crowns=("NM",), column=(3, dev("TMVK")))
    st, _ = rolled(st, 0, 10, 10)
    assert st.players[0].tokens == toks(M=1)


# ---------------------------------------------------------------- M2, M3, M4

def test_m2_cost_is_the_real_rank():
    # RULINGS M2
    """M2: the seed's "Mill (4 of Waves and Leaves)" is the Sailor; cost is the real rank."""
    assert costs.cost("4VL", False) == 4 and costs.cost("8VL", False) == 8
    pays = costs.outright_payments(toks(V=9, L=9), "8VL", False)
    assert pays and all(sum(p) == 8 for p in pays) and len(pays) == 7


def test_m3_classic_ace_costs_one_counts_one_no_deed():
    # RULINGS M3
    """M3 classic: develop an Ace for 1 token of its suit, it counts 1, no deed."""
    st = quiet(new())
    st = player(st, 0, hand=("1M", "3MV", "4MS"), tokens={"M": 1})
    moves = GAME.legal_moves(st, 0)
    assert {"type": "buy", "card": "1M", "district": 3, "pay": {"M": 1}} in moves
    assert not [m for m in moves if m["type"] == "deed" and m["card"] == "1M"]
    assert column_total(dev("1M", "6MV", "3MV"), modern=False) == 10


def test_m3_modern_ace_costs_three_deed_one_scores_by_suit():
    # RULINGS M3
    """M3 modern: develop for 3 of its suit, deed for 1; counts 1 per developed card in the
    owner's column of that district bearing its suit, itself included."""
    st = quiet(new(ruleset="modern"))
    st = player(st, 0, hand=("1M", "3MV", "4MS"), tokens={"M": 3})
    moves = GAME.legal_moves(st, 0)
    assert {"type": "buy", "card": "1M", "district": 3, "pay": {"M": 3}} in moves
    assert {"type": "deed", "card": "1M", "district": 3} in moves
    col = dev("1M", "6MV", "3MV", "9VY")
    assert column_total(col, modern=True) == 3 + 6 + 3 + 9
    assert column_total(col + (deed("5ML"),), modern=True) == 21   # deeds do not count


def test_m4_deed_costs_one_per_suit_to_the_bank():
    # RULINGS M4
    """M4: a deed costs one token per suit on the card, paid to the bank, not toward it."""
    st = quiet(new())
    st = player(st, 0, hand=("7SK", "2MK", "1M"), tokens={"S": 1, "K": 1, "M": 5})
    st2, _ = act(st, 0, {"type": "deed", "card": "7SK", "district": 2}, stop="Drew")
    assert st2.players[0].columns[1] == (deed("7SK"),)
    assert st2.players[0].tokens == toks(M=5)
    with pytest.raises(IllegalMove, match="2"):
        act(st, 0, {"type": "deed", "card": "2MK", "district": 1})
    with pytest.raises(IllegalMove, match="Ace"):
        act(st, 0, {"type": "deed", "card": "1M", "district": 1})


def test_m4_court_deed_costs_three():
    # RULINGS M4
    # RULINGS M14
    """M4/M14: a Court's deed costs 3, one per suit."""
    assert costs.deed_cost("TMVK") == toks(M=1, V=1, K=1)


# ---------------------------------------------------------------- M5

def test_m5_classic_completion_any_mix():
    # RULINGS M5
    """M5 classic: any mix of the card's suits totalling the rank completes a deed."""
    st = quiet(new())
    st = player(st, 0, column=(2, (deed("7SK"),)), tokens={"K": 7})
    st, ev = act(st, 0, {"type": "add", "card": "7SK", "pay": {"K": 7}})
    assert ev[0].data["completed"] and st.players[0].columns[1] == dev("7SK")


def test_m5_modern_needs_each_suit_and_refuses_overpayment():
    # RULINGS M5
    """M5 modern: the tokens must include each suit; an addition that makes it impossible,
    and any overpayment, is refused."""
    st = quiet(new(ruleset="modern"))
    st = player(st, 0, column=(2, (deed("7SK"),)), tokens={"K": 9, "S": 2})
    with pytest.raises(IllegalMove, match="each of its suits"):
        act(st, 0, {"type": "add", "card": "7SK", "pay": {"K": 7}})
    st, _ = act(st, 0, {"type": "add", "card": "7SK", "pay": {"K": 6}})
    with pytest.raises(IllegalMove, match="each of its suits"):
        act(st, 0, {"type": "add", "card": "7SK", "pay": {"K": 1}})
    with pytest.raises(IllegalMove, match="needs 7"):
        act(st, 0, {"type": "add", "card": "7SK", "pay": {"S": 2}})
    st, ev = act(st, 0, {"type": "add", "card": "7SK", "pay": {"S": 1}})
    assert ev[0].data["completed"]


def test_m5_classic_refuses_overpayment_too():
    # RULINGS M5
    """M5/seed 000: "When the total spent in development equals the rank" - never more."""
    st = quiet(new())
    st = player(st, 0, column=(2, (deed("4VL"),)), tokens={"V": 5})
    with pytest.raises(IllegalMove):
        act(st, 0, {"type": "add", "card": "4VL", "pay": {"V": 5}})


def test_m6_deed_allowed_when_outright_affordable():
    # RULINGS M6
    """M6: "If you cannot afford ... you may purchase the deed" is advice, not a condition."""
    st = quiet(new())
    st = player(st, 0, hand=("4VL", "3MV", "5ML"), tokens={"V": 4, "L": 4})
    moves = GAME.legal_moves(st, 0)
    assert any(m["type"] == "buy" and m["card"] == "4VL" for m in moves)
    assert {"type": "deed", "card": "4VL", "district": 3} in moves


# ---------------------------------------------------------------- M7

def test_m7_add_same_turn_repeatedly_only_on_own_turn():
    # RULINGS M7
    """M7: tokens may be added on the turn the deed is bought, any number of times, only on
    your own turn."""
    st = quiet(new())
    st = player(st, 0, hand=("8VL", "3MV", "5ML"), tokens={"V": 4, "L": 4})
    moves = GAME.parse(st, 0, "deed mill in 3\nadd 1 wave to mill\nadd 2 leaves to mill")
    assert moves == [{"type": "deed", "card": "8VL", "district": 3, "add": {"V": 1, "L": 2}}]
    assert GAME.describe(moves[0]) == "deed the Mill in 3 and put 1 Wave and 2 Leaves on it"
    st, _ = act(st, 0, moves[0], stop="Drew")
    assert st.players[0].columns[2] == (deed("8VL", V=1, L=2),)
    st = player(st, 1, column=(3, (deed("8MS"),)), tokens={"M": 3})
    with pytest.raises(IllegalMove, match="not your turn"):
        act(st, 1, {"type": "add", "card": "8MS", "pay": {"M": 1}})


def test_m7_deed_tokens_safe_from_tax():
    # RULINGS M7
    """M7 / seed 000: "resources spent on it will be safe from taxation"."""
    st = quiet(new())
    st = player(st, 0, column=(3, (deed("8VL", V=5),)), tokens={"V": 4})
    st, _ = rolled(st, 0, 1, 5, 3)                                   # tax Waves
    assert st.players[0].tokens == toks(V=1)
    assert st.players[0].columns[2][0].on == toks(V=5)


def test_m7_completion_in_place_and_one_deed_per_district():
    # RULINGS M7
    """M7: completion sends tokens to the bank and the card is developed where it lies; until
    then nothing else may be placed in that district."""
    st = quiet(new())
    st = player(st, 0, hand=("3MV", "6MV", "5ML"), tokens={"M": 9, "V": 9},
                column=(1, dev("4MS") + (deed("8MS", M=7),)))
    assert costs.places(st, 0, "3MV") == [1, 2, 3, 4]                    # not district 1
    assert not any(m.get("district") == 1 for m in GAME.legal_moves(st, 0))
    st, _ = act(st, 0, {"type": "add", "card": "8MS", "pay": {"M": 1}})
    assert st.players[0].columns[0] == dev("4MS", "8MS")
    assert st.players[0].tokens == toks(M=8, V=9)
    assert 0 in costs.places(st, 0, "3MV")


def test_m7_incomplete_deeds_discarded_at_the_end():
    # RULINGS M7
    # RULINGS M12
    """M7/M12: incomplete deeds and their tokens are discarded at the end, unscored."""
    st = quiet(new())
    st = player(st, 0, column=(1, dev("9MS") + (deed("8MS", M=7),)), hand=("3MV",))
    st = player(st, 1, hand=("4VL",))
    st = quiet(st, turn=1, final_left=0)
    st, ev = act(st, 1, {"type": "sell", "card": "4VL"})
    assert types(ev)[-1] == "GameEnded"
    assert st.players[0].columns[0] == dev("9MS")
    assert {"8MS", "3MV", "4VL"} <= set(st.discard)


# ---------------------------------------------------------------- M8 placement

def test_m8_first_card_shares_a_suit_with_the_pawn():
    # RULINGS M8
    """M8 / seed 000: first card shares a suit with the district's Pawn; the Excuse takes any
    card. Districts: 1 Watchman MYK, 2 Light Keeper SVK, 3 Excuse, 4 Harvest MSL, 5 Borderland
    VLY."""
    st = quiet(new())
    assert costs.places(st, 0, "4VL") == [1, 2, 3, 4]        # not the Watchman (MYK)
    assert costs.places(st, 0, "3MV") == [0, 1, 2, 3, 4]
    assert costs.places(st, 0, "8YK") == [0, 1, 2, 4]


def test_m8_later_cards_share_a_suit_with_the_last_card():
    # RULINGS M8
    """M8: later cards (and deeds) share a suit with the last card of that column."""
    st = quiet(new())
    st = player(st, 0, column=(3, dev("4VL")))
    assert 2 in costs.places(st, 0, "9VY") and 2 not in costs.places(st, 0, "7SK")
    assert costs.can_place(st, 0, "7SK", 2).why.startswith("it shares no suit with the last card")


def test_m8_columns_are_per_player():
    # RULINGS M8
    """M8: each player has their own column in each district."""
    st = quiet(new())
    st = player(st, 1, column=(3, dev("4VL")))
    assert 2 in costs.places(st, 0, "7SK")


# ---------------------------------------------------------------- M9, M10

def test_m9_one_card_per_turn_and_selling_always_legal():
    # RULINGS M9
    """M9: each turn consumes exactly one hand card; selling is always legal; no pass."""
    st = quiet(new())
    st = player(st, 0, hand=("9MS", "8YK", "TMVK"))
    moves = GAME.legal_moves(st, 0)
    assert {m["type"] for m in moves} == {"sell"}
    st2, ev = act(st, 0, moves[0])
    assert st2.turn == 1 and "Rolled" in types(ev)
    with pytest.raises(IllegalMove):
        act(st, 0, {"type": "pass"})


def test_m10_trade_three_for_one_on_own_turn():
    # RULINGS M10
    """M10: 3 tokens of one suit for 1 of another, with the bank, on your turn."""
    st = quiet(new())
    st = player(st, 0, tokens={"M": 3})
    st2, _ = act(st, 0, {"type": "trade", "give": "M", "get": "K"})
    assert st2.players[0].tokens == toks(K=1)
    with pytest.raises(IllegalMove):
        act(st2, 0, {"type": "trade", "give": "K", "get": "M"})
    st = player(st, 1, tokens={"M": 3})
    with pytest.raises(IllegalMove, match="not your turn"):
        act(st, 1, {"type": "trade", "give": "M", "get": "K"})


# ---------------------------------------------------------------- M11 taxation

def test_m11_taxation_keeps_one_before_income():
    # RULINGS M11
    """M11: a 1 on either d10 rolls the tax die; 2+ of that suit keeps 1; then income."""
    st = quiet(new())
    st = player(st, 0, tokens={"K": 5, "M": 1}, column=(1, dev("9MS")))
    st = player(st, 1, tokens={"K": 1})
    st, ev = rolled(st, 0, 1, 9, 6)
    assert ev.data["taxed"] == ["K"] and ev.data["tax_dice"] == [6]
    assert st.players[0].tokens == toks(M=2, S=1, K=1)
    assert st.players[1].tokens == toks(K=1)


def test_m11_double_taxation_same_suit_once():
    # RULINGS M11
    """M11: double taxation rolls two tax dice; the same suit twice taxes it once."""
    st = quiet(new(double_taxation=True))
    st = player(st, 0, tokens={"K": 5, "M": 4})
    st2, ev = rolled(st, 0, 3, 1, 6, 1)
    assert ev.data["taxed"] == ["M", "K"]
    assert st2.players[0].tokens == toks(M=1, K=1)
    st3, ev = rolled(st, 0, 3, 1, 6, 6)
    assert ev.data["taxed"] == ["K"] and st3.players[0].tokens == toks(M=4, K=1)


def test_m11_no_tax_without_a_one():
    # RULINGS M11
    """M11: no 1 showing, no tax die."""
    st = quiet(new())
    st = player(st, 0, tokens={"K": 5})
    st, ev = rolled(st, 0, 2, 3)
    assert ev.data["tax_dice"] == [] and st.players[0].tokens == toks(K=5)


def test_malformed_moves_are_refused():
    """Moves arrive as JSON from links and forms: nonsense is an IllegalMove, never a crash."""
    st = quiet(new())
    st = player(st, 0, hand=("4VL", "2MK", "3MV"), tokens={"V": 4, "L": 4})
    for move in ({"type": "buy", "card": "4VL", "district": 3, "pay": {"V": "2", "L": 2}},
                 {"type": "buy", "card": "4VL", "district": 3, "pay": {"V": -1, "L": 5}},
                 {"type": "buy", "card": "4VL", "district": 9, "pay": {"V": 2, "L": 2}},
                 {"type": "buy", "card": "4VL", "district": 3, "pay": {"X": 2}},
                 {"type": "buy", "card": "9MS", "district": 3, "pay": {"V": 2, "L": 2}},
                 {"type": "deed", "card": "4VL", "district": 3, "add": {"V": 4}},
                 {"type": "add", "card": "4VL", "pay": {"V": 1}},
                 {"type": "trade", "give": "V", "get": "V"},
                 {"type": "keep", "card": "1M"}, {"type": "prefer", "card": "4VL"}, "sell"):
        with pytest.raises(IllegalMove):
            act(st, 0, move)
