"""Seed sentences that decide play (seeds 000 classic and 002 Roller), each quoted."""
from __future__ import annotations

import pytest

from service.games.contract import IllegalMove
from service.games.magnate import GAME
from tests.games.magnate.helpers import act, new, player, quiet, rolled, toks, types


def _buys(st, card):
    return [m for m in GAME.legal_moves(st, 0) if m["type"] == "buy" and m["card"] == card]


def test_outright_payment_all_suits_each_at_least_once():
    """000: "you must discard a number of resource tokens equal to the rank of the card. All
    the resource tokens must match one of the card's suits, and at least one of each suit must
    be included." (the Sailor, 4 Waves/Leaves: 1+3, 2+2, 3+1)"""
    st = quiet(new())
    st = player(st, 0, hand=("4VL", "2MK", "3MV"), tokens={"V": 4, "L": 4, "M": 4})
    pays = {(m["pay"].get("V", 0), m["pay"].get("L", 0)) for m in _buys(st, "4VL")}
    assert pays == {(1, 3), (2, 2), (3, 1)}
    for bad in ({"V": 4}, {"V": 2, "L": 1, "M": 1}, {"V": 2, "L": 3}):
        with pytest.raises(IllegalMove):
            act(st, 0, {"type": "buy", "card": "4VL", "district": 3, "pay": bad})


def test_no_district_no_development():
    """000: "If there is no district in which you could place a property, then you may not
    develop it at this time." (every column blocked by a deed)"""
    st = quiet(new())
    from tests.games.magnate.helpers import deed
    for d in range(1, 6):
        st = player(st, 0, column=(d, (deed("9MS"),)))
    st = player(st, 0, hand=("4VL", "2MK", "3MV"), tokens={"V": 4, "L": 4})
    assert {m["type"] for m in GAME.legal_moves(st, 0)} <= {"sell", "trade", "add", "prefer"}


def test_deed_costs_two_one_of_each_suit_even_for_aces_modern():
    """000: "In order to buy a deed, you must spend two resources; one matching each suit";
    002: "Deeds ... at the cost of one of each suit pictured on the card (even for Aces)"."""
    st = quiet(new(ruleset="modern"))
    st = player(st, 0, hand=("1V", "9VY", "3MV"), tokens={"V": 1, "Y": 1})
    st2, ev = act(st, 0, {"type": "deed", "card": "9VY", "district": 2}, stop="Drew")
    assert ev[0].data["pay"] == {"V": 1, "Y": 1} and st2.players[0].tokens == toks()
    st3, ev = act(st, 0, {"type": "deed", "card": "1V", "district": 3}, stop="Drew")
    assert ev[0].data["pay"] == {"V": 1}


def test_sell_one_per_suit_ace_two():
    """000: "discard a card from your hand and collect two resources tokens, one matching each
    suit on the card. If you discard an Ace, then you collect two tokens matching that Ace.\""""
    st = quiet(new())
    st = player(st, 0, hand=("1Y", "9VY", "3MV"))
    _, ev = act(st, 0, {"type": "sell", "card": "9VY"})
    assert ev[0].data["gain"] == {"V": 1, "Y": 1}
    _, ev = act(st, 0, {"type": "sell", "card": "1Y"})
    assert ev[0].data["gain"] == {"Y": 2}


def test_one_card_play_then_draw_ends_the_turn():
    """000: "you may not sell a card in the same turn that you develop a property outright";
    "Draw a card; this ends your turn.\""""
    st = quiet(new())
    st = player(st, 0, hand=("4VL", "2MK", "3MV"), tokens={"V": 4, "L": 4})
    st2, ev = act(st, 0, {"type": "buy", "card": "4VL", "district": 3,
                          "pay": {"V": 2, "L": 2}})
    # RULINGS M9 (amended): with nothing left to trade or add, the turn ends by itself
    assert types(ev)[:4] == ["Bought", "TurnEnded", "Drew", "Rolled"] and st2.turn == 1
    with pytest.raises(IllegalMove, match="not your turn"):
        act(st2, 0, {"type": "sell", "card": "2MK"})


def test_taxation_before_collecting():
    # RULINGS M11
    """000: "If either die is a 1, immediately resolve taxation. Then, both players collect"
    (a player taxed down to 1 Moon then collects the rolled Moon income)."""
    st = quiet(new())
    from tests.games.magnate.helpers import dev
    st = player(st, 1, tokens={"M": 6}, column=(1, dev("1M")))
    st, ev = rolled(st, 0, 1, 1, 1)
    assert st.players[1].tokens == toks(M=2)


def test_deed_not_allowed_to_block_further_placement():
    """000: "Once you have a deed to a property, you may not put another deed in that district
    or develop another property there until the deeded property is fully developed.\""""
    from tests.games.magnate.helpers import deed
    st = quiet(new())
    st = player(st, 0, column=(3, (deed("9VY", V=2),)), hand=("3MV", "4VL", "5SV"),
                tokens={"M": 5, "V": 5, "S": 5, "L": 5})
    assert not [m for m in GAME.legal_moves(st, 0) if m.get("district") == 3]


def test_modern_ace_scores_per_matching_suit():
    """002: an Ace "scores one point per matching suit in that district"; M3 reads it as per
    developed card bearing its suit in the owner's column, itself included."""
    from service.games.magnate.scoring import column_total
    from tests.games.magnate.helpers import dev
    assert column_total(dev("1L", "5ML", "8VL", "9LK"), True) == 4 + 5 + 8 + 9
    assert column_total(dev("1L", "5ML", "8VL", "9LK"), False) == 1 + 5 + 8 + 9
