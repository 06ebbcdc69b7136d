"""Trees scenarios, one or more per ruling (docs/rules/rulings.md T1-T8) and per deciding seed sentence."""
from __future__ import annotations

import random

import pytest

from service.games.contract import IllegalMove, OptionError, replay
from service.games.trees import GAME
from service.games.trees.state import ACES, DRAW_CARDS
from tests.games.trees.helpers import act, harvest, play, table, types, unroot


def started(seats=2, seed=0, **options):
    rng = random.Random(seed)
    events = GAME.start(seats, GAME.validate_options(seats, options), rng)
    return replay(GAME, events), events


def refused(state, seat, move) -> str:
    with pytest.raises(IllegalMove) as err:
        GAME.decide(state, seat, move, random.Random(0))
    return err.value.why


# --------------------------------------------------------------------- T1, T2: set-up
# RULINGS T1, T2


def test_t1_two_to_four_players():
    """T1: 2 to 4 players."""
    assert GAME.seats == range(2, 5)
    for seats in (1, 5):
        with pytest.raises(OptionError):
            GAME.validate_options(seats, {})


def test_t1_random_first_player_is_recorded():
    """T1: random first player, recorded in the GameStarted event."""
    firsts = set()
    for seed in range(40):
        state, events = started(4, seed)
        assert events[0].type == "GameStarted"
        assert state["to_act"] == state["first"] == events[0].data["first"]
        firsts.add(state["first"])
    assert firsts == {0, 1, 2, 3}


def test_t1_turns_go_clockwise():
    """T1: turns clockwise: after seat 2 of three comes seat 0."""
    state = table([["2MK"], ["3MV"], ["4MS"]], [("1M",)], to_act=2)
    state, _ = act(state, 2, play("4MS", "1M"))
    assert GAME.to_act(state) == {0}


def test_t2_deck_roots_hands_and_two_trees():
    """T2: extended deck without the Excuse; the six Aces are the root pile, the other 38 cards
    the draw pile; 5-card hands; two trees start in play ("Turn the top two over")."""
    state, events = started(3)
    zones = GAME.zones(state)
    hands = [zones[f"hand:{s}"] for s in range(3)]
    assert [len(h) for h in hands] == [5, 5, 5]
    assert sorted(zones["draw"] + sum(hands, [])) == sorted(DRAW_CARDS)
    assert len(DRAW_CARDS) == 38 and "0" not in DRAW_CARDS
    assert [t["root"] for t in state["trees"]] == events[0].data["roots"][:2]
    assert sorted(zones["roots"] + [t["root"] for t in state["trees"]]) == sorted(ACES)
    assert types(events) == ["GameStarted", "TreeStarted", "TreeStarted"]


def test_deck_option_fixes_the_draw_order():
    """Option `deck`: the 38 ids, top first; seat 0 is dealt the first five, seat 1 the next."""
    order = list(reversed(DRAW_CARDS))
    state, _ = started(2, deck=",".join(order))
    assert state["hands"] == [order[:5], order[5:10]]
    assert state["draw"] == order[10:]


@pytest.mark.parametrize("deck, why", [
    ("2MK,3MV", "must order all 38"),
    (",".join(DRAW_CARDS[:-1] + ("2MK",)), "twice"),
    (",".join(DRAW_CARDS[:-1] + ("0",)), "not one of its cards"),
    (",".join(DRAW_CARDS[:-1] + ("1M",)), "not one of its cards"),
])
def test_deck_option_must_be_a_permutation(deck, why):
    with pytest.raises(OptionError, match=why):
        GAME.validate_options(2, {"deck": deck})


def test_roots_option_fixes_the_ace_order():
    """Option `roots`: the Ace order, top first; suit letters alone are enough."""
    state, _ = started(2, roots="VMSLYK")
    assert [t["root"] for t in state["trees"]] == ["1V", "1M"]
    assert state["roots"] == ["1S", "1L", "1Y", "1K"]
    assert GAME.validate_options(2, {"roots": "v m s l y k"})["roots"] == "1V,1M,1S,1L,1Y,1K"
    with pytest.raises(OptionError):
        GAME.validate_options(2, {"roots": "VMSLY"})


def test_options_bonus_and_turn_cap():
    assert GAME.validate_options(2, {})["bonus"] == 1
    assert GAME.validate_options(2, {})["turn_cap"] == 300
    with pytest.raises(OptionError):
        GAME.validate_options(2, {"bonus": 3})
    with pytest.raises(OptionError):
        GAME.validate_options(2, {"turn_cap": 0})


# --------------------------------------------------------------------- T3: play
# RULINGS T3


def test_t3_attach_under_any_card_sharing_a_suit_and_lower():
    """T3: under any card of any tree, not just the ends of branches."""
    state = table([["4MS", "9LK"], []], [("1M", ("2MK", "1M")), ("1L", ("2VL", "1L"))])
    moves = GAME.legal_moves(state, 0)
    assert play("4MS", "1M") in moves and play("4MS", "2MK") in moves
    assert play("9LK", "1L") in moves and play("9LK", "2VL") in moves
    assert play("9LK", "2MK") in moves            # shares Knots
    assert play("4MS", "1L") not in moves          # shares nothing
    state, events = act(state, 0, play("4MS", "1M"))
    assert state["trees"][0]["kids"]["1M"] == ["2MK", "4MS"]
    assert events[0].data == {"seat": 0, "card": "4MS", "under": "1M", "root": "1M"}


def test_t3_shares_no_suit():
    state = table([["NV"], []], [("1M", ("2MK", "1M"))])
    assert refused(state, 0, play("NV", "2MK")) == "the Sea shares no suit with the Author"


def test_t3_pawn_and_court_rank_between_ace_and_two():
    """T3 / seed: "Pawns and Courts are considered of equal rank, and their rank lies between Ace
    and Two"."""
    state = table([["TMVK", "2MK", "PMSL"], []], [("1M", ("PMYK", "1M"))])
    moves = GAME.legal_moves(state, 0)
    assert play("TMVK", "1M") in moves            # Court above Ace
    assert play("2MK", "PMYK") in moves           # 2 above Pawn
    assert "equal" in refused(state, 0, play("TMVK", "PMYK"))
    assert "equal" in refused(state, 0, play("PMSL", "PMYK"))
    state = table([["PMYK"], []], [("1M", ("2MK", "1M"))])
    assert refused(state, 0, play("PMYK", "2MK")) == "the Watchman ranks below the Author in Trees"


def test_t3_strictly_higher_rank():
    state = table([["9MS"], []], [("1M", ("8MS", "1M"))])
    assert play("9MS", "8MS") in GAME.legal_moves(state, 0)
    state = table([["8MS"], []], [("1S", ("9MS", "1S"))])
    assert "ranks below" in refused(state, 0, play("8MS", "9MS"))


def test_t3_room_two_under_ordinary_cards():
    """T3: every card but Pawns, Courts and Crowns holds two (the Aces too)."""
    tree = ("1V", ("4VL", "1V"), ("8VL", "4VL"), ("9VY", "8VL"), ("NL", "8VL"))
    state = table([["NV", "2VL", "5SV"], []], [tree])
    assert refused(state, 0, play("NV", "8VL")) == "the Mill already holds two cards"
    state = table([["5SV"], []], [("1V", ("4VL", "1V"), ("3MV", "1V"))])
    assert refused(state, 0, play("5SV", "1V")) == "the Ace of Waves already holds two cards"


def test_t3_room_three_under_pawns_and_courts():
    tree = ("1K", ("PMYK", "1K"), ("2MK", "PMYK"), ("4YK", "PMYK"))
    state = table([["5YK", "7SK"], []], [tree])
    state, _ = act(state, 0, play("5YK", "PMYK"))
    state = {**state, "to_act": 0}   # states are never changed in place; seat 0 again
    assert refused(state, 0, play("7SK", "PMYK")) == "the Watchman already holds three cards"


def test_t3_nothing_under_a_crown():
    """Seed: "Crowns may not have any cards played off of them"."""
    state = table([["NM"], []], [("1M", ("9MS", "1M"), ("NS", "9MS"))])
    assert GAME.view(state, 0)["trees"][0]["tree"]["children"][0]["children"][0]["room"] == 0
    assert "Crown" in refused(state, 0, play("NM", "NS"))


def test_play_refusals_name_the_reason():
    state = table([["2MK"], ["3MV"]], [("1M",)])
    assert refused(state, 1, play("3MV", "1M")) == "it is not your turn"
    assert refused(state, 0, play("3MV", "1M")) == "you do not hold the Journey"
    assert refused(state, 0, play("2MK", "1S")) == "the Ace of Suns is not in any tree"
    assert "play, harvest or unroot" in refused(state, 0, {"type": "pass"})


# --------------------------------------------------------------------- T4, T5: harvest
# RULINGS T4, T5


def test_t4_harvest_keeps_the_ace_and_discards_the_rest():
    """T4: the harvester keeps its Ace and scores; the tree's other cards go to the discard."""
    tree = ("1M", ("9MS", "1M"), ("NS", "9MS"))
    state = table([["2SY"], ["3LY"]], [tree, ("1L",)], discard=["5ML"])
    state, events = act(state, 0, harvest("1M"))
    assert state["aces"] == [["1M"], []]
    assert state["discard"] == ["5ML", "9MS", "NS"]
    assert state["scores"] == [1, 0]
    assert types(events)[0] == "TreeHarvested"


def test_t4_no_harvest_without_a_crown():
    """Seed: "A tree with zero Crowns may not be harvested." """
    state = table([["2SY"], []], [("1M", ("9MS", "1M"))])
    assert harvest("1M") not in GAME.legal_moves(state, 0)
    assert refused(state, 0, harvest("1M")) == (
        "the Moons tree holds no Crown, so it cannot be harvested")
    assert refused(state, 0, harvest("1S")) == "the Suns tree is not in play"


@pytest.mark.parametrize("bonus, points", [(0, 3), (1, 5), (2, 7)])
def test_t5_crowns_score_with_a_bonus_for_aces_owned_before(bonus, points):
    """T5: 1 per Crown in the tree, + bonus for each of those Crowns matching an Ace the
    harvester owned before this harvest. Owned: Suns and Waves; Crowns: Bard, Sea, Huntress."""
    tree = ("1M", ("9MS", "1M"), ("NS", "9MS"), ("NM", "9MS"), ("6MV", "1M"), ("NV", "6MV"))
    state = table([["2SY"], []], [tree], aces=[["1S", "1V"], []], bonus=bonus)
    state, events = act(state, 0, harvest("1M"))
    assert state["scores"][0] == points
    assert events[0].data["crowns"] == 3 and events[0].data["points"] == points


def test_t5_the_harvested_ace_itself_gives_no_bonus():
    """T5: "owned before this harvest": the Huntress in the Moons tree scores 1, not 2."""
    state = table([["2SY"], []], [("1M", ("9MS", "1M"), ("NM", "9MS"))])
    state, _ = act(state, 0, harvest("1M"))
    assert state["scores"][0] == 1
    assert GAME.redact(_[0], 1)["text"] == "{p0} harvested the Moons tree: 1 Crown, 1 point."


# --------------------------------------------------------------------- T6: new trees, unroot
# RULINGS T6


def test_t6_a_new_tree_starts_when_fewer_than_two():
    """T6: fewer than two trees and roots remain: shuffle the root pile, start its top Ace."""
    state = table([["2SY"], []], [("1M", ("9MS", "1M"), ("NS", "9MS")), ("1L",)])
    state, events = act(state, 0, harvest("1M"))
    assert types(events)[:3] == ["TreeHarvested", "RootsShuffled", "TreeStarted"]
    order = events[1].data["order"]
    assert sorted(order) == ["1K", "1S", "1V", "1Y"]
    assert [t["root"] for t in state["trees"]] == ["1L", order[0]]
    assert state["roots"] == order[1:]


def test_t6_no_new_tree_when_the_root_pile_is_empty():
    state = table([["2SY"], []], [("1M", ("9MS", "1M"), ("NS", "9MS")), ("1L",)],
                  aces=[["1S", "1V"], ["1Y", "1K"]])
    state, events = act(state, 0, harvest("1M"))
    assert "TreeStarted" not in types(events)
    assert [t["root"] for t in state["trees"]] == ["1L"]


def test_t6_unroot_only_when_neither_play_nor_harvest():
    """T6 / seed: "unrooting cannot be a voluntary action"."""
    trees = [("1M", ("2MK", "1M")), ("1L",)]
    state = table([["4MS"], []], trees)
    assert "card to play" in refused(state, 0, unroot("1M"))
    crowned = [("1M", ("9MS", "1M"), ("NS", "9MS")), ("1L",)]
    state = table([["2SY"], []], crowned)
    assert "can be harvested" in refused(state, 0, unroot("1L"))


def test_t6_unroot_is_then_required():
    """T6 / seed: "If a player cannot play a card, nor can they harvest a tree, they *must*
    unroot a tree." With no playable card the only legal moves are unroots."""
    state = table([["2SY", "TSVY"], []], [("1M", ("2MK", "1M")), ("1L",)])
    assert GAME.legal_moves(state, 0) == [unroot("1M"), unroot("1L")]
    assert GAME.view(state, 0)["must_unroot"] is True
    state, events = act(state, 0, unroot("1M"))
    assert types(events)[:3] == ["TreeUnrooted", "RootsShuffled", "TreeStarted"]
    assert "2MK" in state["discard"] and "1M" not in state["discard"]
    in_play = [t["root"] for t in state["trees"]]
    assert len(in_play) == 2 and in_play[0] == "1L"
    assert sorted(state["roots"] + in_play[1:]) == ["1K", "1M", "1S", "1V", "1Y"]


def test_t6_an_empty_hand_must_unroot():
    state = table([[], ["2SY"]], [("1M",), ("1L",)])
    assert [m["type"] for m in GAME.legal_moves(state, 0)] == ["unroot", "unroot"]


# --------------------------------------------------------------------- T7: draw
# RULINGS T7


def test_t7_draw_after_every_action():
    """T7 / seed: "Regardless of what they do, they draw a card at the end of the turn." """
    state = table([["2MK"], []], [("1M",), ("1L", ("5ML", "1L"), ("NL", "5ML"))])
    top = state["draw"][0]
    after, events = act(state, 0, play("2MK", "1M"))
    assert events[-1].type == "CardDrawn" and after["hands"][0] == [top]
    after, events = act(state, 0, harvest("1L"))
    assert events[-1].type == "CardDrawn" and after["hands"][0] == ["2MK", top]
    stuck = table([["2SY"], []], [("1M",), ("1L",)])
    after, events = act(stuck, 0, unroot("1L"))
    assert events[-1].type == "CardDrawn" and len(after["hands"][0]) == 2


def test_t7_no_hand_limit():
    """Seed: "There is no maximum hand size." """
    hand = ["2SY", "3SK", "4MS", "5SV", "6SY", "7SK"]
    state = table([hand, []], [("1L",), ("1V",)])
    state, _ = act(state, 0, play("5SV", "1V"))
    assert len(state["hands"][0]) == 6


def test_t7_an_empty_draw_pile_is_refilled_from_the_discards():
    state = table([["2MK"], []], [("1M",), ("1L",)], draw=[], discard=["3MV", "4MS", "5ML"])
    state, events = act(state, 0, play("2MK", "1M"))
    assert types(events)[1:] == ["DiscardsReshuffled", "CardDrawn"]
    order = events[1].data["order"]
    assert sorted(order) == ["3MV", "4MS", "5ML"]
    assert state["hands"][0] == [order[0]] and state["draw"] == order[1:]
    assert state["discard"] == []


def test_t7_no_draw_when_both_piles_are_empty():
    state = table([["2MK"], []], [("1M",), ("1L",)], draw=[], discard=[])
    state, events = act(state, 0, play("2MK", "1M"))
    assert types(events) == ["CardPlayed"] and state["hands"][0] == []


# --------------------------------------------------------------------- T8: the end
# RULINGS T8


def test_t8_ends_when_all_six_aces_are_harvested():
    state = table([["2SY"], ["3LY"]], [("1M", ("9MS", "1M"), ("NS", "9MS"))],
                  aces=[["1S"], ["1V", "1L", "1Y", "1K"]], scores=[1, 3])
    state, events = act(state, 0, harvest("1M"))  # the Bard matches the Suns: 2 points
    assert types(events) == ["TreeHarvested", "GameEnded"]   # the end: no draw any more
    assert GAME.to_act(state) == frozenset()
    assert GAME.legal_moves(state, 1) == []
    out = GAME.outcome(state)
    assert out.scores == (3, 3) and out.winners == (1,)        # tie: more Aces wins
    assert out.how == "all six Aces harvested"
    assert refused(state, 1, play("3LY", "1L")) == "the game is over"


def test_t8_tie_on_points_and_aces_is_a_shared_win():
    state = table([["2SY"], ["3LY"]], [("1M", ("9MS", "1M"), ("NS", "9MS"))],
                  aces=[["1S", "1V"], ["1L", "1Y", "1K"]], scores=[2, 4])
    state, _ = act(state, 0, harvest("1M"))
    assert GAME.outcome(state).winners == (0, 1)


def test_t8_turn_cap_ends_a_stuck_game():
    """T8: the turn cap ends the game after that many turns, scores as they are."""
    state = table([["2MK"], []], [("1M",), ("1L",)], scores=[0, 1], turn_cap=10, turn=10)
    assert GAME.outcome(state) is None
    state, events = act(state, 0, play("2MK", "1M"))
    assert types(events) == ["CardPlayed", "GameEnded"]
    out = GAME.outcome(state)
    assert out.how == "turn cap reached" and out.winners == (1,) and out.scores == (0, 1)


def test_decide_leaves_the_state_alone():
    state = table([["2SY"], []], [("1M", ("9MS", "1M"), ("NS", "9MS")), ("1L",)])
    before = repr(state)
    GAME.decide(state, 0, harvest("1M"), random.Random(1))
    assert repr(state) == before
