"""Golden Suzerain playthroughs (tests/games/golden.py): a random game and a greedy one, under
each rules version.

The files without a suffix were recorded before rules versions existed: they are version-1
logs and must keep replaying unchanged, so they are played by GAME starting its games as it did
then (no "rules" in the first event). The ``_v2`` files are recorded under rules version 2
(amended S7) and replay through GAME starting its games under version 2. The ``_v3`` files are
recorded under rules version 3 (the fresh right offered whatever the winner's hand holds), on
seeds where that changes the game.
Regenerate after an intended change:
TURNPOST_REGEN_GOLDEN=1 .venv/bin/pytest tests/games/suzerain
"""
from __future__ import annotations

from pathlib import Path

import pytest

from service.games.suzerain import GAME
from tests.games.golden import check
from tests.games.suzerain.helpers import as_version

HERE = Path(__file__).parent / "golden"


class StartedUnder:
    """GAME as it started games when `version` was its rules version; every other method is
    GAME's own (the game's first event carries the version it is played under)."""

    def __init__(self, game, version: int):
        self._game, self._version = game, version

    def __getattr__(self, name):
        return getattr(self._game, name)

    def start(self, seats, options, chance):
        return as_version(self._game.start(seats, options, chance), self._version)


@pytest.mark.parametrize("seed,bot", [(1, "random"), (2, "greedy")])
def test_golden_version_1(seed, bot):
    check(HERE / f"{bot}_{seed}.jsonl", StartedUnder(GAME, 1), 2, {}, seed, bot)


@pytest.mark.parametrize("seed,bot", [(1, "random"), (2, "greedy"), (3, "normal")])
def test_golden_version_2(seed, bot):
    check(HERE / f"{bot}_{seed}_v2.jsonl", StartedUnder(GAME, 2), 2, {}, seed, bot)


# seeds whose games meet a Pawn or Court claimed by a winner holding no card of its suits,
# where versions 2 and 3 part (the version-2 seeds above play the same under version 3)
@pytest.mark.parametrize("seed,bot", [(1, "random"), (6, "normal")])
def test_golden_version_3(seed, bot):
    assert GAME.rules_version == 3
    check(HERE / f"{bot}_{seed}_v3.jsonl", GAME, 2, {}, seed, bot)
