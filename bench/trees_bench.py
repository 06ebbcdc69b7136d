"""Trees figures: random games per second (2, 3, 4 players), the normal (greedy) bot's win rate
against easy (random) over 200 two-player games, and the time to rebuild a finished game from
its log.

    .venv/bin/python bench/trees_bench.py
"""
from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from service.games.contract import Event, replay  # noqa: E402
from service.games.trees import GAME  # noqa: E402
from service.games.trees.bots import play_game  # noqa: E402


def games_per_second(seats: int, seconds: float = 3.0) -> tuple[float, float]:
    rng = random.Random(seats)
    options = GAME.validate_options(seats, {})
    done = turns = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = play_game(["easy"] * seats, options, rng)
        done += 1
        turns += state["turn"] - 1
    elapsed = time.perf_counter() - start
    return done / elapsed, turns / done


def greedy_win_rate(games: int = 200) -> tuple[float, float, float]:
    options = GAME.validate_options(2, {})
    wins = shared = 0
    margin = 0
    for n in range(games):
        seat = n % 2   # normal moves first in half the games (the first player is random anyway)
        players = ["normal", "easy"] if seat == 0 else ["easy", "normal"]
        state, _ = play_game(players, options, random.Random(10_000 + n))
        outcome = GAME.outcome(state)
        if seat in outcome.winners:
            if len(outcome.winners) == 1:
                wins += 1
            else:
                shared += 1
        margin += outcome.scores[seat] - outcome.scores[1 - seat]
    return wins / games, shared / games, margin / games


def rebuild_time(repeats: int = 200) -> tuple[float, int]:
    state, log = play_game(["easy", "easy"], GAME.validate_options(2, {}), random.Random(7))
    stored = [json.dumps(e.to_json()) for e in log]   # as the event store holds them
    start = time.perf_counter()
    for _ in range(repeats):
        rebuilt = replay(GAME, [Event.from_json(json.loads(s)) for s in stored])
    elapsed = (time.perf_counter() - start) / repeats
    assert rebuilt == state
    return elapsed, len(log)


def main() -> None:
    for seats in (2, 3, 4):
        rate, turns = games_per_second(seats)
        print(f"random play, {seats} players: {rate:8.1f} games/s  ({turns:.0f} turns a game)")
    win, shared, margin = greedy_win_rate()
    print(f"normal vs easy, 200 2-player games: normal wins {win:.1%}, shares {shared:.1%}, "
          f"average margin {margin:+.2f} points")
    seconds, events = rebuild_time()
    print(f"rebuild a finished 2-player game from its JSON log ({events} events): "
          f"{seconds * 1000:.2f} ms")


if __name__ == "__main__":
    main()
