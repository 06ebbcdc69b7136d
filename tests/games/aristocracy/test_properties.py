"""Random-play properties of rules version 2, checked in every position of a few seeded
games (a few seconds in all)."""
from __future__ import annotations

import random

import pytest

from service.games.aristocracy import GAME
from service.games.contract import replay

SEEDS = [(2, {"round_cap": 4}, 1), (3, {"round_cap": 3}, 2),
         (4, {"sizes": "2-3-4", "round_cap": 3}, 3), (5, {"round_cap": 2}, 4),
         (3, {"herald_order_commits": True, "round_cap": 3}, 5)]


def positions(seats, options, seed):
    """Every position of a game played by the easy (random) bot."""
    rng = random.Random(seed)
    s = replay(GAME, GAME.start(seats, GAME.validate_options(seats, options), rng))
    yield s
    while GAME.outcome(s) is None:
        seat = rng.choice(sorted(GAME.to_act(s)))
        for e in GAME.decide(s, seat, GAME.bots["easy"](s, seat, rng), rng):
            s = GAME.evolve(s, e)
            yield s


@pytest.mark.parametrize("seats,options,seed", SEEDS)
def test_the_4_oldest_discards_are_face_up_in_every_position(seats, options, seed):
    """A13 as amended: the 4 oldest Aristocracy discards are face up, always, and public:
    every view shows them and no seat counts them secret."""
    # RULINGS A13
    checked = 0
    for s in positions(seats, options, seed):
        assert s.rules >= 2     # A13 as amended since version 2
        oldest = s.discard[:4]
        assert s.face_up == oldest, (s.discard, s.face_up)
        for seat in [*range(seats), None]:
            assert GAME.view(s, seat)["discard_face_up"] == list(oldest)
            assert not set(oldest) & GAME.secrets(s, seat)
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("seats,options,seed", [*SEEDS[:3], SEEDS[4]])
def test_timeout_move_is_legal_wherever_a_seat_is_to_act(seats, options, seed):
    """Every seat to act has a deterministic default, and it is a legal move there."""
    for s in positions(seats, options, seed):
        for seat in GAME.to_act(s):
            move = GAME.timeout_move(s, seat)
            assert move is not None, (s.stage, seat)
            assert move == GAME.timeout_move(s, seat)
            GAME.decide(s, seat, move, random.Random(0))     # raises if illegal
