"""Golden Suzerain playthroughs (tests/games/golden.py): a random game and a greedy one, under
each rules version.

The files without a suffix were recorded before rules versions existed: they are version-1
logs and must keep replaying unchanged, so they are played by GAME starting its games as it did
then (no "rules" in the first event). The ``_v2`` files are recorded under rules version 2
(amended S7). Regenerate after an intended change:
TURNPOST_REGEN_GOLDEN=1 .venv/bin/pytest tests/games/suzerain
"""
from __future__ import annotations

from pathlib import Path

import pytest

from service.games.suzerain import GAME
from tests.games.golden import check

from .helpers import as_version_1

HERE = Path(__file__).parent / "golden"


class Version1:
    """GAME as it started games before rules versions; every other method is GAME's own."""

    def __init__(self, game):
        self._game = game

    def __getattr__(self, name):
        return getattr(self._game, name)

    def start(self, seats, options, chance):
        return as_version_1(self._game.start(seats, options, chance))


@pytest.mark.parametrize("seed,bot", [(1, "random"), (2, "greedy")])
def test_golden_version_1(seed, bot):
    check(HERE / f"{bot}_{seed}.jsonl", Version1(GAME), 2, {}, seed, bot)


@pytest.mark.parametrize("seed,bot", [(1, "random"), (2, "greedy"), (3, "normal")])
def test_golden_version_2(seed, bot):
    check(HERE / f"{bot}_{seed}_v2.jsonl", GAME, 2, {}, seed, bot)
