"""Suzerain figures: random games per second, the "normal" (greedy) bot's win rate against the
"easy" (random) one over 200 seeded games, a game played by timeouts alone, and the time to
rebuild a finished game's state from its event log. Games start under the current rules
version (GAME.rules_version).

    .venv/bin/python bench/suzerain_bench.py
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.games.contract import Event, replay  # noqa: E402
from service.games.suzerain import GAME  # noqa: E402


def game(seed: int, bots=("easy", "easy")):
    rng = random.Random(seed)
    log = list(GAME.start(2, GAME.validate_options(2, {}), rng))
    state = replay(GAME, log)
    moves = 0
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_act(state)
        bot = bots[seat]
        move = (GAME.timeout_move(state, seat) if bot == "timeout"
                else GAME.bots[bot](state, seat, rng))
        events = GAME.decide(state, seat, move, rng)
        log += events
        state = replay(GAME, events, state)
        moves += 1
    return state, log, moves


def main():
    t0 = time.perf_counter()
    n = moves = 0
    while time.perf_counter() - t0 < 5:
        moves += game(n)[2]
        n += 1
    dt = time.perf_counter() - t0
    print(f"rules version {GAME.rules_version}")
    print(f"easy vs easy: {n / dt:.0f} games/s ({moves / n:.0f} moves a game, "
          f"{n} games in {dt:.1f} s)")

    t0 = time.perf_counter()
    wins, games = 0, 200
    for i in range(games):
        greedy = i % 2
        bots = ("easy", "normal") if greedy else ("normal", "easy")
        state = game(2024 + i, bots)[0]
        wins += GAME.outcome(state).winners == (greedy,)
    dt = time.perf_counter() - t0
    print(f"normal vs easy: won {wins}/{games} = {wins / games:.1%} "
          f"(seats alternating, seeds 2024..{2024 + games - 1}; {games / dt:.0f} games/s)")

    state, _, moves = game(3, ("timeout", "timeout"))
    print(f"timeouts alone: {moves} moves, scores {list(GAME.outcome(state).scores)}")

    _, log, _ = game(7)
    stored = [e.to_json() for e in log]
    reps = 200
    t0 = time.perf_counter()
    for _ in range(reps):
        replay(GAME, [Event.from_json(e) for e in stored])
    dt = (time.perf_counter() - t0) / reps
    print(f"rebuild from log: {dt * 1000:.2f} ms for a finished game of {len(log)} events")


if __name__ == "__main__":
    main()
