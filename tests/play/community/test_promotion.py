"""Who plays where next season: the top and bottom of each division move, the places of those
who left fill from below, newcomers take what is left (service.play.community.promotion)."""
from __future__ import annotations

from service.play.community import promotion

THREE = [["a1", "a2", "a3", "a4"], ["b1", "b2", "b3", "b4"], ["c1", "c2", "c3", "c4"]]


def test_the_top_and_bottom_of_each_division_move_one_division():
    after = promotion.next_divisions(THREE, 1, set(), [], 4, 3)
    assert [sorted(d) for d in after] == [sorted(["a1", "a2", "a3", "b1"]),
                                         sorted(["a4", "b2", "b3", "c1"]),
                                         sorted(["b4", "c2", "c3", "c4"])]
    steps = promotion.moves(THREE, 1)
    assert steps["a1"] == 0 and steps["c4"] == 0          # nowhere higher, nowhere lower
    assert steps["b1"] == -1 and steps["b4"] == 1


def test_two_up_and_two_down():
    after = promotion.next_divisions(THREE[:2], 2, set(), [], 4, 2)
    assert [sorted(d) for d in after] == [sorted(["a1", "a2", "b1", "b2"]),
                                         sorted(["a3", "a4", "b3", "b4"])]


def test_a_place_left_is_filled_from_below_and_newcomers_join_at_the_bottom():
    after = promotion.next_divisions(THREE[:2], 1, {"a2"}, ["n1", "n2"], 4, 2)
    assert sorted(after[0]) == sorted(["a1", "a3", "b1", "b2"])
    assert sorted(after[1]) == sorted(["a4", "b3", "b4", "n1"])     # n2 waits: no place


def test_a_last_division_of_one_joins_the_one_above_and_one_player_is_no_division():
    assert promotion.cut(["p1", "p2", "p3", "p4", "p5"], 4, 2) == [["p1", "p2", "p3", "p4",
                                                                    "p5"]]
    assert promotion.cut(["p1"], 4, 2) == []
