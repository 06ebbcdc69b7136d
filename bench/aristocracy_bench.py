"""Aristocracy figures: random games per second per player count and variant, the greedy
bot's win rate against two random players over 100 three-player games, and the time to
rebuild a finished game's state from its log.   .venv/bin/python bench/aristocracy_bench.py
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.games.aristocracy import GAME  # noqa: E402
from service.games.contract import replay  # noqa: E402


def game(n, options, seed, bots):
    rng = random.Random(seed)
    log = GAME.start(n, GAME.validate_options(n, options), rng)
    s = replay(GAME, log)
    while s.result is None:
        seat = rng.choice(sorted(GAME.to_act(s)))
        ev = GAME.decide(s, seat, GAME.bots[bots[seat]](s, seat, rng), rng)
        log += ev
        s = replay(GAME, ev, s)
    return s, log


def main():
    print("random games per second (default round cap 25):")
    for sizes in ("4-5-6", "2-3-4"):
        for n in (2, 3, 4, 5):
            t, k = time.perf_counter(), 0
            while time.perf_counter() - t < 1.5:
                game(n, {"sizes": sizes}, k, ["easy"] * n)
                k += 1
            print(f"  {sizes} {n} players: {k / (time.perf_counter() - t):6.2f} games/s")
    t, wins, ended = time.perf_counter(), 0, 0
    for g in range(100):
        seat = g % 3
        bots = ["easy"] * 3
        bots[seat] = "normal"
        s, _ = game(3, {}, 1000 + g, bots)
        wins += s.result["winner"] == seat
        ended += s.result["how"] == "ended"
    print(f"greedy vs 2 random, 100 three-player games: won {wins}% "
          f"({ended} ended by a player, the rest by the round cap; "
          f"{time.perf_counter() - t:.1f}s)")
    s, log = game(3, {}, 7, ["easy"] * 3)
    t = time.perf_counter()
    assert replay(GAME, log) == s
    print(f"rebuild a finished 3-player game from its {len(log)} events: "
          f"{(time.perf_counter() - t) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
