"""GET /me of one player on `make bench-scale`'s PostgreSQL seed, in process (Flask's test
client, signed in by the seed's session cookie): the wall and CPU medians of the requests, the
statements of the last one with their times, and optionally a cProfile. For comparing two
versions of /me on a machine shared with other work; `make bench-scale` stays the record of
the target (its /me row against the bare route). It only reads: the seed is left as it is.

    .venv/bin/python bench/me_cpu.py                      # player 1: 1,000 games, 100 going
    .venv/bin/python bench/me_cpu.py --requests 40 --statements all --profile 30
    .venv/bin/python bench/me_cpu.py --url postgresql+psycopg://postgres@127.0.0.1:5432/scale \\
                                     --redis-url redis://127.0.0.1:6379/14 --player 1

Three requests warm the process first. Statements are timed from SQLAlchemy's cursor events
(`--statements all`: each in order, with the units of work's BEGIN and COMMIT between them)."""
from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pg_bench import service_env  # noqa: E402
from scale.web import session_cookie  # noqa: E402
from sqlalchemy import event  # noqa: E402

from service.web import create_app  # noqa: E402

SCALE = "postgresql+psycopg://postgres@127.0.0.1:5432/scale"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", default=SCALE, help="the bench-scale seed (read only)")
    ap.add_argument("--redis-url", default="redis://127.0.0.1:6379/14")
    ap.add_argument("--player", type=int, default=1)
    ap.add_argument("--requests", type=int, default=8)
    ap.add_argument("--statements", choices=("top", "all"), default="top")
    ap.add_argument("--profile", type=int, default=0, metavar="N",
                    help="then cProfile five more requests: the top N functions")
    args = ap.parse_args()
    env = service_env(args.url, args.redis_url)
    os.environ.update(env)
    app = create_app(dict(env))
    engine = app.extensions["turnpost"].db.engine
    said: list[tuple[float, str]] = []

    @event.listens_for(engine, "before_cursor_execute")
    def _before(conn, _cursor, _statement, _params, _context, _many):
        conn.info["bench_t"] = time.perf_counter()

    @event.listens_for(engine, "after_cursor_execute")
    def _after(conn, _cursor, statement, _params, _context, _many):
        said.append((time.perf_counter() - conn.info["bench_t"],
                     " ".join(statement.split())[:110]))

    @event.listens_for(engine, "begin")
    def _begin(_conn):
        said.append((0.0, "-- BEGIN"))

    @event.listens_for(engine, "commit")
    def _commit(_conn):
        said.append((0.0, "-- COMMIT"))

    client = app.test_client()
    name, value = session_cookie(app, args.player).split("=", 1)
    client.set_cookie(name, value)
    for _ in range(3):
        client.get("/me")
    walls, cpus = [], []
    for _ in range(args.requests):
        said.clear()
        wall, cpu = time.perf_counter(), time.process_time()
        answer = client.get("/me")
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    assert answer.status_code == 200, answer.status_code
    statements = [(t, text) for t, text in said if not text.startswith("--")]
    print(f"/me of player {args.player}: wall median {statistics.median(walls) * 1000:.1f} ms, "
          f"CPU median {statistics.median(cpus) * 1000:.1f} ms over {args.requests} requests; "
          f"the last: {len(statements)} statements, "
          f"{sum(t for t, _ in statements) * 1000:.1f} ms in them, {len(answer.data)} bytes")
    shown = said if args.statements == "all" else sorted(statements, reverse=True)[:12]
    for t, text in shown:
        print(f"  {t * 1000:6.2f} {text}")
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(5):
            client.get("/me")
        profile.disable()
        out = io.StringIO()
        stats = pstats.Stats(profile, stream=out)
        stats.sort_stats("cumulative").print_stats(args.profile)
        stats.sort_stats("tottime").print_stats(args.profile)
        print(out.getvalue())


if __name__ == "__main__":
    main()
