"""`make bench`: the service's figures in ONE table, each beside the floor this machine reaches
for the same work, the ratio, the target and whether it is met; and the clock sweep (1,000
timeouts among 100,000 games) beside one move request. Prints; never asserts.

    .venv/bin/python bench/bench.py            # the embedded default (SQLite, in process)
    .venv/bin/python bench/bench.py --pg       # + PostgreSQL, Redis and real workers

Floors: the plain floor, a bare Flask app on its own `create_engine` doing one SQLAlchemy Core
INSERT and COMMIT on a database file (or database) of its own (bare_app); plain smtplib (one connection) to the same aiosmtpd sink process.
The --pg run DROPS AND RECREATES the tables of the database it is given (default: this
machine's scratch `test` database) and flushes the Redis database it is given."""
from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import me_bench  # noqa: E402
import sweep_bench  # noqa: E402
from flask import Flask  # noqa: E402
from sqlalchemy import Column, DateTime, Integer, MetaData, Table, create_engine, event, insert  # noqa: E402
from sqlalchemy.engine import Engine  # noqa: E402

from service import play  # noqa: E402
from service.linking import freshness  # noqa: E402
from service.play import notify, repository  # noqa: E402
from service.play.mail import relay  # noqa: E402
from service.store import eventstore  # noqa: E402
from service.store.migrate import upgrade  # noqa: E402
from service.web import create_app  # noqa: E402

PEOPLE = ["anna@example.org", "ben@example.org", "cleo@example.org"]


# -- the table -----------------------------------------------------------------------------

@dataclass
class Row:
    figure: str
    value: float
    unit: str
    floor: float | None = None     # the same work done bare on this machine
    target: float | None = None    # the ratio asked for (or the value, when no floor)
    higher_is_better: bool = False

    @property
    def ratio(self) -> float | None:
        if self.floor is None:
            return None
        return self.value / self.floor if self.floor else float("inf")

    @property
    def met(self) -> str:
        if self.target is None:
            return ""
        got = self.ratio if self.floor is not None else self.value
        ok = got >= self.target if self.higher_is_better else got <= self.target
        return "yes" if ok else "NO"


def fmt(x: float | None) -> str:
    if x is None:
        return "-"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    return f"{x:.2f}" if abs(x) < 10 else f"{x:.1f}"


def print_table(rows: list[Row]) -> str:
    head = ("figure", "value", "unit", "floor", "ratio", "target", "met")
    body = []
    for r in rows:
        target = "-" if r.target is None else ((">= " if r.higher_is_better else "<= ")
                                               + fmt(r.target) + ("x" if r.floor is not None else ""))
        body.append((r.figure, fmt(r.value), r.unit, fmt(r.floor),
                     "-" if r.ratio is None else fmt(r.ratio) + "x", target, r.met))
    widths = [max(len(str(c[i])) for c in [head, *body]) for i in range(len(head))]
    lines = ["  ".join(str(c).ljust(w) if i in (0, 2) else str(c).rjust(w)
                       for i, (c, w) in enumerate(zip(cells, widths)))
             for cells in [head, *body]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    text = "\n".join(lines)
    print(text, flush=True)
    return text


def p50(xs: list[float]) -> float:
    return statistics.median(xs) * 1000


def p95(xs: list[float]) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(len(s) * 0.95))] * 1000


# -- counting SQL statements -----------------------------------------------------------------

class StatementCounter:
    """SQL statements sent by this thread (the request's), one per cursor execute."""

    def __init__(self, engine):
        self.count = 0
        self.thread = None
        event.listen(engine, "before_cursor_execute", self._seen)

    def _seen(self, *_args):
        if self.thread == threading.get_ident():
            self.count += 1

    @contextmanager
    def counting(self):
        self.count, self.thread = 0, threading.get_ident()
        try:
            yield self
        finally:
            self.thread = None


# -- the floor: a bare insert route -----------------------------------------------------------

def bare_app(url: str) -> tuple[Flask, Engine]:
    """The plain floor (issue 53): the cheapest insert route a web developer would write, not
    the project's own plumbing. A bare Flask app on its own `create_engine` (no pre-ping, no
    `Database` wrapper, no ORM session, no BEGIN IMMEDIATE), one Core INSERT and one COMMIT
    on a pooled connection. On SQLite its one setting is the journal the service runs on
    too, WAL, at SQLite's default sync: its default rollback journal made the same insert
    about twice as slow (docs/performance.md), and `synchronous=NORMAL` would buy speed with
    commits a power cut may lose, which the service does not give up."""
    meta = MetaData()
    floor = Table("bench_floor", meta, Column("id", Integer, primary_key=True),
                  Column("at", DateTime))
    engine = create_engine(url)
    if url.startswith("sqlite"):
        event.listen(engine, "connect", _write_ahead_log)
    meta.create_all(engine)
    app = Flask("bare")

    @app.post("/bare")
    def bare():
        with engine.begin() as conn:
            conn.execute(insert(floor).values(at=None))
        return "ok"

    return app, engine


def _write_ahead_log(dbapi_conn, _record) -> None:
    dbapi_conn.execute("PRAGMA journal_mode=WAL")


class BareRoute:
    """The floor, one timed request at a time: POST /bare on its own app and database
    handle (the first requests, which import and connect, are not timed)."""

    def __init__(self, url: str, warm: int = 20):
        self.app, self.engine = bare_app(url)
        self.client = self.app.test_client()
        self.cpu: list[float] = []      # each timed request's CPU time (this thread's)
        for _ in range(warm):
            self.client.post("/bare")

    def time_one(self) -> float:
        t0, c0 = time.perf_counter(), time.thread_time()
        self.client.post("/bare")
        self.cpu.append(time.thread_time() - c0)
        return time.perf_counter() - t0

    def close(self) -> None:
        self.engine.dispose()


# -- moves by link ------------------------------------------------------------------------------

def bot_move(svc, game_id: int, rng: random.Random):
    with svc.db.transaction() as s:
        pos = repository.load(s, svc.states, game_id)
    if pos.engine.outcome(pos.state) is not None:
        return None
    seat = min(pos.engine.to_act(pos.state))
    move = pos.engine.bots["easy"](pos.state, seat, rng)
    token = svc.urls.signer.dumps("move", play_claims(game_id, seat,
                                                     freshness.mark(pos.engine, pos.state, seat), move))
    return token


def play_claims(game_id, seat, mark, move):
    from service.linking.signer import Claims
    return Claims(game_id, seat, mark, move)


def outbox_max(svc) -> int:
    from sqlalchemy import func, select

    from service.store.models import OutboxRow
    with svc.db.transaction() as s:
        return s.scalar(select(func.max(OutboxRow.id))) or 0


def settle(app) -> None:
    """Wait until the background work a request left behind is done (not timed)."""
    drain = app.extensions.get("turnpost.background")
    if drain is not None:
        drain.drain()


class LinkMoves:
    """Moves by link (POST /m/<token>) one timed request at a time, each the easy bot's move
    in a Trees game (a new game when one ends); what a move leaves behind is settled before
    the next, untimed. `statements`: those of each ordinary move (the game goes on: it mails
    the seat to act); `ending_statements`: those of each move that ends its game (it mails
    both seats and rates the game)."""

    def __init__(self, app, counter: StatementCounter):
        self.app, self.counter = app, counter
        self.svc = app.extensions["turnpost"]
        self.client, self.rng = app.test_client(), random.Random(2)
        self.game: int | None = None
        self.statements: list[int] = []
        self.ending_statements: list[int] = []

    def time_one(self) -> float:
        token = None
        while token is None:
            if self.game is None:
                self.game = play.start_game(self.svc, "trees", PEOPLE[:2], {}).game_id
                settle(self.app)
            token = bot_move(self.svc, self.game, self.rng)
            if token is None:
                self.game = None
        with self.counter.counting() as c:
            t0 = time.perf_counter()
            r = self.client.post(f"/m/{token}")
            elapsed = time.perf_counter() - t0
            # the server closes a response once it has sent it: with a broker, the move's
            # kick is published then (service.web.kicks), after the player has the page
            r.close()
        assert r.status_code == 200, r.text
        (self.ending_statements if game_over(self.svc, self.game)
         else self.statements).append(c.count)
        settle(self.app)
        return elapsed


def game_over(svc, game_id: int) -> bool:
    from service.store.statuses import GameStatus
    with svc.db.transaction() as s:
        return repository.game_row(s, game_id).status != GameStatus.ACTIVE


def interleaved(floor: BareRoute, moves: LinkMoves, n: int, per_move: int = 2,
                slices: int = 10) -> tuple[list[float], list[float]]:
    """`n` moves and `per_move` times as many floor requests, taking turns in `slices`
    (why: docs/performance.md, "How to measure")."""
    floor_times: list[float] = []
    move_times: list[float] = []
    for k in range(slices):
        count = n * (k + 1) // slices - n * k // slices
        floor_times += [floor.time_one() for _ in range(count * per_move)]
        move_times += [moves.time_one() for _ in range(count)]
    return floor_times, move_times


# -- the move as correspondence makes it: cold ---------------------------------------------------

#: the cold games: each game's first move, one game after another (docs/performance.md)
COLD_GAMES = 60


class ColdGames:
    """A move by link and the seat page of the seat to act, each as correspondence brings
    it: the first move of a game nobody has touched since it started, in a process that has
    served many other games since (the state cache holds nothing of it). The games are
    started and their emails sent before timing; each game's emails (the move's) are sent
    before the next game's page and move, untimed."""

    def __init__(self, app, n: int = COLD_GAMES, seed: int = 5):
        self.app, self.svc = app, app.extensions["turnpost"]
        self.client, rng = app.test_client(), random.Random(seed)
        self.games: list[tuple[str, str]] = []
        for _ in range(n):
            gid = play.start_game(self.svc, "trees", PEOPLE[:2], {}).game_id
            settle(app)
            token = bot_move(self.svc, gid, rng)
            seat = self.svc.urls.signer.loads("move", token).seat
            self.games.append((self.svc.urls.game_path(gid, seat), f"/m/{token}"))
        self.next = 0
        self.cpu: dict[str, list[float]] = {"page": [], "move": []}

    def time_one(self) -> tuple[float, float]:
        """The seat page, then the move, each timed cold (and their CPU time kept)."""
        page, move = self.games[self.next]
        self.next += 1
        self.svc.states.clear()
        t0, c0 = time.perf_counter(), time.thread_time()
        r = self.client.get(page)
        page_time = time.perf_counter() - t0
        self.cpu["page"].append(time.thread_time() - c0)
        assert r.status_code == 200, r.text
        self.svc.states.clear()
        t0, c0 = time.perf_counter(), time.thread_time()
        r = self.client.post(move)
        move_time = time.perf_counter() - t0
        self.cpu["move"].append(time.thread_time() - c0)
        r.close()
        assert r.status_code == 200, r.text
        settle(self.app)
        return page_time, move_time


def cold_rows(app, tmp: Path, slices: int = COLD_GAMES) -> list[Row]:
    """The cold page and move against the Core floor, taking turns in `slices`, two floor
    requests a game (why: docs/performance.md, "How to measure"): by default game by game,
    so that neither runs on caches the other left warm (in longer slices the floor's CPU
    time read a third lower)."""
    games = ColdGames(app)
    floor = BareRoute(f"sqlite:///{tmp / 'core-floor.db'}")
    n = len(games.games)
    bare, pages, moves = [], [], []
    for k in range(slices):
        count = n * (k + 1) // slices - n * k // slices
        bare += [floor.time_one() for _ in range(count * 2)]
        for _ in range(count):
            page, move = games.time_one()
            pages.append(page)
            moves.append(move)
    floor.close()
    # in CPU time too: what the service adds, steady on a machine whose disk others keep
    # busy (a commit waits for its sync, and a move's writes a dozen pages, the floor's one)
    return [Row(f"move by link, cold (first move of {n} games), p50", p50(moves), "ms",
                p50(bare), 5),
            Row("  the same in CPU time (this thread's)", p50(games.cpu["move"]), "ms",
                p50(floor.cpu)),
            Row(f"seat page, cold (the seat to act, {n} games), p50", p50(pages), "ms",
                p50(bare), 4),
            Row("  the same in CPU time (this thread's)", p50(games.cpu["page"]), "ms",
                p50(floor.cpu))]


# -- a reply email's round trips ------------------------------------------------------------

def reply_round_trips(app, counter: StatementCounter, n: int = 20) -> tuple[float, float]:
    """Statements to store and process a reply that applies a move (its emails' delivery not
    counted: that is the relay's), and how often it was parsed."""
    from email.message import EmailMessage

    from service.play.mail import intake, replies
    svc = app.extensions["turnpost"]
    rng = random.Random(7)
    parses = [0]
    real_intake, real_replies = intake.parse_message, replies.parse_message

    def counted(fn):
        def parse(raw):
            parses[0] += 1
            return fn(raw)
        return parse

    intake.parse_message, replies.parse_message = counted(real_intake), counted(real_replies)
    enqueue, svc.enqueue = svc.enqueue, play.services.run_nothing
    trips = []
    try:
        gid = play.start_game(svc, "trees", PEOPLE[:2], {}).game_id
        for i in range(n):
            with svc.db.transaction() as s:
                pos = repository.load(s, svc.states, gid)
            if pos.engine.outcome(pos.state) is not None:
                gid = play.start_game(svc, "trees", PEOPLE[:2], {}).game_id
                continue
            seat = min(pos.engine.to_act(pos.state))
            move = pos.engine.bots["easy"](pos.state, seat, rng)
            reply = EmailMessage()
            reply["From"], reply["To"] = PEOPLE[seat], svc.urls.reply_address(gid, seat)
            reply["Subject"] = "Re: your turn"
            reply["Message-ID"] = f"<bench-{gid}-{i}@phone.example>"
            reply.set_content(pos.engine.describe(move) + "\n\nOn Sunday Turnpost wrote:\n> ...\n")
            with counter.counting() as c:
                row_id, _ = play.accept_mail(svc, reply.as_bytes(), "bench")
                result = play.process_inbound(svc, row_id)
            assert result.status == "applied", result
            trips.append(c.count)
    finally:
        intake.parse_message, replies.parse_message = real_intake, real_replies
        svc.enqueue = enqueue
    return statistics.median(trips), parses[0] / max(1, len(trips))


# -- emails -------------------------------------------------------------------------------------

def time_emails(svc, counter: StatementCounter, n: int = 100) -> tuple[list[float], float]:
    """Deliver (claim, render, send to the Maildir, mark sent) turn emails two by two, as a
    move's delivery does: time and statements per email."""
    enqueue, svc.enqueue = svc.enqueue, play.services.run_nothing
    ids = []
    while len(ids) < n:
        ids += play.start_game(svc, "trees", PEOPLE[:2], {}).outbox_ids
    svc.enqueue = enqueue
    times, statements = [], []
    for k in range(0, n, 2):
        with counter.counting() as c:
            t0 = time.perf_counter()
            play.deliver(svc, ids[k:k + 2])
            times.append((time.perf_counter() - t0) / 2)
        statements.append(c.count / 2)
    return times, statistics.median(statements)


# -- fan-out to an SMTP sink ------------------------------------------------------------------

@contextmanager
def smtp_sink(log_path: Path):
    """An aiosmtpd sink in its own process (so it does not share our GIL), logging arrivals."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, str(Path(__file__).with_name("sink.py")),
                             str(port), str(log_path)])
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        yield port
    finally:
        proc.terminate()
        proc.wait(5)


def plain_smtplib_rate(port: int, messages: list) -> float:
    import smtplib
    t0 = time.perf_counter()
    with smtplib.SMTP("127.0.0.1", port) as conn:
        for msg in messages:
            conn.send_message(msg)
    return len(messages) / (time.perf_counter() - t0)


def queue_turn_emails(svc, n: int) -> list[int]:
    enqueue, svc.enqueue = svc.enqueue, play.services.run_nothing
    ids: list[int] = []
    try:
        while len(ids) < n:
            ids += play.start_game(svc, "trees", PEOPLE[:2], {}).outbox_ids
    finally:
        svc.enqueue = enqueue
    return ids[:n]


#: the embedded fan-out's slices: smtplib and the relay take turns, each slice on its own emails
#: (why: docs/performance.md, "How to measure")
EMBEDDED_SLICES, EMBEDDED_EMAILS = 5, 60


@dataclass
class Fanout:
    """The embedded fan-out, added up over its slices."""

    relay_seconds: float = 0.0
    floor_seconds: float = 0.0
    sent: int = 0
    render_seconds: float = 0.0
    drawing_seconds: float = 0.0
    ratios: tuple[float, ...] = ()      # each slice's relay rate over its floor's

    @property
    def rate(self) -> float:
        return self.sent / self.relay_seconds

    @property
    def floor(self) -> float:
        return self.sent / self.floor_seconds

    def spread(self) -> str:
        return f"{min(self.ratios):.2f}-{max(self.ratios):.2f}x"


def fanout_in_process(svc, port: int, slices: int = EMBEDDED_SLICES,
                      per_slice: int = EMBEDDED_EMAILS) -> Fanout:
    """Emails/s of the relay (claim, render, send, mark) to the sink vs plain smtplib sending
    the same emails already rendered, taking turns slice by slice; and, per email, the render
    alone (load + compose) and the table picture's share of it."""
    from service.mailwire.outbound.transports import SMTPTransport
    from service.store.models import OutboxRow
    out = Fanout()
    for _ in range(slices):
        ids = queue_turn_emails(svc, per_slice)
        with svc.db.transaction() as s, timed_pictures() as drawing:
            rows = [s.get(OutboxRow, i) for i in ids]
            t0 = time.perf_counter()
            samples = [relay.render(s, svc, row) for row in rows]
            out.render_seconds += time.perf_counter() - t0
            out.drawing_seconds += sum(drawing)
        floor_seconds = len(samples) / plain_smtplib_rate(port, samples)
        transport, svc.transport = svc.transport, SMTPTransport("127.0.0.1", port)
        try:
            t0 = time.perf_counter()
            play.deliver(svc, ids)
            relay_seconds = time.perf_counter() - t0
        finally:
            svc.transport.close()
            svc.transport = transport
        out.relay_seconds += relay_seconds
        out.floor_seconds += floor_seconds
        out.sent += len(ids)
        out.ratios += (floor_seconds / relay_seconds,)
    return out


@contextmanager
def timed_pictures():
    """Seconds spent drawing each turn email's table picture (PNG) meanwhile."""
    from service.mailwire.outbound import compose
    spent: list[float] = []
    real = compose.picture

    def picture(*args):
        t0 = time.perf_counter()
        try:
            return real(*args)
        finally:
            spent.append(time.perf_counter() - t0)

    compose.picture = picture
    try:
        yield spent
    finally:
        compose.picture = real


# -- flat in the length of the game --------------------------------------------------------------

def long_game(svc, length: int, seed: int = 3) -> int:
    """An Aristocracy game (3 seats) played by bots to `length` events, still going."""
    enqueue, svc.enqueue = svc.enqueue, play.services.run_nothing
    try:
        while True:
            rng = random.Random(seed)
            gid = play.start_game(svc, "aristocracy", PEOPLE, {}).game_id
            with svc.db.transaction() as s:
                pos = repository.load(s, svc.states, gid)
                engine, state, row = pos.engine, pos.state, pos.row
                while row.seq < length and engine.outcome(state) is None:
                    seat = min(engine.to_act(state))
                    new = engine.decide(state, seat, engine.bots["easy"](state, seat, rng), rng)
                    for ev in new:
                        state = engine.evolve(state, ev)
                    eventstore.append(s, row, new, seat=seat, source="bot", now=svc.clock.now())
            if engine.outcome(state) is None:
                svc.states.clear()
                return gid
            seed += 1
    finally:
        svc.enqueue = enqueue


def at_lengths(app, lengths: list[int], rng: random.Random,
               n: int = 40) -> list[dict[str, float]]:
    """p50s (ms) in a game of each length: a warm move, a cold move (empty state cache),
    an email render by a worker that has never seen the game, the game page, the confirm
    page. The games take turns, sample by sample (why: docs/performance.md, "How to
    measure"); a game the samples' moves end is followed by another of its length."""
    svc = app.extensions["turnpost"]
    games = [long_game(svc, length) for length in lengths]
    out = [{"move": [], "cold move": [], "render": [], "render: load": [],
            "render: compose": [], "page": [], "confirm": [], "replayed": []} for _ in games]
    for i in range(n):
        for k, samples in enumerate(out):
            while not _sample(app, games[k], rng, cold=bool(i % 2), out=samples):
                games[k] = long_game(svc, lengths[k], seed=4 + i)
    return [{k: p50(v) for k, v in samples.items()} for samples in out]


def _sample(app, gid: int, rng: random.Random, cold: bool, out: dict[str, list[float]]) -> bool:
    """One sample of each figure; False (nothing measured) if the game is over."""
    svc = app.extensions["turnpost"]
    client = app.test_client()
    token = bot_move(svc, gid, rng)
    if token is None:
        return False
    game_path = svc.urls.game_path(gid, 0)
    for _ in range(3):                  # pages are cheap: more samples, less noise
        t0 = time.perf_counter()
        assert client.get(f"/m/{token}").status_code == 200
        out["confirm"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        assert client.get(game_path).status_code == 200
        out["page"].append(time.perf_counter() - t0)
    if cold:
        svc.states.clear()          # another worker process: nothing cached
    t0 = time.perf_counter()
    r = client.post(f"/m/{token}")
    out["cold move" if cold else "move"].append(time.perf_counter() - t0)
    assert r.status_code == 200, r.text
    settle(app)
    with svc.db.transaction() as s:
        game = repository.game_row(s, gid)
        row = notify.queue(s, game, 0, "turn", game.seq, svc.clock.now())
        row.status, row.since_seq = "held", max(0, game.seq - 5)
        s.flush()
        svc.states.clear()
        t0 = time.perf_counter()
        compose = relay.prepare(s, svc, row)        # relay.render, in its two halves
        t1 = time.perf_counter()
        compose()
        t2 = time.perf_counter()
        out["render"].append(t2 - t0)
        out["render: load"].append(t1 - t0)
        out["render: compose"].append(t2 - t1)
        svc.states.clear()
        with replay_counter() as replayed:
            repository.load(s, svc.states, gid)
        out["replayed"].append(replayed[0] / 1000)      # p50() reports in thousandths
    return True


@contextmanager
def replay_counter():
    """Events read from the log to rebuild states (the repository's loads only)."""
    count = [0]
    real = repository.eventstore

    class Counting:
        def __getattr__(self, name):
            return getattr(real, name)

        def load(self, *args, **kwargs):
            found = real.load(*args, **kwargs)
            count[0] += len(found)
            return found

    repository.eventstore = Counting()
    try:
        yield count
    finally:
        repository.eventstore = real


# -- the embedded run --------------------------------------------------------------------------

def embedded_app(tmp: Path):
    """The service as `make run` serves it, on a migrated SQLite file in `tmp`."""
    url = f"sqlite:///{tmp / 'bench.db'}"
    upgrade(url)
    return create_app({"TURNPOST_DATABASE_URL": url, "TURNPOST_MAILDIR": str(tmp / "outbox"),
                       "TURNPOST_CHANCE": random.Random(1), "TURNPOST_BASE_URL": "http://t.test",
                       "TURNPOST_MAIL_DOMAIN": "t.test"})


def embedded(tmp: Path) -> list[Row]:
    app = embedded_app(tmp)
    svc = app.extensions["turnpost"]
    counter = StatementCounter(svc.db.engine)
    rows: list[Row] = []
    # the floor in a database file of its own (sharing the moves' file, each paid for the
    # other's WAL checkpoints), taking turns with the moves: docs/performance.md
    floor = BareRoute(f"sqlite:///{tmp / 'floor.db'}")
    moves = LinkMoves(app, counter)
    bare, times = interleaved(floor, moves, n=150)
    floor.close()
    rows.append(Row("move by link, p50 (SQLite, embedded)", p50(times), "ms", p50(bare), 5))
    rows.append(Row("SQL statements, an ordinary move (max)", max(moves.statements),
                    "stmts", target=15))
    rows.append(Row("  a game-ending move (mails both seats, rates the game)",
                    max(moves.ending_statements, default=0), "stmts"))
    rows += cold_rows(app, tmp)
    trips, parses = reply_round_trips(app, counter)
    rows.append(Row("reply email: round trips to store + apply (p50)", trips, "trips", target=20))
    rows.append(Row("reply email: times parsed", parses, "parses", target=1))
    emails, per_email = time_emails(svc, counter)
    rows.append(Row("one email to the Maildir: claim+render+send+mark", p50(emails), "ms"))
    rows.append(Row("SQL statements per email delivered", per_email, "stmts"))
    with smtp_sink(tmp / "sink.log") as port:
        fan = fanout_in_process(svc, port)
    rows.append(Row(f"fan-out, embedded (one thread) to an SMTP sink ({fan.spread()})", fan.rate,
                    "emails/s", fan.floor, 0.6, higher_is_better=True))
    # why: composing an email costs many times sending it (floor: smtplib's time per email)
    rows.append(Row("  one email rendered (load + compose), vs its send",
                    fan.render_seconds / fan.sent * 1000, "ms", 1000 / fan.floor))
    rows.append(Row("  of which the table picture (PNG)", fan.drawing_seconds / fan.sent * 1000,
                    "ms"))
    rng = random.Random(9)
    at20, at2000 = at_lengths(app, [20, 2000], rng)
    for name in ("move", "render", "page", "confirm"):
        label = {"move": "move by link", "render": "email render (worker, cold)",
                 "page": "game page", "confirm": "confirm page"}[name]
        rows.append(Row(f"{label} at event 2,000 vs 20", at2000[name], "ms", at20[name], 1.3))
        if name == "render":
            # why it is not flat: the log (loading: the newest snapshot and the events after
            # it) or the table (composing: the long game's table is a late Aristocracy one,
            # three times the HTML of its first rounds, with more moves to link)
            for half in ("load", "compose"):
                rows.append(Row(f"  of which {half}, at 2,000 vs 20", at2000[f"render: {half}"],
                                "ms", at20[f"render: {half}"]))
    rows.append(Row("cold move (empty cache) vs warm, at 2,000", at2000["cold move"], "ms",
                    at2000["move"], 2))
    rows.append(Row("events replayed by a cold load at event 2,000", at2000["replayed"],
                    "events", target=50))
    settle(app)
    svc.dispose()
    return rows + me_rows(tmp) + sweep_rows(tmp)


# -- a player's games ----------------------------------------------------------------------------

def me_rows(tmp: Path, n: int = 40) -> list[Row]:
    """/me of a player with 1,000 games (100 in progress: bench/me_bench.py), taking turns with
    the bare route on a database file of its own, as the moves do."""
    where = tmp / "me"
    where.mkdir()
    url = f"sqlite:///{where / 'me.db'}"
    upgrade(url)
    app = create_app({"TURNPOST_DATABASE_URL": url, "TURNPOST_MAILDIR": str(where / "outbox"),
                      "TURNPOST_CHANCE": random.Random(2), "TURNPOST_BASE_URL": "http://t.test",
                      "TURNPOST_MAIL_DOMAIN": "t.test"})
    svc = app.extensions["turnpost"]
    player = me_bench.seed(svc, random.Random(4))
    settle(app)
    client = me_bench.sign_in(app, player)
    floor = BareRoute(f"sqlite:///{where / 'floor.db'}")
    for _ in range(3):               # the first pages compile the template, fill the pools
        me_bench.time_me(client)
    bare, me = [], []
    for _ in range(n):
        bare.append(floor.time_one())
        me.append(me_bench.time_me(client))
    floor.close()
    svc.dispose()
    return [Row("/me of a player with 1,000 games (100 in progress), p50 vs the bare route",
                p50(me), "ms", p50(bare), 10)]


# -- the clock sweep ----------------------------------------------------------------------------

def sweep_rows(tmp: Path) -> list[Row]:
    """One pass of the clock sweep over 100,000 games with 1,000 due, per 1,000
    timeouts (and 1,000 reminders), against one move request timed just before each pass
    (bench/sweep_bench.py; the median of its passes, the spread of their ratios said)."""
    where = tmp / "sweep"
    where.mkdir()
    f = sweep_bench.measure(where, passes=5, say=lambda text: print(f"sweep bench: {text}",
                                                                     flush=True))
    rows = []
    for what, count, statements, seconds, target in (
            ("timeouts", "timeouts", "statements", "seconds", 20),
            ("reminders", "reminders", "reminder_statements", "reminder_seconds", None)):
        per_k = [p.per_k(getattr(p, statements), getattr(p, count)) for p in f.passes]
        low, high = f.spread("statement_ratio" if what == "timeouts"
                             else "reminder_statement_ratio")
        rows.append(Row(f"clock sweep, 1,000 {what} of 100,000 games: SQL vs a move",
                        statistics.median(per_k), "stmts", f.median("move_statements"),
                        target))
        per_k = [p.per_k(getattr(p, seconds), getattr(p, count)) * 1000 for p in f.passes]
        low, high = f.spread("time_ratio" if what == "timeouts" else "reminder_time_ratio")
        rows.append(Row(f"clock sweep, 1,000 {what}: time vs a move ({low:.0f}-{high:.0f}x)",
                        statistics.median(per_k), "ms", f.median("move_seconds") * 1000,
                        target))
        if what == "timeouts":
            rows += sweep_floor_rows(f)
    return rows


def sweep_floor_rows(f) -> list[Row]:
    """What no rewrite of the sweep's own code removes from its 1,000 timeouts: the time
    inside SQLite's calls and the engines' own work (bench/sweep_bench.py), each against the
    move, and their sum: the ratio the pass could reach if the rest cost nothing."""
    move = f.median("move_seconds") * 1000
    rows = []
    for label, seconds in (("  of which inside SQLite's own calls", "driver_seconds"),
                           ("  and the engines' own work, done alone", "engine_seconds")):
        per_k = [p.per_k(getattr(p, seconds), p.timeouts) * 1000 for p in f.passes]
        rows.append(Row(label, statistics.median(per_k), "ms", move))
    low, high = f.spread("floor_ratio")
    rows.append(Row(f"  the two: the floor under the target ({low:.0f}-{high:.0f}x)",
                    rows[0].value + rows[1].value, "ms", move))
    # the sweep's own cost: its pass against that floor (issue 39: at most twice)
    low, high = f.spread("over_floor")
    per_k = [p.per_k(p.seconds, p.timeouts) * 1000 for p in f.passes]
    rows.append(Row(f"clock sweep, 1,000 timeouts: time vs its floor ({low:.1f}-{high:.1f}x)",
                    statistics.median(per_k), "ms", rows[-1].value, 2))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pg", action="store_true", help="add PostgreSQL + Redis + worker figures")
    ap.add_argument("--pg-url", default=os.environ.get(
        "TURNPOST_BENCH_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/turnpost_bench"))
    ap.add_argument("--redis-url", default=os.environ.get("TURNPOST_BENCH_REDIS_URL",
                                                          "redis://127.0.0.1:6379/15"))
    ap.add_argument("--record", action="store_true", help="write the table to bench/RESULTS.md")
    ap.add_argument("--only", choices=["me", "cold"], help="one piece alone: me (/me's "
                    "figure), cold (the cold move by link and seat page against the plain floor)")
    args = ap.parse_args()
    started = time.perf_counter()
    # the PostgreSQL run's worker may still be writing a Maildir file as it is stopped: the
    # table matters more than a tidy /tmp
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
        if args.only == "me":
            rows = me_rows(Path(tmp))
        elif args.only == "cold":
            rows = cold_rows(embedded_app(Path(tmp)), Path(tmp))
        else:
            rows = embedded(Path(tmp))
        if args.pg and not args.only:
            from pg_bench import postgres
            rows += postgres(Path(tmp), args.pg_url, args.redis_url)
    print()
    text = print_table(rows)
    took = time.perf_counter() - started
    load = "load average {:.1f} {:.1f} {:.1f}".format(*os.getloadavg())
    print(f"\n{len(rows)} figures in {took:.0f} s; {load} (other work on this machine "
          "slows every figure, the floors too)")
    if args.record:
        record(text, took, args.pg, load)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, " \
           f"Python {platform.python_version()}"


def record(text: str, took: float, pg: bool, load: str) -> None:
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    out = ROOT / "bench" / "RESULTS.md"
    out.write_text(f"# Last `make bench` run\n\n{when} on {machine()}"
                   f"{' (with --pg)' if pg else ''}, {took:.0f} s, {load} at the end.\n\n"
                   f"```\n{text}\n```\n")


if __name__ == "__main__":
    main()
