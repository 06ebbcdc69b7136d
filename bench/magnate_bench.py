"""Magnate figures: random games per second per variant (rules 2: turns stay open until `end`,
M9 amended), the "normal" (greedy) bot's win rate against "easy" (random) over 200 games,
and the time to rebuild a finished game's state from its log.

Run: .venv/bin/python bench/magnate_bench.py   (prints figures; asserts nothing about time)
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from service.games.contract import Event, replay  # noqa: E402
from service.games.magnate import GAME  # noqa: E402

VARIANTS = [
    ("classic", 2, {}),
    ("classic + courts + replace ace", 2, {"courts": "on", "replace_ace": True}),
    ("classic pawn properties", 2, {"pawn_properties": True}),
    ("modern", 2, {"ruleset": "modern"}),
    ("modern double taxation", 2, {"ruleset": "modern", "double_taxation": True}),
    ("mega (classic)", 2, {"mega": True}),
    ("mega (modern)", 2, {"ruleset": "modern", "mega": True}),
    ("three players", 3, {"ruleset": "modern", "three": True}),
]


def play(seats, options, seed, bots):
    rng = random.Random(seed)
    events = GAME.start(seats, GAME.validate_options(seats, options), rng)
    st = replay(GAME, events)
    steps = 0
    while GAME.outcome(st) is None:
        seat = st.turn
        new = GAME.decide(st, seat, GAME.bots[bots[seat]](st, seat, rng), rng)
        events += new
        st = replay(GAME, new, st)
        steps += 1
    return st, events, steps


def main() -> None:
    print("Random legal play, full games (uniform choice over legal_moves):")
    logs = []
    for name, seats, opts in VARIANTS:
        t0 = time.perf_counter()
        n, steps = 0, 0
        while time.perf_counter() - t0 < 2.0:
            _, events, k = play(seats, opts, n, ["easy"] * seats)
            logs.append(events)
            n += 1
            steps += k
        dt = time.perf_counter() - t0
        print(f"  {name:34s} {n / dt:7.1f} games/s  ({steps / n:.0f} moves/game)")

    for name, opts in (("classic", {}), ("modern", {"ruleset": "modern"})):
        wins = draws = 0
        t0 = time.perf_counter()
        for n in range(200):
            g = n % 2
            bots = ["easy", "easy"]
            bots[g] = "normal"
            st, _, _ = play(2, opts, 5000 + n, bots)
            o = GAME.outcome(st)
            wins += o.winners == (g,)
            draws += len(o.winners) > 1
        print(f"Normal (greedy) vs easy (random), {name}, 200 games (alternating seats): {wins / 2:.1f}% won, "
              f"{draws} drawn ({time.perf_counter() - t0:.1f} s)")

    longest = max(logs, key=len)
    stored = [e.to_json() for e in longest]
    t0 = time.perf_counter()
    reps = 50
    for _ in range(reps):
        replay(GAME, [Event.from_json(e) for e in stored])
    dt = (time.perf_counter() - t0) / reps
    print(f"Rebuild a finished game from its log ({len(stored)} events, from JSON): "
          f"{dt * 1000:.2f} ms")


if __name__ == "__main__":
    main()
