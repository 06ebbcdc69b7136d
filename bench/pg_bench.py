"""`make bench BENCH_ARGS=--pg`: the production shape on this machine, loopback only —
PostgreSQL, Redis as the broker, gunicorn (4 workers) and a Celery worker sending to an SMTP
sink. Every figure beside its floor: the bare insert route on the same database (in process,
and under the same gunicorn), plain smtplib to the same sink. A figure and its floor take
turns in slices (why: docs/performance.md, "How to measure").

The database named by --pg-url (default: a scratch `turnpost_bench` database, created if
missing) has its tables DROPPED and recreated; the Redis database (default 15) is flushed."""
from __future__ import annotations

import http.client
import os
import random
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from sqlalchemy import create_engine, select, text, update
from sqlalchemy.engine import make_url

from bench import (
    PEOPLE,
    ROOT,
    BareRoute,
    LinkMoves,
    Row,
    StatementCounter,
    bot_move,
    interleaved,
    p50,
    p95,
    plain_smtplib_rate,
    queue_turn_emails,
    smtp_sink,
)
from service import play
from service.play.clock import ManualClock
from service.play.mail import relay
from service.store.migrate import upgrade
from service.store.models import Base, OutboxRow
from service.web import create_app

BIN = Path(sys.executable).parent


def create_database(url: str) -> None:
    """Create the scratch database if it is not there yet."""
    target = make_url(url)
    admin = create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        if not conn.scalar(text("SELECT 1 FROM pg_database WHERE datname = :n"),
                           {"n": target.database}):
            conn.execute(text(f'CREATE DATABASE "{target.database}"'))
    admin.dispose()


def fresh_database(url: str) -> None:
    """Create the scratch database if need be, and give it empty tables at the latest schema."""
    create_database(url)
    engine = create_engine(url)
    with engine.begin() as conn:
        Base.metadata.drop_all(conn)
        conn.execute(text("DROP TABLE IF EXISTS alembic_version, bench_floor"))
    engine.dispose()
    upgrade(url)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port}")


@contextmanager
def process(args: list[str], env: dict, ready_port: int | None = None):
    proc = subprocess.Popen(args, cwd=ROOT, env={**os.environ, **env},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        if ready_port:
            wait_port(ready_port)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def service_env(pg: str, redis: str, **more) -> dict:
    return {"TURNPOST_DATABASE_URL": pg, "TURNPOST_BROKER_URL": redis,
            "TURNPOST_SECRET_KEY": "bench-secret-long-enough-for-production", "TURNPOST_BASE_URL": "http://t.test",
            "TURNPOST_MAIL_DOMAIN": "t.test", **more}


# -- throughput under gunicorn ------------------------------------------------------------------

def warm_up(port: int, path: str, method: str = "POST", seconds: float = 20) -> None:
    """Until every gunicorn worker has booted and answered (booting is not throughput)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        fast = 0
        for _ in range(16):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            t0 = time.perf_counter()
            conn.request(method, path)
            conn.getresponse().read()
            conn.close()
            fast += time.perf_counter() - t0 < 0.2
        if fast == 16:
            return


def hammer(port: int, next_request, clients: int = 16, seconds: float = 8.0):
    """`clients` threads posting for `seconds`, or until next_request(client) -> path has
    none left (None): (seconds taken, each answered request's time)."""
    times: list[float] = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def client(n: int) -> None:
        while time.monotonic() < stop:
            path = next_request(n)
            if path is None:
                return                  # the links ran out before the time did
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            t0 = time.perf_counter()
            conn.request("POST", path)
            resp = conn.getresponse()
            resp.read()
            elapsed = time.perf_counter() - t0
            conn.close()
            if resp.status in (200, 409):     # 409: the client's own stale token, rarely
                with lock:
                    times.append(elapsed)

    started = time.monotonic()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.monotonic() - started, times


#: more links than 16 clients can post in the hammer's SLICES x SLICE seconds here (350 to
#: 440/s seen: 3,200 ran out before the last slice ended)
THROUGHPUT_MOVES = 4800


def links_to_post(svc, n: int) -> list[str]:
    """`n` move links, each the first move of its own new Trees game."""
    rng = random.Random(4)
    paths = []
    for _ in range(n):
        game = play.start_game(svc, "trees", PEOPLE[:2], {}).game_id
        paths.append(f"/m/{bot_move(svc, game, rng)}")
    return paths


#: the throughput hammer's slices: bare route and moves take turns, SLICES times SLICE seconds
#: each (why: docs/performance.md, "How to measure")
SLICES, SLICE = 4, 2.0


def throughput(pg: str, redis: str) -> list[Row]:
    bare_port, port = free_port(), free_port()
    gunicorn = [str(BIN / "gunicorn"), "--workers", "4", "--log-level", "warning"]
    app = create_app({**service_env(pg, redis), "TURNPOST_CHANCE": random.Random(4)})
    svc = app.extensions["turnpost"]
    svc.enqueue = play.services.run_nothing
    # the links are made before the clock starts, one per fresh game: a client that worked out
    # each next move while hammering would spend this machine's two cores on itself (the bare
    # route's clients do nothing between requests either)
    pool = links_to_post(svc, THROUGHPUT_MOVES)
    lock = threading.Lock()

    def next_move(_n: int):
        with lock:
            return pool.pop() if pool else None

    bare, moves = Hammered(), Hammered()
    with process([*gunicorn, "--pythonpath", "bench", "--bind", f"127.0.0.1:{bare_port}",
                  "bare_wsgi:app"], {"BENCH_DATABASE_URL": pg}, bare_port), \
            process([*gunicorn, "--bind", f"127.0.0.1:{port}", "service.web:create_app()"],
                    service_env(pg, redis), port):
        warm_up(bare_port, "/bare")
        warm_up(port, "/healthz", "GET")
        for _ in range(SLICES):
            bare.add(*hammer(bare_port, lambda _n: "/bare", seconds=SLICE))
            moves.add(*hammer(port, next_move, seconds=SLICE))
    svc.dispose()
    if not pool:
        print(f"throughput: all {THROUGHPUT_MOVES} links were posted before the time was up; "
              "the last slice measured fewer clients (raise THROUGHPUT_MOVES)", file=sys.stderr)
    return [Row("moves/s, gunicorn 4 workers, 16 clients (PG+Redis)", moves.rate, "req/s",
                bare.rate, 0.25, higher_is_better=True),
            Row("  its p95 vs its p50", p95(moves.times), "ms", p50(moves.times), 3),
            Row("  (bare route under the same gunicorn: p95 vs p50)", p95(bare.times), "ms",
                p50(bare.times))]


class Hammered:
    """The slices of one side of the throughput run, added up."""

    def __init__(self):
        self.seconds, self.times = 0.0, []

    def add(self, seconds: float, times: list[float]) -> None:
        self.seconds += seconds
        self.times += times

    @property
    def rate(self) -> float:
        return len(self.times) / self.seconds if self.seconds else 0.0


# -- a Celery worker sending to the sink ---------------------------------------------------------

class SinkTail:
    """The sink's log (arrival time, Message-ID a line) read as it grows: each `read` parses
    only the whole lines written since the last one. Re-reading the whole log every second
    while 10,000 emails arrived, bench-scale's fan-out driver spent 0.39 ms of CPU an email
    sent, on the two cores the workers it measures share; reading what is new, 0.25-0.28 ms,
    most of it publishing the fan-out's 5,000 tasks (2026-12-07)."""

    def __init__(self, log: Path, since: float = 0.0):
        self.log, self.since, self.offset = log, since, 0
        self.arrivals: dict[str, float] = {}

    def read(self) -> dict[str, float]:
        if not self.log.exists():
            return self.arrivals
        with open(self.log, "rb") as f:
            f.seek(self.offset)
            chunk = f.read()
        whole = chunk[:chunk.rfind(b"\n") + 1]     # a line being written waits for the next
        self.offset += len(whole)
        for line in whole.decode(errors="replace").splitlines():
            at, _, mid = line.partition(" ")
            if float(at) >= self.since:
                self.arrivals[mid.strip("<>").split("@")[0]] = float(at)
        return self.arrivals


def fanout(tmp: Path, pg: str, redis: str) -> list[Row]:
    import redis as redis_client
    broker = redis_client.Redis.from_url(redis)
    broker.flushdb()
    log = tmp / "pg-sink.log"
    app = create_app({**service_env(pg, redis), "TURNPOST_CHANCE": random.Random(5)})
    svc = app.extensions["turnpost"]
    celery_app = app.extensions["celery"]
    rows: list[Row] = []
    with smtp_sink(log) as smtp_port:
        worker_env = service_env(pg, redis, TURNPOST_MAIL_TRANSPORT="smtp",
                                 TURNPOST_SMTP_HOST="127.0.0.1", TURNPOST_SMTP_PORT=str(smtp_port))
        with process([str(BIN / "celery"), "-A", "workers.worker", "worker", "--concurrency=2",
                      "--loglevel=WARNING", "--without-gossip", "--without-mingle"], worker_env):
            time.sleep(4)                               # the worker connects to Redis
            set_aside_pending(svc)
            rate, floor = fanout_slices(svc, celery_app, broker, log, smtp_port)
            rows.append(Row("fan-out: Celery worker (2 processes) to the sink", rate,
                            "emails/s", floor, 0.6, higher_is_better=True))
            rows.append(burst(svc, celery_app, log, 80, 5))
    svc.dispose()
    return rows


#: the fan-out's slices: plain smtplib and the worker take turns, FANOUT_SLICES times
#: FANOUT_EMAILS emails each (why: docs/performance.md, "How to measure")
FANOUT_SLICES, FANOUT_EMAILS = 3, 100


def fanout_slices(svc, celery_app, broker, log: Path, smtp_port: int) -> tuple[float, float]:
    """Emails/s of the worker (queued as moves would, two rows a task, to the sink) and of
    plain smtplib sending the same emails already rendered, taking turns. `broker`: a Redis
    client of the worker's broker, to see its queue empty."""
    sent, worker_seconds, floor_seconds = 0, 0.0, 0.0
    for _ in range(FANOUT_SLICES):
        ids = queue_turn_emails(svc, FANOUT_EMAILS)
        with svc.db.transaction() as s:
            rows = [s.get(OutboxRow, i) for i in ids]
            samples = [relay.render(s, svc, row) for row in rows]
            mids = {row.message_id for row in rows}
        floor_seconds += len(samples) / plain_smtplib_rate(smtp_port, samples)
        t0 = time.time()
        for k in range(0, len(ids), 2):
            celery_app.send_task("workers.tasks.deliver_outbox", args=[ids[k:k + 2]])
        arrived = wait_arrivals(log, mids, 120, since=t0)
        if len(arrived) < len(mids):
            print(f"fan-out: {len(mids) - len(arrived)} emails did not arrive", file=sys.stderr)
        worker_seconds += (max(arrived.values()) - t0) if arrived else 120
        sent += len(ids)
        # the slice's tasks that found their rows sent may still be queued: they would take
        # the next slice's rows before its clock starts
        while broker.llen("celery"):
            time.sleep(0.05)
        time.sleep(0.5)
    return sent / worker_seconds, sent / floor_seconds


def wait_arrivals(log: Path, wanted: set[str], seconds: float,
                  since: float = 0.0) -> dict[str, float]:
    """Arrival times of the wanted Message-IDs after `since` (the floor's smtplib run sent
    the same messages before)."""
    tail = SinkTail(log, since)

    def got() -> dict[str, float]:
        return {m: at for m, at in tail.read().items() if m in wanted}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and len(got()) < len(wanted):
        time.sleep(0.2)
    return got()


def set_aside_pending(svc) -> None:
    """Rows the earlier figures left unsent (their moves' tasks were never run) are not the
    fan-out's: a worker filling its batches would send them first."""
    with svc.db.transaction() as s:
        s.execute(update(OutboxRow).where(OutboxRow.status == "pending")
                  .values(status="skipped"))


def burst(svc, celery_app, log: Path, per_second: int, seconds: int) -> Row:
    """Deliver tasks of two emails queued at `per_second` emails/s, as moves would queue them:
    each pair of rows becomes due only when its task is queued. Each email's time from its
    task's queueing to its arrival at the sink."""
    set_aside_pending(svc)
    # queued "in the far future", so that no worker (the fan-out's last tasks fill their
    # batches with whatever is due) sends them before their own task
    clock, svc.clock = svc.clock, ManualClock(datetime(2999, 1, 1, tzinfo=timezone.utc))
    try:
        ids = queue_turn_emails(svc, per_second * seconds)
    finally:
        svc.clock = clock
    with svc.db.transaction() as s:
        mids = {i: m for i, m in s.execute(select(OutboxRow.id, OutboxRow.message_id)
                                          .where(OutboxRow.id.in_(ids)))}
    queued_at: dict[str, float] = {}
    start = time.time()
    for k in range(0, len(ids), 2):
        wait = start + k / per_second - time.time()
        if wait > 0:
            time.sleep(wait)
        with svc.db.transaction() as s:        # the move's commit: its rows are due now
            s.execute(update(OutboxRow).where(OutboxRow.id.in_(ids[k:k + 2]))
                      .values(next_try=svc.clock.now()))
        now = time.time()
        for i in ids[k:k + 2]:
            queued_at[mids[i]] = now
        celery_app.send_task("workers.tasks.deliver_outbox", args=[ids[k:k + 2]])
    arrived = wait_arrivals(log, set(queued_at), 60, since=start)
    lags = sorted(arrived[m] - queued_at[m] for m in arrived)
    lost = len(queued_at) - len(arrived)
    value = lags[len(lags) // 2] if lags else float("inf")
    return Row(f"time to sink, p50, under {per_second} emails/s for {seconds} s"
               + (f" ({lost} not arrived)" if lost else ""), value, "s", target=2)


# -- one move, in process ------------------------------------------------------------------------

def moves_in_process(tmp: Path, pg: str, redis: str) -> list[Row]:
    """Moves by link and the floor's bare route taking turns (bench.interleaved)."""
    floor = BareRoute(pg)
    app = create_app({**service_env(pg, redis), "TURNPOST_MAILDIR": str(tmp / "pg-outbox"),
                      "TURNPOST_CHANCE": random.Random(1)})
    moves = LinkMoves(app, StatementCounter(app.extensions["turnpost"].db.engine))
    for _ in range(10):             # the first moves import, connect and compile
        moves.time_one()
    moves.statements.clear()
    bare, times = interleaved(floor, moves, n=100)
    app.extensions["turnpost"].dispose()
    floor.close()
    return [Row("move by link, p50 (PostgreSQL + broker)", p50(times), "ms", p50(bare), 3),
            Row("  SQL statements, an ordinary move (max)", max(moves.statements),
                "stmts", target=15),
            Row("  a game-ending move (mails both seats, rates the game)",
                max(moves.ending_statements, default=0), "stmts")]


def postgres(tmp: Path, pg: str, redis: str) -> list[Row]:
    try:
        fresh_database(pg)
    except Exception as exc:  # noqa: BLE001 - no PostgreSQL here: say so in the table
        print(f"PostgreSQL figures not measured: {type(exc).__name__}: {exc}")
        return []
    rows = moves_in_process(tmp, pg, redis)
    rows += throughput(pg, redis)
    rows += fanout(tmp, pg, redis)
    return rows
