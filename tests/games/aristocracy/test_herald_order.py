"""A3's option `herald_order_commits`: sealed choices collected in Herald order, later players
seeing only the counts of earlier ones. Rules version 3 makes a choice made there final; in
versions 1 and 2 an earlier player could change theirs after seeing the later counts, and games
begun under them keep that. Choices made all at once (the default) may change until the reveal
in every version (test_rules.py, test_a3_sealed_stalls_collected_replaceable_...)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from service.games.aristocracy import GAME
from service.games.aristocracy.rules import decisions
from service.games.contract import IllegalMove
from tests.games.aristocracy.helpers import play, started


def herald_order_stalls(rules=None):
    """The first King phase's stalls in Herald order; the first chooser has chosen two cards
    and the second, seeing that count, three."""
    s = started(3, rules=rules, herald_order_commits=True)
    first, second, third = s.order()
    s, _ = play(s, first, {"type": "stall", "cards": list(s.hands[first][:2])})
    assert GAME.view(s, second)["sealed"]["counts"] == {str(first): 2}
    s, _ = play(s, second, {"type": "stall", "cards": list(s.hands[second][:3])})
    return s, (first, second, third)


def test_a3_herald_order_a_choice_made_is_final():
    # RULINGS A3 (option: "collect in Herald order, showing later players only the counts")
    s, (first, second, third) = herald_order_stalls()
    assert s.rules >= 3 and GAME.to_act(s) == frozenset({third})
    assert GAME.view(s, first)["sealed"]["counts"] == {str(first): 2, str(second): 3}
    for seat in (first, second):
        assert decisions(s, seat) == []
        assert GAME.timeout_move(s, seat) is None
        with pytest.raises(IllegalMove, match="your stall cannot change"):
            play(s, seat, {"type": "stall", "cards": []})
    s, _ = play(s, third, {"type": "stall", "cards": []})
    assert s.stage != "stall"
    assert [len(x) for x in (s.stalls[first], s.stalls[second], s.stalls[third])] == [2, 3, 0]


def test_a3_herald_order_bids_are_final_too():
    # RULINGS A3: every sealed choice (stalls, ball contributions, bids, tax discards)
    s = started(3, herald_order_commits=True)
    s = replace(s, stage="bid", royal="J", sealed_seats=(0, 1, 2), waiting=(0, 1, 2),
                choices={}, market=("2H.1", "3H.1", "4H.1"), herald=0, coins=(5, 5, 5))
    s, _ = play(s, 0, {"type": "bid", "coins": 1})
    s, _ = play(s, 1, {"type": "bid", "coins": 2})
    with pytest.raises(IllegalMove, match="your auction bid cannot change"):
        play(s, 0, {"type": "bid", "coins": 3})
    assert decisions(s, 0) == []


def test_a3_herald_order_version_2_let_an_earlier_choice_change():
    # RULINGS A3 as version 2 played it, kept for games begun under it
    s, (first, _, third) = herald_order_stalls(rules=2)
    assert s.rules == 2
    assert GAME.legal_moves(s, first)
    s, events = play(s, first, {"type": "stall", "cards": list(s.hands[first][:4])})
    assert [e.type for e in events] == ["ChoiceMade"]
    assert len(s.choices[first]) == 4 and GAME.to_act(s) == frozenset({third})


def test_a3_all_at_once_a_choice_may_still_change_in_version_3():
    # RULINGS A3: all at once nobody sees anything of a choice before the reveal
    s = started(3)
    assert s.rules >= 3 and not s.options["herald_order_commits"]
    s, _ = play(s, 0, {"type": "stall", "cards": [s.hands[0][0]]})
    s, _ = play(s, 1, {"type": "stall", "cards": []})
    assert GAME.legal_moves(s, 0)
    s, _ = play(s, 0, {"type": "stall", "cards": []})
    assert s.choices[0] == []


def test_a3_the_lobby_says_a_choice_in_herald_order_is_final():
    # RULINGS A3: the option's words say what a player signs up for
    assert "a choice once made is final" in GAME.options["herald_order_commits"].help
