"""The clock sweep split in shards across Celery worker processes: 10,000 timeouts due at once
on PostgreSQL, handled by 1, 2 and 4 worker processes (Redis as the broker), timed from beat's
task sent to the last due seat handled. Figures only, never asserted.

    .venv/bin/python bench/sweep_shards.py [--due 10000] [--workers 1,2,4] [--shards 8]
        [--url postgresql+psycopg://postgres@127.0.0.1:5432/turnpost_bench]
        [--redis redis://127.0.0.1:6379/15]

The database's tables are DROPPED and recreated for each run, and the Redis database emptied.
The due games are real Trees games on a 1-day clock, started two days ago: 50 started through
the use case, then copied (their game, seat and event rows, with new ids) up to `--due`, in
bulk. The workers are one `celery worker --concurrency=N` (prefork) each run, started and ready
before the clock starts; beat's task (workers.tasks.sweep_timers) is then sent once, and hands
out one workers.tasks.sweep_shard job per shard. The timeouts' emails are left in the queue
behind the shards (they are the fan-out's figure, not the sweep's)."""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from celery import Celery  # noqa: E402
from pg_bench import fresh_database  # noqa: E402
from sqlalchemy import create_engine, func, insert, select, text  # noqa: E402

from config import Settings  # noqa: E402
from service import play  # noqa: E402
from service.play.clock import ManualClock  # noqa: E402
from service.store.models import EventRow, GameRow, Seat, Submission  # noqa: E402

TEMPLATES = 50
SECRET = "bench-secret-long-enough-for-production-settings"


def seed(url: str, due: int, tmp: Path) -> float:
    """`due` games whose first player's deadline passed a day ago; seconds it took."""
    t0 = time.perf_counter()
    svc = play.from_settings(Settings().as_flask() | {
        "TURNPOST_DATABASE_URL": url, "TURNPOST_MAILDIR": str(tmp / "seed"),
        "TURNPOST_AUTO_VACATION": False},
        clock=ManualClock(datetime.now(timezone.utc) - timedelta(days=2)),
        chance=random.Random(7))
    templates = [play.start_game(svc, "trees", [f"P{n}a <p{n}a@example.org>",
                                                f"P{n}b <p{n}b@example.org>"],
                                 {"clock": "1d"}).game_id for n in range(TEMPLATES)]
    with svc.db.transaction() as s:
        games = {g.id: g for g in s.execute(select(GameRow.__table__).where(
            GameRow.id.in_(templates))).all()}
        seats = s.execute(select(Seat.__table__).where(Seat.game_id.in_(templates))).all()
        events = s.execute(select(EventRow.__table__).where(
            EventRow.game_id.in_(templates))).all()
        next_id = max(templates) + 1
        new_games, new_seats, new_events = [], [], []
        for n in range(due - TEMPLATES):
            source, game_id = templates[n % TEMPLATES], next_id + n
            new_games.append(dict(games[source]._mapping, id=game_id,
                                  public_id=f"bench{game_id:011d}"))
            new_seats += [dict(r._mapping, game_id=game_id) for r in seats
                          if r.game_id == source]
            new_events += [dict(r._mapping, game_id=game_id) for r in events
                           if r.game_id == source]
        for table, rows in ((GameRow, new_games), (Seat, new_seats), (EventRow, new_events)):
            for start in range(0, len(rows), 5000):
                s.execute(insert(table.__table__), rows[start:start + 5000])
        if s.bind.dialect.name == "postgresql":     # the copies took ids the sequence gave none
            s.execute(text("SELECT setval('games_id_seq', (SELECT max(id) FROM games))"))
    svc.dispose()
    return time.perf_counter() - t0


def due_now(engine) -> int:
    with engine.connect() as c:
        return c.scalar(select(func.count()).select_from(Seat).where(
            Seat.deadline <= datetime.now(timezone.utc)))


def handled(engine) -> int:
    with engine.connect() as c:
        return c.scalar(select(func.count()).select_from(Submission).where(
            Submission.source == "timer"))


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its children (the prefork pool), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(c) for c in children]
    except OSError:
        pass
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def backends(engine) -> dict[int, float]:
    """CPU seconds of this database's PostgreSQL backends (the server does a share of each
    timeout: on this machine it runs on the same cores as the workers)."""
    with engine.connect() as c:
        pids = c.scalars(text("SELECT pid FROM pg_stat_activity WHERE datname = "
                              "current_database() AND pid <> pg_backend_pid()")).all()
    return {pid: cpu_seconds(pid) for pid in pids}


def start_workers(url: str, redis: str, n: int, shards: int, tmp: Path) -> subprocess.Popen:
    env = dict(os.environ, TURNPOST_DATABASE_URL=url, TURNPOST_BROKER_URL=redis,
               TURNPOST_SECRET_KEY=SECRET, TURNPOST_MAILDIR=str(tmp / "out"),
               TURNPOST_BASE_URL="http://turnpost.test", TURNPOST_AUTO_VACATION="false",
               TURNPOST_SWEEP_SHARDS=str(shards))
    log = open(tmp / f"worker-{n}.log", "w")
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "workers.worker", "worker", "--pool=prefork",
         f"--concurrency={n}", "--loglevel=INFO", "--without-gossip", "--without-mingle",
         "--without-heartbeat"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 120
    while "ready." not in (tmp / f"worker-{n}.log").read_text():
        if time.monotonic() > deadline or worker.poll() is not None:
            raise SystemExit(f"the worker did not start: see {tmp / f'worker-{n}.log'}")
        time.sleep(0.2)
    return worker


def one_run(url: str, redis: str, due: int, workers: int, shards: int, tmp: Path) -> dict:
    import redis as redis_client
    fresh_database(url)
    redis_client.Redis.from_url(redis).flushdb()
    seeded = seed(url, due, tmp)
    engine = create_engine(url)
    assert due_now(engine) == due, due_now(engine)
    worker = start_workers(url, redis, workers, shards, tmp)
    sender = Celery(broker=redis)
    try:
        server0 = backends(engine)
        cpu0, t0 = cpu_seconds(worker.pid), time.perf_counter()
        sender.send_task("workers.tasks.sweep_timers")     # what beat sends
        while due_now(engine):
            time.sleep(0.1)
        took = time.perf_counter() - t0
        cpu = cpu_seconds(worker.pid) - cpu0
        server = sum(v - server0.get(pid, 0.0) for pid, v in backends(engine).items())
        timed_out = handled(engine)
    finally:
        sender.close()
        worker.terminate()
        try:
            worker.wait(60)
        except subprocess.TimeoutExpired:
            worker.kill()
        redis_client.Redis.from_url(redis).flushdb()    # the emails' jobs, never sent
        engine.dispose()
    return {"workers": workers, "seconds": took, "timed_out": timed_out, "seeded": seeded,
            "cpu": cpu, "server": server}


def median_run(runs: list[dict]) -> dict:
    return sorted(runs, key=lambda r: r["seconds"])[len(runs) // 2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--due", type=int, default=10_000)
    ap.add_argument("--workers", default="1,2,4")
    ap.add_argument("--shards", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=3, help="runs of each worker count, taken "
                    "in turns (other work on the machine slows some): the median is shown")
    ap.add_argument("--url", default=os.environ.get(
        "TURNPOST_BENCH_DATABASE_URL",
        "postgresql+psycopg://postgres@127.0.0.1:5432/turnpost_bench"))
    ap.add_argument("--redis", default=os.environ.get("TURNPOST_BENCH_REDIS_URL",
                                                      "redis://127.0.0.1:6379/15"))
    args = ap.parse_args()
    counts = [int(w) for w in args.workers.split(",")]
    runs: dict[int, list[dict]] = {n: [] for n in counts}
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
        for round_ in range(args.rounds):
            for n in counts:
                where = Path(tmp) / f"r{round_}w{n}"
                where.mkdir()
                r = one_run(args.url, args.redis, args.due, n, args.shards, where)
                runs[n].append(r)
                print(f"{n} worker process(es): {r['timed_out']:,} timeouts in "
                      f"{r['seconds']:.1f} s, {r['cpu']:.1f} s of their CPU, "
                      f"{r['server']:.1f} s of PostgreSQL's "
                      f"(seeded in {r['seeded']:.1f} s)", flush=True)
    rows = [median_run(runs[n]) for n in counts]
    base = rows[0]["timed_out"] / rows[0]["seconds"]
    print(f"\n{args.due:,} timeouts due at once, {args.shards} shards, PostgreSQL, median of "
          f"{args.rounds} (seconds: min-max); load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores")
    print(f"{'workers':>7}  {'seconds':>15}  {'timeouts/s':>10}  {'vs 1 worker':>11}  "
          f"{'workers CPU s':>13}  {'PostgreSQL CPU s':>16}")
    for n, r in zip(counts, rows, strict=True):
        rate = r["timed_out"] / r["seconds"]
        spread = [x["seconds"] for x in runs[n]]
        took = f"{r['seconds']:.1f} ({min(spread):.1f}-{max(spread):.1f})"
        print(f"{n:>7}  {took:>15}  {rate:>10.0f}  {rate / base:>10.2f}x"
              f"  {r['cpu']:>13.1f}  {r['server']:>16.1f}")
    print("target: 10,000 within 60 s of falling due with 4 workers; twice the workers near "
          "twice the rate")


if __name__ == "__main__":
    main()
