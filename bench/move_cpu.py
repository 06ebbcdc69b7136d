"""CPU time of one move by link, in process (Flask's test client): the work a web worker does
for a move, in milliseconds of this process's CPU, which a busy machine disturbs far less than
wall time (the PostgreSQL server's own CPU is not in it). For comparing two versions of the
move path on a machine shared with other work; `make bench` stays the record of the targets.

    .venv/bin/python bench/move_cpu.py                       # SQLite, in a temporary file
    .venv/bin/python bench/move_cpu.py --pg-url postgresql+psycopg://postgres@127.0.0.1/x \\
                                       --redis-url redis://127.0.0.1:6379/12

Each move is the first move of its own Trees game, made by the bench before timing; games
are made in this process, so the state cache is warm for the first ones (--cold empties it
first, as a web worker that did not start the game finds it). The --pg-url database's tables
are DROPPED and recreated; the Redis database is the broker of the moves' kicks (on SQLite
the mail a move kicks is not counted: the embedded default sends it after the response)."""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pg_bench import fresh_database, links_to_post, service_env  # noqa: E402

from service import play  # noqa: E402
from service.store.migrate import upgrade  # noqa: E402
from service.web import create_app  # noqa: E402


def measure(settings: dict, rounds: int, per_round: int, cold: bool) -> list[float]:
    app = create_app(settings)
    svc = app.extensions["turnpost"]
    kick, svc.enqueue = svc.enqueue, play.services.run_nothing   # no mail while games start
    warm = 50
    links = links_to_post(svc, warm + rounds * per_round)
    if not svc.embedded:
        svc.enqueue = kick      # publishing the kick is part of the request's work (after its page)
    if cold:
        svc.states.clear()
    client = app.test_client()
    for path in links[:warm]:                    # imports, compiled statements, pools
        r = client.post(path)
        r.close()
        assert r.status_code == 200
    spent = []
    for n in range(rounds):
        batch = links[warm + n * per_round: warm + (n + 1) * per_round]
        t = time.process_time()
        for path in batch:
            r = client.post(path)
            r.close()           # with a broker, the kick is published then (service.web.kicks)
            assert r.status_code == 200
        spent.append((time.process_time() - t) * 1000 / per_round)
    svc.dispose()
    return spent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pg-url", help="PostgreSQL (its tables are dropped) instead of SQLite")
    ap.add_argument("--redis-url", help="the broker, with --pg-url")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--moves", type=int, default=100, help="moves per round")
    ap.add_argument("--cold", action="store_true", help="empty the state cache first")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.pg_url:
            fresh_database(args.pg_url)
            settings = service_env(args.pg_url, args.redis_url or "redis://127.0.0.1:6379/12")
        else:
            # inline: no background thread (its idle sweeps would run beside the moves)
            settings = {"TURNPOST_DATABASE_URL": f"sqlite:///{tmp}/move.db",
                        "TURNPOST_MAILDIR": f"{tmp}/outbox", "TURNPOST_BACKGROUND": "inline"}
            upgrade(settings["TURNPOST_DATABASE_URL"])
        settings["TURNPOST_CHANCE"] = random.Random(4)
        spent = measure(settings, args.rounds, args.moves, args.cold)
    print("CPU per move (ms), each round:", " ".join(f"{x:.3f}" for x in spent))
    print(f"median {statistics.median(spent):.3f} ms")


if __name__ == "__main__":
    main()
