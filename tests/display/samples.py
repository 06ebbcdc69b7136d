"""Sample positions of every game, played by the bots straight through the engines (no
server): what the look tests render. Each sample is a game at one step with the events that
led to it, so a page can show its news and its history."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from service.games import registry
from service.games.contract import Event, Game, replay

NAMES = ["Anna", "Bartholomew", "Chloe", "Dmitri"]

# lobby entry, seats, options: every game, both Magnate rulesets, odd player counts
CASES = [
    ("trees", 3, {}),
    ("magnate", 2, {}),
    ("magnate-roller", 3, {"three": True}),
    ("suzerain", 2, {}),
    ("aristocracy", 3, {"round_cap": 2}),
]


@dataclass
class Sample:
    entry: str
    engine: Game
    state: Any
    events: list[tuple[int, Event]]   # (seq, event), oldest first
    names: list[str]
    when: str                          # "start", "mid" or "end"

    @property
    def seq(self) -> int:
        return self.events[-1][0]


def _entry(entry: str) -> tuple[Game, dict]:
    for name, _label, game, preset in registry.lobby():
        if name == entry:
            return game, preset
    raise KeyError(entry)


def play(entry: str, seats: int, options: dict, seed: int = 3) -> list[Sample]:
    """The position at the start, about a third of the way in, and at the end."""
    engine, preset = _entry(entry)
    rng = random.Random(seed)
    opts = engine.validate_options(seats, {**options, **preset})
    log = list(engine.start(seats, opts, rng))
    state = replay(engine, log)
    bot = engine.bots.get("easy") or next(iter(engine.bots.values()))
    names = NAMES[:seats]
    snapshots = [("start", state, len(log))]
    steps = 0
    while engine.outcome(state) is None and steps < 4000:
        seat = rng.choice(sorted(engine.to_act(state)))
        new = engine.decide(state, seat, bot(state, seat, rng), rng)
        log.extend(new)
        state = replay(engine, new, state)
        steps += 1
        if steps == 25:
            snapshots.append(("mid", state, len(log)))
    snapshots.append(("end", state, len(log)))
    numbered = list(enumerate(log, start=1))
    return [Sample(entry, engine, st, numbered[:n], names, when) for when, st, n in snapshots]
