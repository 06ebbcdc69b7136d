"""`make bench-scale`'s moves by reply, on a small database: the same production shape
(bench/scale/stack.py: gunicorn with 4 workers, the bare route under the same gunicorn, Celery
with 4 processes, beat, an SMTP sink) and the same figure (replies posted to the webhook by 16
clients taking turns with the bare route, then applied by the workers; the rate from the first
stored to the last applied), without the million-game seed: each reply is the first move of
its own new Trees game. For comparing two versions of the reply path in minutes.

    .venv/bin/python bench/scale/replies.py --url postgresql+psycopg://postgres@127.0.0.1/x \\
                                            --redis-url redis://127.0.0.1:6379/12 [--rounds 3]
                                            [--pool 4] [--web-workers 4]

Each round's CPU is read once its emails are sent and the queue is empty, as make
bench-scale's is (bench/scale/work.drain).

The --url database's tables are DROPPED and recreated; the Redis database is flushed. Prints;
never asserts."""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

import redis
from sqlalchemy import update

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE.parents[1])]

from pg_bench import fresh_database, warm_up  # noqa: E402
from sweep_shards import backends  # noqa: E402

from bench import p95, smtp_sink  # noqa: E402
from scale import web, work  # noqa: E402
from scale.stack import POOL, WEB_WORKERS, Stack, cpu_seconds, members  # noqa: E402
from service import play  # noqa: E402
from service.store.models import OutboxRow  # noqa: E402
from service.web import create_app  # noqa: E402


def spent(shape: Stack, engine) -> dict[str, float]:
    """CPU seconds so far of the web's and the workers' processes (each process's own: the
    group already lists the children), the Celery worker's main process apart, and of the
    database's backends (by pid: a backend that ended since is not counted)."""
    out = {role: sum(cpu_seconds(pid) for pid in members(shape.procs[role].pid))
           for role in ("web", "worker")}
    out["worker main"] = cpu_seconds(shape.procs["worker"].pid)
    return {**out, **{f"pg{pid}": cpu for pid, cpu in backends(engine).items()}}


def per_reply(before: dict[str, float], after: dict[str, float], n: int) -> str:
    """Milliseconds of CPU per reply applied, by role (the workers' include sending the
    emails the moves queued; of them, the Celery worker's main process: its consumer)."""
    pg = sum(cpu - before.get(k, 0.0) for k, cpu in after.items() if k.startswith("pg"))
    parts = {"web": after["web"] - before["web"], "workers": after["worker"] - before["worker"],
             "of which Celery's main": after["worker main"] - before["worker main"],
             "PostgreSQL": pg}
    return ", ".join(f"{k} {v * 1000 / max(n, 1):.1f}" for k, v in parts.items())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", required=True, help="PostgreSQL (its tables are dropped)")
    ap.add_argument("--redis-url", required=True, help="Redis (flushed)")
    ap.add_argument("--replies", type=int, default=1500, help="replies a round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--pool", type=int, default=POOL, help="Celery worker processes")
    ap.add_argument("--web-workers", type=int, default=WEB_WORKERS,
                    help="gunicorn workers (the service's; the bare route's too)")
    args = ap.parse_args()
    fresh_database(args.url)
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        tmp = Path(tmp)
        sink_port = stack.enter_context(smtp_sink(tmp / "sink.log"))
        redis.Redis.from_url(args.redis_url).flushdb()
        shape = Stack(args.url, args.redis_url, tmp, smtp_port=sink_port,
                      web_workers=args.web_workers, pool=args.pool)
        app = create_app({**shape.env(), "TURNPOST_CHANCE": random.Random(4)})
        svc = app.extensions["turnpost"]
        svc.enqueue = play.services.run_nothing          # the games' first emails: not sent
        games = [play.start_game(svc, "trees", [f"p{i}a@example.org", f"p{i}b@example.org"],
                                 {}).game_id for i in range(args.replies * args.rounds)]
        # as in the seed, the games' earlier emails are sent: the workers' figure is the
        # replies' and their own emails'
        with svc.db.transaction() as session:
            session.execute(update(OutboxRow).values(status="sent"))
        stack.callback(svc.dispose)
        shape.start(stack, sink_port)
        warm_up(shape.bare_port, "/bare")
        warm_up(shape.web_port, "/healthz", "GET")
        time.sleep(3)                                   # the worker meets its broker
        rng = random.Random(5)
        for n in range(args.rounds):
            tag = f"round{n}-{time.strftime('%H%M%S')}"
            pool = web.replies(svc, games[n * args.replies:(n + 1) * args.replies], rng, tag)
            before = spent(shape, svc.db.engine)
            posted, bare = web.alternate(shape.web_port, shape.bare_port, pool, slices=2)
            lags, rate, lost = web.applied(svc.db, tag)
            work.drain(svc.db.engine, args.redis_url)      # the round's emails go out
            cpu = per_reply(before, spent(shape, svc.db.engine), len(lags))
            print(f"round {n + 1}: {len(lags)} moves by reply at {rate:.1f}/s against the bare "
                  f"route's {bare.rate:,.0f} req/s: {rate / bare.rate:.3f}x"
                  + (f" ({lost} not applied)" if lost else "")
                  + f"; webhook p95 {p95(posted.times):.1f} ms against {p95(bare.times):.1f}"
                  + f"; CPU ms per reply: {cpu}", flush=True)


if __name__ == "__main__":
    main()
