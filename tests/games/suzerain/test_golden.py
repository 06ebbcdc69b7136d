"""Golden Suzerain playthroughs (tests/games/golden.py): a random game and a greedy one.
Regenerate after an intended change: TURNPOST_REGEN_GOLDEN=1 .venv/bin/pytest tests/games/suzerain
"""
from __future__ import annotations

from pathlib import Path

import pytest

from service.games.suzerain import GAME
from tests.games.golden import check

HERE = Path(__file__).parent / "golden"


@pytest.mark.parametrize("seed,bot", [(1, "random"), (2, "greedy")])
def test_golden(seed, bot):
    check(HERE / f"{bot}_{seed}.jsonl", GAME, 2, {}, seed, bot)
