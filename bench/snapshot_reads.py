"""The snapshots of many games read at once (service.store.snapshots.latest_many), as a sweep's
batch reads them (every game at its last event: `ends` given) and as a relay's group does
when its emails are of positions the games have moved past (each game within its own range):
the wall time and this process's CPU per call, the median of five, for 10, 200 and 1,000
games. For comparing two versions of the read on a machine shared with other work.

    .venv/bin/python bench/snapshot_reads.py postgresql+psycopg://postgres@127.0.0.1/x

The database's tables are DROPPED and recreated; 20,000 games get snapshots after events 25,
50, ... 200 (the games' rows themselves are not needed: the snapshots' foreign key is
dropped in this scratch database). Prints; never asserts."""
from __future__ import annotations

import argparse
import pickle
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pg_bench import fresh_database  # noqa: E402
from sqlalchemy import create_engine, insert, text  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

from service.store import snapshots  # noqa: E402
from service.store.models import Snapshot  # noqa: E402

GAMES, EVERY, LAST = 20_000, 25, 200


def seed(url: str):
    fresh_database(url)
    engine = create_engine(url)
    state = pickle.dumps({"hand": list(range(50))})
    with engine.begin() as conn:
        conn.execute(text("ALTER TABLE snapshots DROP CONSTRAINT IF EXISTS "
                          "snapshots_game_id_fkey"))
        conn.execute(insert(Snapshot.__table__), [
            {"game_id": g, "seq": seq, "format": "v1", "state": state}
            for g in range(1, GAMES + 1) for seq in range(EVERY, LAST + 1, EVERY)])
        conn.execute(text("ANALYZE snapshots"))
    return engine


def timed(engine, n: int, at_end: bool, rng: random.Random) -> tuple[float, float]:
    """The median wall and CPU milliseconds of five calls for `n` games."""
    walls, cpus = [], []
    for _ in range(5):
        ids = rng.sample(range(1, GAMES + 1), n)
        # at their end: each game's position is its last event; else the emails are of an
        # earlier position than the game's newest snapshot
        upto = LAST if at_end else LAST - EVERY // 2
        wanted = {g: ("v1", 0, upto) for g in ids}
        with Session(engine) as session:
            wall, cpu = time.perf_counter(), time.process_time()
            found = snapshots.latest_many(session, wanted,
                                          ends={g: LAST for g in ids} if at_end else None)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        assert len(found) == n
    return statistics.median(walls) * 1000, statistics.median(cpus) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("url", help="a scratch PostgreSQL (or SQLite) database: its tables are dropped")
    args = ap.parse_args()
    engine = seed(args.url)
    rng = random.Random(7)
    print(f"latest_many on {GAMES:,} games of {LAST // EVERY} snapshots, median of 5 calls:")
    for at_end, what in ((True, "at their end (a sweep's batch)"),
                         (False, "each within its range (positions behind)")):
        for n in (10, 200, 1000):
            wall, cpu = timed(engine, n, at_end, rng)
            print(f"  {n:5,} games {what:42s} wall {wall:7.1f} ms, CPU {cpu:6.1f} ms")
    engine.dispose()


if __name__ == "__main__":
    main()
