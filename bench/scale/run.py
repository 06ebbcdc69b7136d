"""`make bench-scale`: the service at the size of the big correspondence servers. A PostgreSQL
database seeded with 1,000,000 games (100,000 in progress, 200,000 players, 100 of them at
1,000 games each: bench/scale/seed.py), then the production shape on this machine (gunicorn
with 4 workers, Celery with 4 processes, beat, an SMTP sink: bench/scale/stack.py) and every
figure beside its floor, as a ratio, with its target, in one table like `make bench`'s.

    .venv/bin/python bench/scale/run.py [--url URL] [--redis-url URL] [--reseed]
                                        [--seed-minutes 30] [--record]
                                        [--only links,replies,me,sweep,fanout,memory,pools]

--only runs the named phases alone, in the run's order, on the same seed and stack (a whole
run takes about 26 minutes; one phase a minute or two, to measure a change before and after):
`links` moves by link beside the bare route, `replies` the webhook then the workers (with the
workers' CPU per reply applied and the web's per reply received), `me` /me at 1,000 games,
`sweep` 10,000 deadlines due at once then an hour's moves and the bytes they took, `fanout`
10,000 emails (with the workers' CPU per email sent), `memory` each process's RSS, `pools`
the sweep with 1, 2 and 4 worker processes. A phase that uses another's figure as its floor
(the sweep: the link rate; the bytes: the bare route's) prints it without one when that
phase did not run. Not with --record: the table recorded is the whole run's.

The database (--url, default TURNPOST_SCALE_DATABASE_URL) is the bench's to fill: its tables
are dropped and recreated on the first run or with --reseed; a seed cut short by its time
budget goes on at the next run; a complete one is reused. The Redis database (--redis-url,
default TURNPOST_SCALE_REDIS_URL) is flushed. Prints; never asserts."""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

import redis
from sqlalchemy import text

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE.parents[1])]

from pg_bench import warm_up  # noqa: E402

from bench import machine, p50, p95, smtp_sink  # noqa: E402
from scale import seed, web, work  # noqa: E402
from scale.stack import SWEEP_SECONDS, Stack  # noqa: E402
from scale.table import Figure, render  # noqa: E402
from service import play  # noqa: E402
from service.web import create_app  # noqa: E402

DUE = 10_000            # deadlines falling due at once
FANOUT = 10_000         # emails handed to the workers at once
LINKS, REPLIES, PACED = 2_000, 1_500, 400
#: the phases, in the order a run takes them (--only picks some)
PHASES = ("links", "replies", "me", "sweep", "fanout", "memory", "pools")
#: an hour of the seeded server: 100,000 games in progress, each moving about twice a day
HOUR_MOVES = seed.IN_PROGRESS * 2 // 24
#: the worker's process counts the sweep is measured with: twice the processes should come
#: near twice the rate (issue 39), 0.8x of it is the target
SWEEP_POOLS = (1, 2, 4)


def regions(in_progress: int) -> dict[str, tuple[int, int]]:
    """Disjoint ranges of game ids in progress for each figure (the heavy players' games,
    ids up to 10,000, are left to /me). The sweep's holds four sweeps of DUE (about 92 % of
    the games in progress have a seat with a deadline)."""
    lo = seed.HEAVY * seed.HEAVY_ACTIVE + 1 if in_progress > 20_000 else 1
    span = in_progress - lo + 1
    out, at = {}, lo
    for name, share in (("links", 0.1), ("replies", 0.1), ("sweep", 0.55), ("hour", 0.25)):
        size = int(span * share)
        out[name] = (at, at + size - 1)
        at += size
    return out


def sample(lo: int, hi: int, n: int) -> list[int]:
    ids = list(range(lo, hi + 1))
    random.Random(lo).shuffle(ids)
    return ids[:n]


def db_bytes(svc, table: str | None = None) -> int:
    with svc.db.engine.connect() as conn:
        if table:
            return conn.scalar(text("SELECT pg_total_relation_size(:t)"), {"t": table}) or 0
        return conn.scalar(text("SELECT pg_database_size(current_database())"))


class Bench:
    def __init__(self, args, tmp: Path, progress: seed.Progress):
        self.args, self.tmp, self.progress = args, tmp, progress
        self.rows: list[Figure] = []
        self.moves = 0
        self.rng = random.Random(5)
        self.in_progress = min(progress.done, seed.IN_PROGRESS)
        self.regions = regions(self.in_progress)
        self.phases = set(args.only)
        # the floors one phase lends another (None: that phase did not run)
        self.link_rate: float | None = None
        self.floor_bytes: float | None = None
        self.sweep_row: int | None = None   # where the sweep's row is (the pools' go under it)

    def say(self, text: str) -> None:
        print(f"scale bench: {text}", flush=True)

    def run(self) -> list[Figure]:
        self.seed_rows()
        with ExitStack() as stack:
            sink_log = self.tmp / "sink.log"
            sink_port = stack.enter_context(smtp_sink(sink_log))
            redis.Redis.from_url(self.args.redis_url).flushdb()
            self.stack = Stack(self.args.url, self.args.redis_url, self.tmp)
            self.stack.start(stack, sink_port)
            app = create_app({**self.stack.env(), "TURNPOST_CHANCE": random.Random(4)})
            self.app, self.svc = app, app.extensions["turnpost"]
            self.svc.enqueue = play.services.run_nothing
            stack.callback(self.svc.dispose)
            warm_up(self.stack.bare_port, "/bare")
            warm_up(self.stack.web_port, "/healthz", "GET")
            time.sleep(3)                                   # the worker meets its broker
            before = db_bytes(self.svc)
            if "links" in self.phases:
                self.by_link()
                self.drain()
            if "replies" in self.phases:
                self.by_reply()
            if "me" in self.phases:
                self.drain()        # the replies' emails are not /me's: a page timed alone
                self.me()
            if "sweep" in self.phases:
                self.drain()
                moves_before, t0 = self.moves, time.monotonic()
                self.sweep()
                self.hour()
                drained = self.drain()
                self.add(Figure(f"  {self.moves - moves_before:,} moves (the timeouts, then "
                                "links): done, their emails sent, after", time.monotonic() - t0,
                                "s", target=3600, absolute=True))
                self.say(f"(of which the emails' queue drained in the last {drained:.0f} s)")
                grown = db_bytes(self.svc) - before
                self.add(Figure(f"database bytes per 1,000 moves ({self.moves:,} moves)",
                                grown / max(1, self.moves) * 1000 / 1024, "KB",
                                self.floor_bytes, target=1000, absolute=True))
            if "fanout" in self.phases:
                self.drain()
                self.fanout(app.extensions["celery"], sink_log, sink_port)
            if "memory" in self.phases:
                self.memory()
            if "pools" in self.phases:
                self.sweep_pools()
        return self.rows

    def add(self, *figures: Figure) -> None:
        for f in figures:
            self.rows.append(f)
            ratio = "" if f.ratio is None else f", {f.ratio:.2f}x its floor"
            self.say(f"{f.figure.strip()}: {f.value:,.2f} {f.unit}{ratio}")

    def drain(self, seconds: float = 900) -> float:
        """Wait until the workers' queue is empty and no email is due or being sent (a
        figure's emails are not the next's)."""
        took = work.drain(self.svc.db.engine, self.args.redis_url, seconds)
        self.say(f"the workers' queue and the due emails drained in {took:.0f} s")
        return took

    def seed_rows(self) -> None:
        p = self.progress
        self.add(*[
            Figure("games seeded (in progress: ids to 100,000)", p.done, "games",
                   target=seed.GAMES, higher_is_better=True, absolute=True),
            Figure("  seeding rate (COPY, then the indexes; all runs)",
                   p.done / max(p.seconds, 1e-3), "games/s"),
            Figure("  seeding rate, rows", p.rows / max(p.seconds, 1e-3), "rows/s"),
            Figure("  database size per game seeded", p.bytes / max(1, p.done) / 1024, "KB")])

    def by_link(self) -> None:
        lo, hi = self.regions["links"]
        pool = web.links(self.svc, sample(lo, hi, LINKS), self.rng)
        self.say(f"{len(pool):,} move links minted")
        floor_before = db_bytes(self.svc, "bench_floor")
        web_cpu, worker_cpu = self.stack.cpu("web"), self.stack.cpu("worker")
        moves, bare = web.alternate(self.stack.web_port, self.stack.bare_port, pool)
        web_cpu = self.stack.cpu("web") - web_cpu
        self.floor_bytes = ((db_bytes(self.svc, "bench_floor") - floor_before)
                            / max(1, len(bare.times)) * 1000 / 1024)
        self.drain()                        # the moves' emails are part of their cost
        worker_cpu = self.stack.cpu("worker") - worker_cpu
        self.moves += len(moves.times)
        self.link_rate = moves.rate
        self.add(*[
            Figure(f"moves by link/s, {web.CLIENTS} clients (cold games)", moves.rate, "req/s",
                   bare.rate, 0.25, higher_is_better=True),
            Figure("  move by link, p95 vs the bare route's", p95(moves.times), "ms",
                   p95(bare.times), 5),
            Figure("  move by link, p50 vs the bare route's", p50(moves.times), "ms",
                   p50(bare.times), 3),
            # where a move's CPU goes (the rest is PostgreSQL's and the clients'): what the
            # rate is made of on a machine whose cores are all busy
            Figure("  web's CPU per move by link (gunicorn's 4 workers)",
                   web_cpu / max(1, len(moves.times)) * 1000, "ms"),
            Figure("  workers' CPU per move by link (its emails sent)",
                   worker_cpu / max(1, len(moves.times)) * 1000, "ms")])

    def by_reply(self) -> None:
        lo, hi = self.regions["replies"]
        ids = sample(lo, hi, REPLIES + PACED)
        tag = time.strftime("%H%M%S")
        pool = web.replies(self.svc, ids[:REPLIES], self.rng, f"burst{tag}")
        self.say(f"{len(pool):,} replies written")
        worker_cpu, web_cpu = self.stack.cpu("worker"), self.stack.cpu("web")
        posted, bare = web.alternate(self.stack.web_port, self.stack.bare_port, pool, slices=2)
        web_cpu = self.stack.cpu("web") - web_cpu
        lags, rate, lost = web.applied(self.svc.db, f"burst{tag}")
        # the replies' emails (the answer, the next turn) are part of their cost
        self.drain()
        worker_cpu = self.stack.cpu("worker") - worker_cpu
        self.moves += len(lags)
        self.add(*[
            Figure("moves by reply/s: webhook, then 4 worker processes apply"
                   + (f" ({lost} not applied)" if lost else ""), rate, "moves/s", bare.rate,
                   # issue 53's target: a reply's two emails alone cost about 10 ms of CPU,
                   # so a quarter of a bare route's rate is out of reach on any machine
                   0.12, higher_is_better=True),
            Figure("  reply webhook (POST /inbound/raw), p95 vs bare", p95(posted.times), "ms",
                   p95(bare.times), 5),
            # CPU time, all of each group's processes (native code too): steadier than a
            # rate on a machine others share, and what a server's cores are sized by
            Figure("  workers' CPU per reply applied (with its emails sent)",
                   worker_cpu / max(1, len(lags)) * 1000, "ms", target=15, absolute=True),
            Figure("  web's CPU per reply received (gunicorn's 4 workers)",
                   web_cpu / max(1, len(posted.times)) * 1000, "ms", target=5,
                   absolute=True)])
        pool = web.replies(self.svc, ids[REPLIES:], self.rng, f"paced{tag}")
        pace = max(1.0, rate / 2)
        web.paced(self.stack.web_port, pool, pace, 15)
        lags, _, lost = web.applied(self.svc.db, f"paced{tag}")
        self.moves += len(lags)
        self.add(Figure(f"  reply stored to applied, p95, at {pace:.0f}/s (half the "
                                "rate)", p95(lags) / 1000 if lags else float("inf"), "s",
                                target=2, absolute=True))

    def me(self) -> None:
        cookie = web.session_cookie(self.app, 1)
        me, bare = web.me_page(self.stack.web_port, self.stack.bare_port, cookie)
        self.add(Figure("/me of a player with 1,000 games, p50 vs bare", p50(me), "ms",
                                p50(bare), 10))

    def sweep(self) -> None:
        lo, hi = self.sweep_parts()[0]
        due, count = work.make_due(self.args.url, lo, hi, DUE)
        self.say(f"{count:,} deadlines due at {due:%H:%M:%S}; beat sweeps every "
                 f"{SWEEP_SECONDS} s")
        seconds, done, _ = work.handled(self.args.url, due, say=self.say)
        self.moves += done
        self.sweep_row = len(self.rows)
        self.add(Figure(
            f"sweep: {count:,} deadlines due at once, all handled after"
            + ("" if done >= count else f" ({count - done:,} NOT handled)"),
            seconds, "s", count / self.link_rate if self.link_rate else None, 60,
            absolute=True))

    def sweep_parts(self) -> list[tuple[int, int]]:
        """The sweep's region in as many parts as sweeps: the one through the whole stack,
        then one for each pool size (SWEEP_POOLS)."""
        lo, hi = self.regions["sweep"]
        size = (hi - lo + 1) // (1 + len(SWEEP_POOLS))
        return [(lo + k * size, lo + (k + 1) * size - 1) for k in range(1 + len(SWEEP_POOLS))]

    def sweep_pools(self) -> None:
        """The same sweep (DUE deadlines at once, other games' in its part) handled by a
        worker of 1, 2 and 4 processes: timeouts/s from the first handled to the last (beat's
        wait before its pass left out), beside the 1-process rate."""
        one = None
        at = len(self.rows) if self.sweep_row is None else self.sweep_row + 1
        for pool, (lo, hi) in zip(SWEEP_POOLS, self.sweep_parts()[1:]):
            self.stack.start_worker(pool)
            self.set_aside()
            time.sleep(3)                                   # the worker meets its broker
            due, count = work.make_due(self.args.url, lo, hi, DUE)
            seconds, done, first = work.handled(self.args.url, due, say=self.say)
            rate = done / max(seconds - first, 0.5)
            one = one or rate
            self.add(Figure(
                f"  sweep of {count:,} due, {pool} worker process{'es' if pool > 1 else ''}"
                + ("" if done >= count else f" ({count - done:,} NOT handled)"),
                rate, "timeouts/s", None if pool == 1 else one,
                None if pool == 1 else pool * 0.8, higher_is_better=True))
            self.rows.insert(at, self.rows.pop())           # shown under the sweep's row
            at += 1

    def set_aside(self) -> None:
        """The emails the last figure left unsent are not the next one's to send: set aside
        (skipped) with their tasks, rather than waited for."""
        with self.svc.db.engine.begin() as conn:
            conn.execute(text("UPDATE outbox SET status = 'skipped' "
                              "WHERE status IN ('pending', 'sending', 'held')"))
        redis.Redis.from_url(self.args.redis_url).delete("celery")

    def hour(self) -> None:
        """Link moves until the run has made an hour's worth (HOUR_MOVES)."""
        missing = HOUR_MOVES - self.moves
        if missing <= 0:
            return
        lo, hi = self.regions["hour"]
        pool = web.links(self.svc, sample(lo, hi, missing), self.rng)
        self.say(f"{len(pool):,} more move links, to make an hour's {HOUR_MOVES:,} moves")
        driven = web.Driven()
        web.drive(self.stack.web_port, web.take(pool), driven, 3600)
        self.moves += len(driven.times)

    def fanout(self, celery_app, log: Path, sink_port: int) -> None:
        lo, hi = self.regions["hour"]
        queued = work.queue_fanout(self.svc, lo, hi, FANOUT)
        floor = work.smtplib_floor(self.svc, list(queued.values())[:300], sink_port)
        worker_cpu = self.stack.cpu("worker")
        rate, arrived = work.fanout(self.svc, celery_app, queued, log)
        worker_cpu = self.stack.cpu("worker") - worker_cpu
        self.add(Figure(f"fan-out of {len(queued):,} emails, 4 worker processes"
                                + ("" if arrived >= len(queued) else
                                   f" ({len(queued) - arrived:,} NOT arrived)"),
                                rate, "emails/s", floor, 0.6, higher_is_better=True),
                 Figure("  workers' CPU per email sent (render, claim, send, mark)",
                        worker_cpu / max(1, arrived) * 1000, "ms", 1000 / floor if floor else None))

    def memory(self) -> None:
        rss = self.stack.rss()
        floor = statistics.median(rss.get("bare children", [0.0])) or None
        for role, label in (("web children", "web worker (largest of 4)"),
                            ("web master", "gunicorn master"),
                            ("worker children", "Celery pool process (largest of 4)"),
                            ("worker master", "Celery worker's main process"),
                            ("beat master", "beat")):
            if role in rss:
                self.add(Figure(f"RSS after {self.moves:,} moves: {label}",
                                        max(rss[role]), "MB", floor, 4))


def phases(text: str) -> tuple[str, ...]:
    """--only's value: known phase names, comma separated."""
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    unknown = [n for n in names if n not in PHASES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"phases are {', '.join(PHASES)}; not {unknown}")
    return names


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", help="a PostgreSQL database the bench may fill (default: "
                    "TURNPOST_SCALE_DATABASE_URL)", default=os.environ.get(
        "TURNPOST_SCALE_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/turnpost_scale"))
    ap.add_argument("--redis-url", default=os.environ.get("TURNPOST_SCALE_REDIS_URL",
                                                          "redis://127.0.0.1:6379/14"))
    ap.add_argument("--reseed", action="store_true", help="drop the seeded database and seed "
                    "it again")
    ap.add_argument("--seed-minutes", type=float, default=30.0, help="at most this long "
                    "copying games in this run (the rest at the next; a fresh seed takes "
                    "10 to 15 minutes here)")
    ap.add_argument("--record", action="store_true", help="write the table to bench/SCALE.md")
    ap.add_argument("--only", type=phases, default=PHASES, help="these phases alone, comma "
                    f"separated ({','.join(PHASES)}; default all)")
    args = ap.parse_args()
    if args.record and set(args.only) != set(PHASES):
        ap.error("--record writes the whole run's table: not with --only")
    started = time.perf_counter()
    cache = HERE.parents[1] / "var" / "scale-templates.pickle"
    progress = seed.ensure(args.url, reseed=args.reseed, budget=args.seed_minutes * 60,
                           cache=cache, say=print)
    seed.rebase(args.url)
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
        rows = Bench(args, Path(tmp), progress).run()
    text = render(rows)
    print()
    print(text)
    took = time.perf_counter() - started
    load = "load average {:.1f} {:.1f} {:.1f}".format(*os.getloadavg())
    print(f"\n{len(rows)} figures in {took:.0f} s; {load} (other work on this machine "
          "slows every figure, the floors too)")
    if args.record:
        record(text, took, load)


def record(text: str, took: float, load: str) -> None:
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    out = HERE.parent / "SCALE.md"
    notes = out.read_text().split("<!-- notes -->", 1)[1] if out.exists() and \
        "<!-- notes -->" in out.read_text() else "\n"
    out.write_text(f"# Last `make bench-scale` run\n\n{when} on {machine()}, {took:.0f} s, "
                   f"{load} at the end.\n\n```\n{text}\n```\n\n<!-- notes -->{notes}")


if __name__ == "__main__":
    main()
