"""The shape docs/engines.md asks of every engine, checked on Trees: an immutable fold built with
`folding.Fold`, imports one way down the package, the rules version recorded, the shared bot
names, and the deadline move `timeout_move`."""
from __future__ import annotations

import ast
import copy
import random
from pathlib import Path

import pytest

from service.games import folding
from service.games.contract import Event, replay
from service.games.trees import GAME, state
from service.games.trees.bots import play_game
from tests.games.trees.helpers import harvest, play, table, unroot

PACKAGE = Path(state.__file__).parent
# docs/engines.md, "Files and their roles": a module imports only those above it.
ORDER = ["state", "rules", "commands", "views", "plans", "bots", "__init__"]


def test_evolve_is_the_shared_fold_with_one_handler_per_event():
    assert isinstance(state.evolve, folding.Fold)
    assert state.evolve.first == "GameStarted"
    assert set(state.evolve.handlers) == {
        "GameStarted", "CardPlayed", "TreeHarvested", "TreeUnrooted", "RootsShuffled",
        "TreeStarted", "DiscardsReshuffled", "CardDrawn", "GameEnded"}
    with pytest.raises(folding.UnknownEvent):
        GAME.evolve(table([[], []]), Event("BidPlaced", {}))


@pytest.mark.parametrize("seats,seed", [(2, 1), (3, 2), (4, 3)])
def test_no_handler_changes_anything_reachable_from_its_input(seats, seed):
    """Cached states are shared between requests: folding an event must leave the state it
    was given, down to every nested list, exactly as it was. A whole random game touches every
    handler (harvests, unroots, reshuffles of roots and discards, the end)."""
    _, log = play_game(["random"] * seats, GAME.validate_options(seats, {}), random.Random(seed))
    seen = set()
    s = None
    for event in log:
        before = copy.deepcopy(s)
        new = GAME.evolve(s, event)
        assert s == before, f"{event.type} changed the state it was given"
        assert new is not s
        s = new
        seen.add(event.type)
    assert {"CardPlayed", "TreeHarvested", "CardDrawn", "GameEnded"} <= seen


def test_a_state_shared_by_two_futures_stays_each_ones_own():
    """Two different moves from one cached position: neither future leaks into the other."""
    base = table([["2MK", "3MV"], []], [("1M",), ("1L", ("7ML", "1L"), ("NL", "7ML"))])
    snapshot = copy.deepcopy(base)
    a = replay(GAME, GAME.decide(base, 0, play("2MK", "1M"), random.Random(0)), base)
    b = replay(GAME, GAME.decide(base, 0, harvest("1L"), random.Random(0)), base)
    assert base == snapshot
    assert a["trees"][0]["kids"]["1M"] == ["2MK"] and "NL" in a["trees"][1]["kids"]
    assert b["scores"] == [1, 0] and b["trees"][0]["kids"]["1M"] == []


def _imports(module: Path) -> set[str]:
    """The package modules `module` imports (``from . import x``, ``from .x import y``)."""
    out = set()
    for node in ast.walk(ast.parse(module.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out |= {alias.name for alias in node.names}
    return out


def test_imports_run_one_way_down_the_package():
    files = {p.stem for p in PACKAGE.glob("*.py")}
    assert files == set(ORDER), "a new helper module must be placed in ORDER (docs/engines.md)"
    for name in ORDER:
        allowed = set(ORDER[:ORDER.index(name)])
        wrong = _imports(PACKAGE / f"{name}.py") - allowed
        assert not wrong, f"trees/{name}.py imports {sorted(wrong)}, which sit below it"


def test_start_records_the_rules_version_and_old_logs_are_version_1():
    assert GAME.rules_version == 1
    events = GAME.start(2, GAME.validate_options(2, {}), random.Random(5))
    assert events[0].data["rules"] == 1
    assert replay(GAME, events)["rules"] == 1
    # a log written before versions existed: the same game, without the key
    old = [Event("GameStarted", {k: v for k, v in events[0].data.items() if k != "rules"}),
           *events[1:]]
    assert replay(GAME, old)["rules"] == 1
    assert folding.started_version(old[0].data) == 1


def test_bots_offer_the_shared_names_and_keep_the_old_ones():
    assert {"easy", "normal", "random", "greedy"} <= set(GAME.bots)
    assert GAME.bots["easy"] is GAME.bots["random"]
    assert GAME.bots["normal"] is GAME.bots["greedy"]


# --------------------------------------------------------------------- timeout_move
# RULINGS T4, T6


def test_timeout_harvests_the_tree_worth_most():
    """A harvest first: points now, and a tree left with a Crown is the next player's."""
    trees = [("1M", ("9MS", "1M"), ("NS", "9MS")),
             ("1L", ("7ML", "1L"), ("NL", "7ML"), ("NM", "7ML"))]
    state_ = table([["2MK"], []], trees, aces=[[], []])
    assert GAME.timeout_move(state_, 0) == harvest("1L")


def test_timeout_plays_the_highest_card_that_is_not_a_crown():
    state_ = table([["NM", "2MK", "5ML"], []], [("1M",), ("1L",)])
    move = GAME.timeout_move(state_, 0)
    assert move == play("5ML", "1M") and move in GAME.legal_moves(state_, 0)


def test_timeout_plays_under_the_highest_card_that_takes_it():
    state_ = table([["9MS"], []], [("1M", ("2MK", "1M")), ("1S",)])
    assert GAME.timeout_move(state_, 0) == play("9MS", "2MK")


def test_timeout_plays_a_crown_only_when_nothing_else_goes():
    """Forced to play a Crown, the one worth least to the next player, who could harvest it:
    the Huntress (no bonus for seat 1) rather than the Bard (seat 1 owns the Ace of Suns);
    under the highest card that takes it."""
    state_ = table([["NS", "NM"], []], [("1M", ("9MS", "1M")), ("1V",)], aces=[[], ["1S"]])
    assert all(m["type"] == "play" and m["card"][0] == "N" for m in GAME.legal_moves(state_, 0))
    assert GAME.timeout_move(state_, 0) == play("NM", "9MS")


def test_timeout_unroots_the_smallest_tree_when_it_must():
    trees = [("1M", ("2MK", "1M"), ("4MS", "1M")), ("1L",)]
    state_ = table([["2SY"], []], trees)
    assert GAME.legal_moves(state_, 0) == [unroot("1M"), unroot("1L")]
    assert GAME.timeout_move(state_, 0) == unroot("1L")


def test_timeout_is_none_off_turn_and_after_the_end():
    state_ = table([["2MK"], []], [("1M",), ("1L",)])
    assert GAME.timeout_move(state_, 1) is None
    assert GAME.timeout_move({**state_, "ended": "turn_cap", "to_act": None}, 0) is None


def test_timeout_moves_alone_finish_a_game():
    """Everyone away: deadlines alone play a game to its end, each move legal."""
    rng = random.Random(9)
    s = replay(GAME, GAME.start(3, GAME.validate_options(3, {}), rng))
    for _ in range(2000):
        if GAME.outcome(s) is not None:
            break
        seat = next(iter(GAME.to_act(s)))
        move = GAME.timeout_move(s, seat)
        assert move in GAME.legal_moves(s, seat)
        assert GAME.timeout_move(s, seat) == move   # deterministic
        s = replay(GAME, GAME.decide(s, seat, move, rng), s)
    assert GAME.outcome(s) is not None
