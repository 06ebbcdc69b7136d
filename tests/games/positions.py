"""Positions from seeded random play, for the conformance and hidden-information suites
(test_conformance.py, test_hidden_information.py), on every registered engine.

Each engine plays one game per lobby configuration (each lobby entry at each player count it
allows), more seeds until it has played `MIN_GAMES`, and keeps `POSITIONS[game_id]` positions
spread evenly over them (every position after a move, with that move). Now and then a seat
not to act makes one of its moves (Magnate's standing choices), so those are tried as well.
The budget is declared here so that the suites stay quick: a few dozen positions per engine.
"""
from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

from service.games import registry
from service.games.contract import Event, Game, Move, OptionError, replay

GAMES = sorted(registry.available())
#: positions kept per engine; an engine not listed keeps DEFAULT_POSITIONS
POSITIONS = {"aristocracy": 24}
DEFAULT_POSITIONS = 30
MIN_GAMES = 3
#: options that shorten a long game without changing its rules (Aristocracy's round cap, A19:
#: random play seldom ends a game otherwise, and its moves are many)
SHORTER = {"aristocracy": {"round_cap": 3}}
#: how often a seat not to act makes one of its moves, when it has one
OFF_TURN = 0.1
MAX_STEPS = 20_000


@dataclass(frozen=True)
class Position:
    game: Game
    seats: int
    options: dict
    state: Any
    before: Any          # the position the last move was made in
    mover: int
    move: Move
    events: tuple[Event, ...]
    said: tuple[str, ...]     # the texts of moves seen in its game so far (plan lines)
    index: int           # its place in the engine's list


def configurations(game: Game) -> list[tuple[int, dict]]:
    """(player count, validated options) of every lobby entry at every count it allows; a
    count that needs an on/off variant (Magnate's `three`) gets the first that makes a game."""
    out = []
    for _entry, _label, engine, preset in registry.lobby():
        if engine is not game:
            continue
        for seats in registry.player_counts(game, preset):
            variants = [{}] + [{name: True} for name, opt in game.options.items()
                               if isinstance(opt.default, bool) and name not in preset]
            for extra in variants:
                try:
                    options = {**preset, **extra, **SHORTER.get(game.id, {})}
                    out.append((seats, game.validate_options(seats, options)))
                    break
                except OptionError:
                    continue
    return out


def _play(game: Game, seats: int, options: dict, seed: int) -> list[tuple]:
    rng = random.Random(seed)
    state = replay(game, game.start(seats, options, rng))
    said: list[str] = []
    out = []
    for _ in range(MAX_STEPS):
        if game.outcome(state) is not None:
            return out
        acting = sorted(game.to_act(state))
        idle = [s for s in range(seats) if s not in acting and game.legal_moves(state, s)] \
            if rng.random() < OFF_TURN else []
        seat = rng.choice(idle or acting)
        moves = game.legal_moves(state, seat)
        said.extend(game.describe(m) for m in rng.sample(moves, min(3, len(moves))))
        move = rng.choice(moves)
        events = tuple(game.decide(state, seat, move, rng))
        after = replay(game, events, state)
        out.append((after, state, seat, move, events, tuple(dict.fromkeys(said))))
        state = after
    raise AssertionError(f"random play of {game.id} did not finish")


@functools.cache
def positions(game_id: str) -> tuple[Position, ...]:
    game = registry.get(game_id)
    configs = configurations(game)
    played: list[tuple[int, dict, tuple]] = []
    for n in range(max(MIN_GAMES, len(configs))):
        seats, options = configs[n % len(configs)]
        played += [(seats, options, step) for step in _play(game, seats, options, n)]
    want = POSITIONS.get(game_id, DEFAULT_POSITIONS)
    picked = [played[i * len(played) // want] for i in range(want)]
    return tuple(Position(game, seats, options, *step, index=i)
                 for i, (seats, options, step) in enumerate(picked))
