"""The use-case family's shared test helpers: start a game with a seeded deal, and load where
it stands. Families below (moves, time, players, ...) build on these instead of copying them."""
from __future__ import annotations

import random

from service import play
from service.play import repository

PLAYERS = ["Anna <anna@example.org>", "ben@example.org"]


def start(svc, kind="trees", players=PLAYERS, seed=3, **options):
    """Start `kind` for `players` with the deal seeded by `seed`; `options` as the game's
    settings. Returns what play.start_game returns (its `.game_id` is the game)."""
    svc.chance = random.Random(seed)
    return play.start_game(svc, kind, players, options)


def position(svc, game_id):
    """The game as the use cases see it: its engine and state, folded from the log."""
    with svc.db.transaction() as s:
        return repository.load(s, svc.states, game_id)
