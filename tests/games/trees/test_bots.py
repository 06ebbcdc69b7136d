"""The Trees bots: always legal, and greedy beats random (the figure bench/trees_bench.py
prints over 200 games)."""
from __future__ import annotations

import random

import pytest

from service.games.trees import GAME
from service.games.trees.bots import play_game
from tests.budgets import seeds


def test_bots_play_whole_games_legally():
    for seats in (2, 3, 4):
        for seed in range(3):
            rng = random.Random(seed)
            players = [rng.choice(["random", "greedy"]) for _ in range(seats)]
            state, log = play_game(players, GAME.validate_options(seats, {}), rng)
            assert GAME.outcome(state) is not None
            assert log[-1].type == "GameEnded"


@pytest.mark.deep
def test_greedy_beats_random():
    """Seeded, so the same every run: greedy sits first in even games, second in odd ones."""
    wins = 0
    games = seeds(30, start=1000)
    options = GAME.validate_options(2, {})
    for n in games:
        seat = n % 2
        players = ["greedy", "random"] if seat == 0 else ["random", "greedy"]
        state, _ = play_game(players, options, random.Random(n))
        winners = GAME.outcome(state).winners
        wins += seat in winners and len(winners) == 1
    assert wins / len(games) > 0.7
