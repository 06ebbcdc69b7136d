"""Golden playthroughs (tests/games/golden.py): a seeded 2-player game between random bots and
a 4-player game played by the greedy bot. Regenerate after an intended rules change with
TURNPOST_REGEN_GOLDEN=1."""
from __future__ import annotations

from pathlib import Path

from service.games.trees import GAME
from tests.games.golden import check

HERE = Path(__file__).parent / "golden"


def test_two_players_random():
    check(HERE / "two_players_random.jsonl", GAME, 2, {}, seed=2, bot="random")


def test_four_players_greedy():
    check(HERE / "four_players_greedy.jsonl", GAME, 4, {"bonus": 2}, seed=4, bot="greedy")
