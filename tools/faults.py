"""The fault harness (`make faults`, `make faults-short`): the production stack on this
machine, laid out as the Procfile runs it — a private PostgreSQL cluster, Redis, a Celery
worker (2 processes), beat as its own process, gunicorn from config/gunicorn.py (4 sync
workers), the SMTP receiver, and an SMTP sink standing in for the relay, with the production
sweep interval (60 s) — and scenarios that break one part at a time:

  broker down · broker hung (SIGSTOP) · relay down · relay refusing everyone (554 5.7.1, and
  450) · relay 550 for one address · relay slower than the timeout · worker kill -9 inside a
  fast batch · a database error inside a reply · database restart · 20 clicks on one link ·
  100 help replies 4 at a time · a burst of fuzzed messages

Every other game moves by reply (SMTP to the receiver, the words of a move its turn email
lists), the rest by a click on a link from a delivered turn email: the email the seat to act
got for the position its game is at now, checked unused in the database first (the mover is
never mailed about its own move, so its latest email holds links it has used). For each
scenario it prints: links clicked; what the clicks were told ("done", "already done",
refused, 500, 503, apart); moves applied and replies applied, and lost; emails expected /
delivered / doubled / parked; seats muted; the slowest click where clicks are timed; and the
time from the end of the fault until every email is sent or parked.

Everything listens on 127.0.0.1 only, every wait has a deadline, and every process it starts
is stopped by its id at the end. `--short` (CI) runs the fast subset with small numbers,
10 s outages and a 5 s sweep; without it the outages last a minute and the burst is 1,000
messages.
"""
from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import random
import re
import secrets
import shutil
import signal
import smtplib
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

from aiosmtpd.controller import Controller
from sqlalchemy import create_engine, func, or_, select, text

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.play.notify import row_message_id  # noqa: E402
from service.store.migrate import upgrade  # noqa: E402
from service.store.models import (  # noqa: E402
    GameRow,
    InboundMessage,
    OutboxRow,
    Player,
    Seat,
    Submission,
)

#: the Procfile's worker: two processes (at most one email each with the relay and not
#: marked sent when the worker is killed)
WORKER_PROCESSES = 2
BIN = Path(sys.executable).parent
DOMAIN = "turnpost.test"
LINK = re.compile(r"(/m/[A-Za-z0-9_.\-]+)")
TITLE = re.compile(r"<title>(.*?) · Turnpost</title>", re.S)
STARTED = re.compile(r"started \w+ game (\d+)")
SMTP_TIMEOUT = 3


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(check, seconds: float, what: str, step: float = 0.2):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            result = check()
            if result:
                return result
        except Exception:  # noqa: BLE001 - not up yet
            pass
        time.sleep(step)
    raise TimeoutError(f"gave up waiting for {what} after {seconds} s")


# -- the SMTP sink: the relay the service sends through ------------------------------------

class Sink:
    """Takes mail like a relay (offering PIPELINING); can refuse addresses (550), be slow, or
    be away."""

    def __init__(self):
        self.port = free_port()
        self.refuse: set[str] = set()
        self.refuse_all: str | None = None   # answer every RCPT with this (a relay's bad minute)
        self.refused_all = 0
        self.delay = 0.0
        self.on_data = None        # called before a message is taken: may kill the worker
        self.received: list[bytes] = []
        self.gave_up = 0           # sends the client abandoned while the sink was slow
        self.lock = threading.Lock()
        self.controller: Controller | None = None

    async def handle_EHLO(self, server, session, envelope, hostname, responses):
        # PIPELINING, as the relays it stands for offer it: the service then sends each
        # message's commands together (mailwire.outbound.pipelining), and the faults break that
        session.host_name = hostname
        return [*responses[:-1], "250-PIPELINING", responses[-1]]

    async def handle_RCPT(self, server, session, envelope, address, options):
        if self.refuse_all:
            with self.lock:
                self.refused_all += 1
            return self.refuse_all.format(address=address)
        if address in self.refuse:
            return f"550 5.1.1 <{address}>: Recipient address rejected: User unknown"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.delay:
            try:
                await asyncio.sleep(self.delay)
            except asyncio.CancelledError:     # the client gave up and hung up meanwhile
                with self.lock:
                    self.gave_up += 1
                raise
            if server.transport is None or server.transport.is_closing():
                with self.lock:
                    self.gave_up += 1
                return "451 too late"      # the client gave up: a slow relay takes nothing
        if self.on_data is not None:
            self.on_data()
        with self.lock:
            self.received.append(envelope.original_content or envelope.content)
            n = len(self.received)
        return f"250 2.0.0 Ok: queued as S{n:06d}"

    def up(self):
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def down(self):
        if self.controller:
            self.controller.stop()
            self.controller = None

    def mails(self) -> list:
        with self.lock:
            raws = list(self.received)
        return [BytesParser(policy=policy.default).parsebytes(r) for r in raws]

    def counts(self) -> Counter:
        return Counter(message_id(m) for m in self.mails())

    def by_message_id(self) -> dict:
        return {message_id(m): m for m in self.mails()}


def message_id(mail) -> str:
    """The outbox row's message_id ("tp.…") of a mail the service sent: a row's email
    composed again after a send in doubt (`tp.….2`) counts as that row's, so it counts as
    doubled."""
    return row_message_id(str(mail["Message-ID"]).strip("<>").split("@")[0])


# -- the stack -----------------------------------------------------------------------------

@dataclass
class Stack:
    tmp: Path
    sink: Sink
    pg_port: int = field(default_factory=free_port)
    redis_port: int = field(default_factory=free_port)
    web_port: int = field(default_factory=free_port)
    inbound_port: int = field(default_factory=free_port)
    sweep_seconds: int = 60
    procs: dict[str, subprocess.Popen] = field(default_factory=dict)

    @property
    def pg_data(self) -> Path:
        return self.tmp / "pg"

    @property
    def db_url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.pg_port}/turnpost"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.web_port}"

    def env(self) -> dict:
        return os.environ | {
            "TURNPOST_DATABASE_URL": self.db_url,
            "TURNPOST_BROKER_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "TURNPOST_SECRET_KEY": self.secret,
            "TURNPOST_BASE_URL": self.base, "TURNPOST_MAIL_DOMAIN": DOMAIN,
            "TURNPOST_MAIL_TRANSPORT": "smtp", "TURNPOST_SMTP_HOST": "127.0.0.1",
            "TURNPOST_SMTP_PORT": str(self.sink.port), "TURNPOST_SMTP_TIMEOUT": str(SMTP_TIMEOUT),
            "TURNPOST_SWEEP_SECONDS": str(self.sweep_seconds),
            "TURNPOST_WEB_BIND": f"127.0.0.1:{self.web_port}", "TURNPOST_WEB_WORKERS": "4",
            "TURNPOST_INBOUND_SMTP_HOST": "127.0.0.1",
            "TURNPOST_INBOUND_SMTP_PORT": str(self.inbound_port),
            "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}

    secret: str = field(default_factory=lambda: secrets.token_urlsafe(24))

    # PostgreSQL: a cluster of our own, so restarting it disturbs nobody else
    def _as_postgres(self, *cmd) -> list[str]:
        return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else list(cmd)

    def pg_bin(self, name: str) -> str:
        found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
        return str(found[-1]) if found else name

    def pg_init(self):
        self.pg_data.mkdir(parents=True)
        if os.geteuid() == 0:
            shutil.chown(self.tmp, "postgres")
            shutil.chown(self.pg_data, "postgres")
        subprocess.run(self._as_postgres(self.pg_bin("initdb"), "-D", str(self.pg_data), "-U",
                                         "postgres", "--auth=trust", "-E", "UTF8"),
                       check=True, capture_output=True)
        self.pg_ctl("start")
        subprocess.run([self.pg_bin("createdb"), "-h", "127.0.0.1", "-p", str(self.pg_port),
                        "-U", "postgres", "turnpost"], check=True, capture_output=True)
        upgrade(self.db_url)

    def pg_ctl(self, action: str):
        opts = f"-p {self.pg_port} -k {self.tmp} -c listen_addresses=127.0.0.1"
        subprocess.run(self._as_postgres(self.pg_bin("pg_ctl"), "-D", str(self.pg_data), "-o",
                                         opts, "-l", str(self.tmp / "pg.log"), "-w", "-m",
                                         "fast", action), check=True, capture_output=True)

    def start(self, name: str):
        cmds = {
            "redis": ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1",
                      "--save", "", "--appendonly", "no"],
            # the Procfile's processes: worker and beat apart, gunicorn with its config file
            # (4 sync workers)
            "worker": [str(BIN / "celery"), "-A", "workers.worker", "worker",
                       "--concurrency", str(WORKER_PROCESSES), "--loglevel", "WARNING"],
            "beat": [str(BIN / "celery"), "-A", "workers.worker", "beat", "--loglevel",
                     "WARNING", "--schedule", str(self.tmp / "beat-schedule")],
            "web": [str(BIN / "gunicorn"), "-c", str(ROOT / "config" / "gunicorn.py"),
                    "--log-level", "warning", "service.web:create_app()"],
            "inbound": [str(BIN / "flask"), "--app", "service.web", "inbound-smtp"],
        }
        log = open(self.tmp / f"{name}.log", "ab")  # noqa: SIM115 - the child keeps it
        self.procs[name] = subprocess.Popen(cmds[name], cwd=ROOT, env=self.env(), stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        waits = {"redis": lambda: socket.create_connection(("127.0.0.1", self.redis_port)),
                 "web": lambda: urllib.request.urlopen(self.base + "/healthz", timeout=2),
                 "inbound": lambda: socket.create_connection(("127.0.0.1", self.inbound_port)),
                 "worker": lambda: True, "beat": lambda: True}
        wait_for(waits[name], 30, name)

    def stop(self, name: str, sig=signal.SIGTERM):
        proc = self.procs.pop(name, None)
        if proc is None:
            return
        try:
            os.killpg(proc.pid, sig)      # the process group we started for it, by its id
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)

    def up(self):
        self.sink.up()
        self.pg_init()
        for name in ("redis", "web", "worker", "beat", "inbound"):
            self.start(name)

    def down(self):
        for name in list(self.procs):
            self.stop(name)
        try:
            self.pg_ctl("stop")
        except Exception:  # noqa: BLE001 - best effort on the way out
            pass
        self.sink.down()


# -- talking to the service ----------------------------------------------------------------

# A click's answer, in words: "done" (the done page: the move was applied), "already" (the
# "already done" page), "refused" (a 4xx: stale, not allowed, not your seat; nothing applied),
# "500" / "503" (the friendly pages: a bare 500 fails the run), "none" (no answer at all).
DEFINITE = ("done", "already", "refused")


def click(url: str) -> str:
    """POST a move link, as the confirm page's button does, and say what the page said."""
    req = urllib.request.Request(url, data=b"", method="POST")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            status, body = r.status, r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        status, body = e.code, e.read().decode("utf-8", "replace")
    except (urllib.error.URLError, OSError):
        return "none"
    if status == 200:
        title = TITLE.search(body)
        title = title.group(1).strip() if title else ""
        return {"Done": "done", "Already done": "already"}.get(title, f"200 {title!r}")
    if 400 <= status < 500:
        return "refused"
    return str(status)


def timed_click(url: str) -> tuple[str, float]:
    t0 = time.monotonic()
    answer = click(url)
    return answer, time.monotonic() - t0


@dataclass(frozen=True)
class Link:
    """A one-click move from a delivered turn email, for the position its game is at now."""
    url: str
    game_id: int
    seat: int
    mail: object = field(default=None, compare=False, hash=False, repr=False)

    @property
    def key(self) -> str:
        """The submission key the service files this link's move under (service/web/links.py:
        the token is the idempotency key, per seat)."""
        token = self.url.rsplit("/", 1)[1]
        return f"{self.seat}:link:" + hashlib.sha256(token.encode()).hexdigest()[:40]


def start_game(stack: Stack, n: int) -> int:
    addrs = [f"g{n}a-{secrets.token_hex(3)}@example.org", f"g{n}b-{secrets.token_hex(3)}@example.org"]
    return operator_start(stack, addrs)


def operator_start(stack: Stack, addrs: list[str]) -> int:
    """`flask start-game`: a game at once (the lobby's games wait for accepted invitations).
    Its players keep the default mail mode (mailed when it is their move), as real ones do."""
    done = subprocess.run([str(BIN / "flask"), "--app", "service.web", "start-game", "trees",
                           *addrs], cwd=ROOT, env=stack.env(), check=True, capture_output=True,
                          text=True, timeout=60)
    return int(STARTED.search(done.stdout).group(1))


class Db:
    def __init__(self, url: str):
        self.engine = create_engine(url, pool_pre_ping=True)

    def scalar(self, q):
        with self.engine.connect() as c:
            return c.execute(q).scalar()

    def outbox_since(self, first_id: int) -> list:
        with self.engine.connect() as c:
            return c.execute(select(OutboxRow.message_id, OutboxRow.status)
                             .where(OutboxRow.id > first_id)).all()

    def last_outbox(self) -> int:
        return self.scalar(select(func.max(OutboxRow.id))) or 0

    def muted(self) -> int:
        """Seats muted and addresses given up (bounced or suppressed): what a relay's own
        refusal must never cause."""
        with self.engine.connect() as c:
            seats = c.execute(select(func.count()).select_from(Seat)
                              .where(Seat.muted.is_(True))).scalar()
            players = c.execute(select(func.count()).select_from(Player).where(
                or_(Player.bounced_at.is_not(None), Player.suppressed.is_(True)))).scalar()
        return (seats or 0) + (players or 0)

    def inbound(self, message_ids: list[str]) -> dict[str, tuple[str, int]]:
        """Each stored reply's status and processing attempts, by its Message-ID."""
        if not message_ids:
            return {}
        keys = message_ids + [f"<{m}>" for m in message_ids]
        with self.engine.connect() as c:
            rows = c.execute(select(InboundMessage.message_id, InboundMessage.status,
                                    InboundMessage.attempts)
                             .where(InboundMessage.message_id.in_(keys))).all()
        return {mid.strip("<>"): (status, attempts) for mid, status, attempts in rows}

    def link_moves(self) -> int:
        """Moves applied by link (one per accepted click, however many events each made)."""
        return self.scalar(select(func.count()).select_from(Submission)
                           .where(Submission.source == "link")) or 0

    def applied(self, links: list[Link]) -> set[Link]:
        """The links whose move is in the database (its submission row, written in the same
        transaction as the move's events)."""
        if not links:
            return set()
        with self.engine.connect() as c:
            found = set(c.execute(select(Submission.game_id, Submission.key).where(
                Submission.key.in_([link.key for link in links]))).all())
        return {link for link in links if (link.game_id, link.key) in found}

    def fresh_link(self, base: str, game_id: int, mails: dict) -> Link | None:
        """A move link from the delivered turn email of the seat to act, made for the position
        the game is at now (the outbox row's position is the game's), and never used: the
        links of one email are good until its seat moves, and a used one answers "already
        done". (The mover is never mailed about its own move, whatever its mail mode, so its
        latest email is the one it has just used.)"""
        with self.engine.connect() as c:
            seq, status = c.execute(select(GameRow.seq, GameRow.status)
                                    .where(GameRow.id == game_id)).one()
            if status != "active":
                return None
            rows = c.execute(select(OutboxRow.message_id, OutboxRow.seat).where(
                OutboxRow.game_id == game_id, OutboxRow.kind == "turn", OutboxRow.seq == seq,
                OutboxRow.status == "sent")).all()
        for message_id, seat in rows:
            mail = mails.get(message_id)
            if mail is None:
                continue
            body = mail.get_body(("plain",)).get_content()
            found = LINK.search(body) if "YOUR TURN" in body else None
            if found:
                link = Link(base + found.group(1), game_id, seat, mail)
                if not self.applied([link]):
                    return link
        return None


@dataclass
class Report:
    name: str
    links: int = 0           # fresh links clicked (each checked unused, for the current position)
    done: int = 0            # answers "done": the service says it applied the move
    already: int = 0         # answers "already done"
    refused: int = 0         # answers 4xx (stale, not allowed...): nothing applied
    applied: int = 0         # clicked links whose move is in the database
    replies: int = 0         # replies sent to the receiver (moves, or `help`)
    replies_applied: int = 0  # move replies whose stored message ended `applied`
    lost: int = 0            # answered "done" and not applied, or a fresh link "already done",
                             # or a move reply taken (250) and not applied
    expected: int = 0
    delivered: int = 0
    doubled: int = 0
    parked: int = 0
    muted: int = 0           # seats muted or addresses given up during the scenario
    e500: int = 0
    e503: int = 0
    slowest: float | None = None   # the slowest click, when the scenario times them
    drain: float = 0.0
    note: str = ""
    failures: list[str] = field(default_factory=list)   # anything else wrong: fails the run
    revived: list[str] = field(default_factory=list)    # processes that exited and were restarted

    def row(self) -> str:
        note = "; ".join(x for x in (self.note.strip("; "), *self.revived, *self.failures) if x)
        slowest = "–" if self.slowest is None else f"{self.slowest:.2f} s"
        return (f"| {self.name} | {self.links} | {self.done} | {self.already} | {self.refused}"
                f" | {self.applied} | {self.replies} | {self.replies_applied} | {self.lost} | "
                f"{self.expected} | {self.delivered} | {self.doubled} | {self.parked} | "
                f"{self.muted} | {self.e500} | {self.e503} | {slowest} | {self.drain:.1f} s | "
                f"{note} |")


HEADER = ("| scenario | links clicked | done | already done | refused | moves applied "
          "| replies | replies applied | lost | emails expected | delivered | doubled | parked "
          "| muted | 500 | 503 | slowest click | time to drain | note |"
          "\n|" + "---|" * 19)


@dataclass
class Before:
    """What the database and the sink held when a scenario began."""
    outbox: int
    moves: int
    sent: Counter
    muted: int


class Harness:
    def __init__(self, stack: Stack, short: bool):
        self.stack, self.short = stack, short
        self.db = Db(stack.db_url)
        self.games: list[int] = []
        self.outage = 10 if short else 60
        self.hang = 5 if short else 20
        self.first_row = 0

    def setup(self, games: int):
        for n in range(games):
            self.games.append(start_game(self.stack, n))
        self.drain(0, 120)

    def drain(self, first_id: int, seconds: float) -> float:
        t0 = time.monotonic()
        wait_for(lambda: all(s in ("sent", "parked", "skipped")
                             for _, s in self.db.outbox_since(first_id)),
                 seconds, "the outbox to drain", step=0.25)
        return time.monotonic() - t0

    def before(self) -> Before:
        return Before(self.db.last_outbox(), self.db.link_moves(), self.stack.sink.counts(),
                      self.db.muted())

    def fresh_links(self, report: Report) -> list[Link]:
        """One unused link per game, from the email its seat to act got for the position the
        game is at now. A game without one is a failure: the scenario would test nothing."""
        mails = self.stack.sink.by_message_id()
        links = []
        for game_id in self.games:
            link = self.db.fresh_link(self.stack.base, game_id, mails)
            if link is None:
                report.failures.append(f"game {game_id}: no unused link for its position")
            else:
                links.append(link)
        return links

    def movers(self, report: Report) -> tuple[list[Link], list[Reply]]:
        """A fresh link per game; every other game moves by reply instead, with the words of
        the same move, so both ways in meet each fault."""
        links, replies = [], []
        for n, link in enumerate(self.fresh_links(report)):
            words = listed_move(link.mail) if n % 2 else None
            if words:
                replies.append(reply(link, words))
            else:
                links.append(link)
        return links, replies

    def click_all(self, links: list[Link], report: Report | None = None,
                  one_by_one: bool = False) -> dict[Link, list[str]]:
        """Every link clicked, 8 at a time; one by one when `report` wants the slowest click
        (what a person waits for, not a queue of our own making)."""
        if one_by_one:
            timed = [timed_click(link.url) for link in links]
            report.slowest = max((t for _, t in timed), default=0.0)
            return {link: [answer] for link, (answer, _) in zip(links, timed)}
        with ThreadPoolExecutor(max_workers=8) as pool:
            answers = list(pool.map(lambda link: click(link.url), links))
        return {link: [answer] for link, answer in zip(links, answers)}

    def send_replies(self, replies: list[Reply], workers: int = 4) -> dict[Reply, str]:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            answers = list(pool.map(lambda r: send_patiently(self.stack, r.raw), replies))
        return dict(zip(replies, answers))

    def await_replies(self, report: Report, sent: dict[Reply, str], seconds: float):
        """Until every reply taken is processed (not received, processing or retrying)."""
        ids = [r.message_id for r, answer in sent.items() if answer == "250"]
        try:
            wait_for(lambda: all(st not in ("received", "processing", "retrying")
                                 for st, _ in self.db.inbound(ids).values())
                     and len(self.db.inbound(ids)) == len(ids), seconds,
                     "the replies to be processed", step=0.25)
        except TimeoutError:
            report.failures.append("replies still waiting to be processed")

    def judge_replies(self, report: Report, sent: dict[Reply, str]):
        """A move reply the receiver took (250) must end `applied`: anything else is lost."""
        stored = self.db.inbound([r.message_id for r in sent])
        report.replies += len(sent)
        refused = Counter(a for a in sent.values() if a != "250")
        if refused:
            report.failures.append("replies refused at SMTP: " + ", ".join(
                f"{n}× {a}" for a, n in refused.items()))
        for r, answer in sent.items():
            status = stored.get(r.message_id, ("missing", 0))[0]
            if not r.move or answer != "250":
                continue
            if status == "applied":
                report.replies_applied += 1
            else:
                report.lost += 1
                report.failures.append(f"game {r.game_id}: a move reply ended {status}")

    def scenario(self, name: str, fault, heal, *, drain_s=240.0, note="",
                 timed=False) -> Report:
        report = Report(name, note=note)
        before = self.before()
        links, replies = self.movers(report)
        fault()
        with ThreadPoolExecutor(max_workers=1) as mailer:
            mailed = mailer.submit(self.send_replies, replies)
            answers = self.click_all(links, report, one_by_one=timed)
            heal()
            sent = mailed.result()
        self.settle(report, before, sent, answers, drain_s)
        return report

    def settle(self, report: Report, before: Before, sent, answers: dict[Link, list[str]],
               seconds: float = 240) -> None:
        """After a fault: the replies answered, the outbox drained (timed from now), then the
        clicks and replies judged."""
        self.revive(report)
        t0 = time.monotonic()
        self.await_replies(report, sent, seconds)
        try:
            self.drain(before.outbox, seconds)
        except TimeoutError:
            report.failures.append("the outbox did not drain")
        report.drain = time.monotonic() - t0
        self.finish(report, before, answers)
        self.judge_replies(report, sent)

    def revive(self, report: Report) -> None:
        """A process that exited by itself during the fault is started again, as production's
        supervisor would (make prod under systemd's Restart=on-failure: docs/operating.md).
        The report says so, and the process's log keeps why it exited (kombu 5.7's Redis
        channel can raise AttributeError while closing after the broker went away, which ends
        the Celery worker)."""
        for name in ("worker", "beat", "web", "inbound"):
            proc = self.stack.procs.get(name)
            if proc is not None and proc.poll() is not None:
                self.stack.stop(name)
                self.stack.start(name)
                report.revived.append(f"{name} exited by itself (code {proc.returncode}) and "
                                      "was started again, as its supervisor would")

    def finish(self, report: Report, before: Before, answers: dict[Link, list[str]],
               one_link: bool = False, parked: int = 0):
        """`parked`: how many emails the scenario should park (a 5xx refusal); an email parked
        anywhere else was given up during a fault it should have outlasted."""
        time.sleep(1.0)    # a double would come right after the first send
        rows = self.db.outbox_since(before.outbox)
        counts = self.stack.sink.counts()
        new = {mid: counts[mid] - before.sent.get(mid, 0) for mid, _ in rows}
        report.expected = sum(1 for _, s in rows if s != "skipped")
        report.delivered = sum(1 for mid, _ in rows if new[mid] >= 1)
        report.doubled = sum(1 for mid, _ in rows if new[mid] > 1)
        report.parked = sum(1 for _, s in rows if s == "parked")
        report.muted = self.db.muted() - before.muted
        if report.muted:
            report.failures.append(f"{report.muted} seats or addresses muted")
        if report.delivered + report.parked < report.expected:
            report.failures.append(f"{report.expected - report.delivered - report.parked} "
                                   "emails neither delivered nor parked")
        if report.parked != parked:
            report.failures.append(f"{report.parked} emails parked (expected {parked})")
        self.judge(report, before, answers, one_link)

    def judge(self, report: Report, before: Before, answers: dict[Link, list[str]],
              one_link: bool):
        """Moves: what each click was told against what the database holds.

        Lost: a link answered "done" whose move is not in the database, or a fresh link whose
        first click was answered "already done" (every link is checked unused before it is
        clicked; after a 503 or no answer, "already done" is the honest answer: the first
        click got through). A fresh link refused, an answer that is none of these, or a move
        in the database that no click made fails the run as well."""
        applied = self.db.applied(list(answers))
        report.links, report.applied = len(answers), len(applied)
        every = [a for seq in answers.values() for a in seq]
        report.done, report.already = every.count("done"), every.count("already")
        report.refused, report.e500, report.e503 = (every.count("refused"), every.count("500"),
                                                    every.count("503"))
        odd = Counter(a for a in every if a not in (*DEFINITE, "500", "503"))
        if odd:
            report.failures.append("other answers: " + ", ".join(f"{n}× {a}"
                                                                  for a, n in odd.items()))
        for link, seq in answers.items():
            definite = [a for a in seq if a in DEFINITE]
            if "done" in seq and link not in applied:
                report.lost += 1
            elif not one_link and seq[:1] == ["already"]:
                report.lost += 1
            elif one_link and "already" in seq and "done" not in seq and set(seq) <= {*DEFINITE}:
                report.lost += 1     # concurrent clicks: one of them must have been "done"
            if definite[:1] == ["refused"]:
                report.failures.append("a fresh link refused")
        if one_link and (report.done, report.applied) != (1, 1):
            report.failures.append(f"one link: {report.done} answered done, {report.applied} "
                                   "applied (expected 1 and 1)")
        stray = self.db.link_moves() - before.moves - report.applied
        if stray:
            report.failures.append(f"{stray} link moves in the database no click made")

    # -- the scenarios --------------------------------------------------------------------
    def broker_down(self) -> Report:
        return self.scenario(f"broker down {self.outage} s",
                             lambda: self.stack.stop("redis"),
                             lambda: (time.sleep(self.outage), self.stack.start("redis")))

    def relay_down(self) -> Report:
        return self.scenario(f"relay down {self.outage} s", self.stack.sink.down,
                             lambda: (time.sleep(self.outage), self.stack.sink.up()))

    def relay_550(self) -> Report:
        before = self.before()
        # the game's one first email goes to whichever seat the deal makes first, so the
        # relay refuses both addresses: either way that email meets a 550
        refused = [f"gone-{secrets.token_hex(3)}@example.org" for _ in range(2)]
        self.stack.sink.refuse.update(refused)
        operator_start(self.stack, refused)
        report = Report("relay 550 for the address mailed", note="expected: 1 parked at once")
        t0 = time.monotonic()
        self.drain(before.outbox, 60)
        report.drain = time.monotonic() - t0
        self.finish(report, before, {}, parked=1)
        return report

    def slow_relay(self) -> Report:
        sink = self.stack.sink

        gave_up = sink.gave_up

        def heal():
            time.sleep(SMTP_TIMEOUT * 3)
            sink.delay = 0.0
        report = self.scenario(f"relay slower than the {SMTP_TIMEOUT} s timeout",
                               lambda: setattr(sink, "delay", SMTP_TIMEOUT + 2), heal)
        timed_out = sink.gave_up - gave_up
        report.note = f"{timed_out} sends timed out"
        if not timed_out:
            report.failures.append("no send timed out: the fault never bit")
        return report

    def worker_kill(self) -> Report:
        """kill -9 inside a fast batch: the worker is stopped while the moves queue their
        emails, so that on its return one task sends them all (a batch fills with what is
        due) to a relay with no delay, and the sink kills the worker as it takes the batch's
        third email, before its 250 goes back: the one email in flight, which the worker cannot
        know was taken. Its claim lapses after 60 s and it is sent again. A reply's task sends
        its own emails where it runs (workers.celery_app), so the other process may have one
        in flight too: at most one a process."""
        sink, stack = self.stack.sink, self.stack
        report = Report("worker kill -9 inside a fast batch")
        before = self.before()
        links, replies = self.movers(report)
        stack.stop("worker")
        answers = self.click_all(links)
        sent = self.send_replies(replies)
        queued = sum(1 for _, st in self.db.outbox_since(before.outbox) if st == "pending")
        killed, seen = threading.Event(), []

        def kill_in_the_batch():
            seen.append(1)
            if len(seen) == 3 and not killed.is_set():
                os.killpg(stack.procs["worker"].pid, signal.SIGKILL)
                killed.set()
        sink.on_data = kill_in_the_batch
        stack.start("worker")
        landed = killed.wait(60)
        sink.on_data = None
        claims = sum(1 for _, st in self.db.outbox_since(before.outbox) if st == "sending")
        stack.stop("worker", signal.SIGKILL)       # reaps it
        stack.start("worker")
        self.settle(report, before, sent, answers)
        report.note = (f"{queued} emails queued; killed as the relay took the 3rd; {claims} "
                       "claims left, which lapse after 60 s")
        if not landed or not claims:
            report.failures.append("the kill never landed inside a batch")
        return report

    def reply_database_error(self) -> Report:
        """A valid reply arrives while its game's row is locked, and the backend waiting on
        the lock is cancelled (as statement_timeout does) or terminated (a failover, a pooler
        restart): the reply is tried again with backoff and applied once the lock goes."""
        report = Report("database error inside a reply")
        before = self.before()
        _, replies = self.movers(report)
        replies = replies[:2]
        sent, hits = {}, []
        for r, how in zip(replies, ("pg_cancel_backend", "pg_terminate_backend")):
            with self.db.engine.connect() as locker:
                locker.execute(text("SELECT id FROM games WHERE id = :g FOR UPDATE"),
                               {"g": r.game_id})
                pid = locker.execute(text("SELECT pg_backend_pid()")).scalar()
                sent[r] = send_patiently(self.stack, r.raw)
                try:
                    waiting = wait_for(lambda pid=pid: self.db.scalar(text(
                        f"SELECT pid FROM pg_stat_activity WHERE {pid} = "
                        "ANY(pg_blocking_pids(pid))")), 30, "the reply to wait on the lock")
                    self.db.scalar(text(f"SELECT {how}({int(waiting)})"))
                    wait_for(lambda r=r: self.db.inbound([r.message_id]).get(
                        r.message_id, ("", 0))[1] >= 1, 30, "the reply to be handed back")
                    hits.append(how)
                except TimeoutError as exc:
                    report.failures.append(str(exc))
                time.sleep(0.5)
                locker.rollback()
        self.settle(report, before, sent, {})
        report.note = (f"{len(hits)} waiting backends ended "
                       f"({', '.join(hits) or 'none'}); each reply handed back for a retry")
        if len(hits) < 2:
            report.failures.append("the fault never bit")
        return report

    def hung_broker(self) -> Report:
        """Redis stopped with SIGSTOP: it accepts connections and never answers. Each click
        must still answer within a second (the kick waits at most a short bound), and
        /healthz say the broker is down within its own timeout."""
        redis = self.stack.procs["redis"]
        health = []

        def fault():
            os.kill(redis.pid, signal.SIGSTOP)
            t0 = time.monotonic()
            try:
                with urllib.request.urlopen(self.stack.base + "/healthz", timeout=10) as r:
                    status = r.status
            except urllib.error.HTTPError as e:
                status = e.code
            except OSError:
                status = "none"
            health.append((status, time.monotonic() - t0))

        def heal():
            time.sleep(self.hang)
            os.kill(redis.pid, signal.SIGCONT)
        report = self.scenario(f"broker hung (SIGSTOP) {self.hang} s", fault, heal, timed=True)
        status, took = health[0]
        report.note = f"/healthz answered {status} in {took:.2f} s"
        if status != 503:
            report.failures.append("/healthz did not say the broker is down")
        if report.slowest is not None and report.slowest > 1.0:
            report.failures.append(f"a click took {report.slowest:.2f} s (over 1 s)")
        return report

    def relay_refuses_all(self, name: str, answer: str) -> Report:
        """The relay refuses every recipient for a moment (its own trouble, not the
        addresses'): nobody is muted, nothing is parked, and once it takes mail again
        (parked rows, if any, put back with `flask retry`) every game has its turn email."""
        sink = self.stack.sink
        refused = []

        def fault():
            sink.refuse_all = answer
            refused.append(sink.refused_all)

        def heal():
            time.sleep(2.0)
            sink.refuse_all = None
            refused.append(sink.refused_all)
            with self.db.engine.connect() as c:
                parked = [i for (i,) in c.execute(select(OutboxRow.id).where(
                    OutboxRow.status == "parked", OutboxRow.id > self.first_row)).all()]
            if parked:
                subprocess.run([str(BIN / "flask"), "--app", "service.web", "retry",
                                *map(str, parked)], cwd=ROOT, env=self.stack.env(),
                               check=True, capture_output=True, timeout=60)
        self.first_row = self.db.last_outbox()
        report = self.scenario(name, fault, heal)
        mails = self.stack.sink.by_message_id()
        back = sum(1 for g in self.games if self.db.fresh_link(self.stack.base, g, mails))
        report.note = (f"{refused[1] - refused[0]} recipients refused; {back} of "
                       f"{len(self.games)} games have their turn email after")
        if back < len(self.games):
            report.failures.append(f"{len(self.games) - back} games stalled")
        if refused[1] == refused[0]:
            report.failures.append("the fault never bit")
        return report

    def concurrent_replies(self, count: int = 100) -> Report:
        """`count` help replies from one seat, 4 at a time: the cap on answers (10 an hour,
        then an 11th that says it is the last) counted under a lock: 11 answers, 1 notice."""
        report = Report(f"{count} help replies, 4 at a time")
        before = self.before()
        game = start_game(self.stack, 999)     # its own game: the cap counts per seat and hour
        self.drain(before.outbox, 120)
        link = self.db.fresh_link(self.stack.base, game, self.stack.sink.by_message_id())
        if link is None:
            report.failures.append("no turn email to reply to")
            return report
        helps = [reply(link, "help", move=False) for _ in range(count)]
        t0 = time.monotonic()
        sent = self.send_replies(helps, workers=4)
        self.await_replies(report, sent, 240)
        self.drain(before.outbox, 240)
        report.drain = time.monotonic() - t0
        self.finish(report, before, {})
        self.judge_replies(report, sent)
        with self.db.engine.connect() as c:
            ids = [m for (m,) in c.execute(select(OutboxRow.message_id).where(
                OutboxRow.id > before.outbox, OutboxRow.game_id == game,
                OutboxRow.seat == link.seat, OutboxRow.kind.in_(("answer", "refusal")))).all()]
        mails = self.stack.sink.by_message_id()
        notices = sum(1 for m in ids if m in mails and "will not answer again" in " ".join(
            mails[m].get_body(("plain",)).get_content().split()))
        report.note = f"{len(ids)} answers, {notices} saying it is the last (expected 11 and 1)"
        if (len(ids), notices) != (11, 1):
            report.failures.append("the answer cap did not hold")
        return report

    def database_restart(self) -> Report:
        report = Report("database restart (pg_ctl restart)")
        before = self.before()
        links, replies = self.movers(report)
        answers: dict[Link, list[str]] = {link: [] for link in links}
        sent: dict[Reply, str] = {}

        def clicker():
            for link in links:
                answers[link].append(click(link.url))
                time.sleep(0.15)

        def mailer():
            for r in replies:
                sent[r] = send_patiently(self.stack, r.raw)
                time.sleep(0.15)
        threads = [threading.Thread(target=clicker), threading.Thread(target=mailer)]
        for thread in threads:
            thread.start()
        time.sleep(0.3)
        self.stack.pg_ctl("restart")
        for thread in threads:
            thread.join(timeout=180)
        t0 = time.monotonic()
        self.await_replies(report, sent, 240)
        # a click answered 503 (or not at all) may or may not have been applied: the player
        # tries again, and is told "done" or "already done"
        retry = [link for link, seq in answers.items() if seq[-1] not in DEFINITE]
        for link in retry:
            answers[link].append(click(link.url))
        try:
            self.drain(before.outbox, 240)
        except TimeoutError:
            report.failures.append("the outbox did not drain")
        report.drain = time.monotonic() - t0
        report.note = (f"{len(retry)} {'click' if len(retry) == 1 else 'clicks'} answered 503"
                       " and tried again")
        self.finish(report, before, answers)
        self.judge_replies(report, sent)
        return report

    def same_link(self) -> Report:
        report = Report("20 clicks on one link")
        before = self.before()
        link = self.fresh_links(report)[0]
        with ThreadPoolExecutor(max_workers=20) as pool:
            seq = list(pool.map(lambda _: click(link.url), range(20)))
        report.note = "expected: 1 done, 19 already done, 1 applied"
        t0 = time.monotonic()
        self.drain(before.outbox, 60)
        report.drain = time.monotonic() - t0
        self.finish(report, before, {link: seq}, one_link=True)
        return report

    def fuzz_burst(self, count: int) -> Report:
        report = Report(f"burst of {count} fuzzed messages")
        before = self.before()
        inbound_before = self.db.scalar(select(func.count()).select_from(InboundMessage))
        messages = fuzzed(self.stack, self.games, count)
        with ThreadPoolExecutor(max_workers=4) as pool:
            answers = Counter(pool.map(lambda raw: send_inbound(self.stack, raw), messages))
        refused = sum(n for code, n in answers.items() if code != "250")
        t0 = time.monotonic()
        wait_for(lambda: self.db.scalar(select(func.count()).select_from(InboundMessage).where(
            InboundMessage.status.in_(("received", "processing")))) == 0, 240,
            "inbound mail to be processed")
        self.drain(before.outbox, 240)
        report.drain = time.monotonic() - t0
        stored = self.db.scalar(select(func.count()).select_from(InboundMessage)) - inbound_before
        failed = self.db.scalar(select(func.count()).select_from(InboundMessage)
                                .where(InboundMessage.status == "failed"))
        with self.db.engine.connect() as c:
            strangers = c.execute(select(func.count()).select_from(OutboxRow).where(
                OutboxRow.id > before.outbox,
                OutboxRow.to_addr.not_in(select(Player.email)))).scalar()
        self.finish(report, before, {})
        why = ", ".join(f"{n}× {code}" for code, n in answers.items() if code != "250")
        report.note = (f"{stored} stored (+{count - stored - refused} duplicates; refused at "
                       f"SMTP: {why or 'none'}), {failed} failed, {strangers} mails to "
                       "non-players")
        if failed:
            report.failures.append(f"{failed} messages failed")
        if strangers:
            report.failures.append(f"{strangers} mails to non-players")
        return report


@dataclass(frozen=True)
class Reply:
    """A reply to a delivered turn email, as a phone's mail app writes it: the words on top,
    the email quoted below. A move reply's words are one of the moves the email lists."""
    game_id: int
    seat: int
    message_id: str
    raw: bytes = field(compare=False, repr=False)
    move: bool = True


def listed_move(mail) -> str | None:
    """The words of the first one-click move a turn email lists ("* words", then its link)."""
    lines = mail.get_body(("plain",)).get_content().splitlines()
    for n, line in enumerate(lines[:-1]):
        if line.startswith("* ") and LINK.search(lines[n + 1]):
            return line[2:].strip()
    return None


def reply(link: Link, words: str, move: bool = True) -> Reply:
    ours = link.mail
    mid = f"rp.{secrets.token_hex(8)}@phone.example"
    msg = EmailMessage()
    msg["From"] = str(ours["To"])
    msg["To"] = str(ours["Reply-To"])
    msg["Subject"] = "Re: " + str(ours["Subject"])
    msg["Message-ID"] = f"<{mid}>"
    msg["In-Reply-To"] = str(ours["Message-ID"])
    quoted = "\n".join("> " + line for line in
                       ours.get_body(("plain",)).get_content().splitlines()[:12])
    msg.set_content(f"{words}\n\nOn Fri, Nov 27, 2026 at 9:14 AM Turnpost wrote:\n{quoted}\n")
    raw = msg.as_bytes(policy=msg.policy.clone(linesep="\r\n"))
    return Reply(link.game_id, link.seat, mid, raw, move)


def send_patiently(stack: Stack, raw: bytes, seconds: float = 120) -> str:
    """Send to the receiver as a mail server would: a temporary refusal (4xx, or no answer)
    is tried again until the deadline; "250" or the last answer."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            answer = send_inbound(stack, raw)
        except (OSError, smtplib.SMTPException) as exc:
            answer = f"none ({exc.__class__.__name__})"
        if answer == "250" or answer[:1] == "5" or time.monotonic() > deadline:
            return answer
        time.sleep(1.0)


def send_inbound(stack: Stack, raw: bytes) -> str:
    """The receiver's answer: "250", or the code and words of a refusal."""
    try:
        with smtplib.SMTP("127.0.0.1", stack.inbound_port, timeout=30) as smtp:
            smtp.sendmail("someone@example.net", [_reply_address(raw)], raw)
        return "250"
    except smtplib.SMTPRecipientsRefused:
        return "550 no such mailbox"
    except smtplib.SMTPResponseException as exc:   # e.g. 500 a line over 998 bytes (RFC 5321)
        return f"{exc.smtp_code} {exc.smtp_error.decode('utf-8', 'replace')[:40]}"


def _reply_address(raw: bytes) -> str:
    found = re.search(rb"play\+[a-z0-9]+@" + DOMAIN.encode(), raw)
    return found.group(0).decode() if found else f"play+zzzz@{DOMAIN}"


ODD = [b"\x00", b"\r", b"\n", b"\xff", b"\xc3(", b"=?utf-8?q?a=40b.c?=", b"\r\n\r\n", b"<>"]
LINES = [b"help", b"view", b"say hi", b"frobnicate", b"help\n" * 40, b"keep", b""]


def fuzzed(stack: Stack, games: list[list[str]], count: int) -> list[bytes]:
    """Replies to real turn emails, bent: odd bytes spliced into headers and body, foreign
    senders, robots' headers, many lines; plus tests/corpus as it is."""
    rng = random.Random(17)
    mails = [m for m in stack.sink.mails() if m["Reply-To"]]
    corpus = [p.read_bytes() for p in sorted((ROOT / "tests" / "corpus").glob("*.eml"))]
    out = list(corpus)
    while len(out) < count and mails:
        ours = rng.choice(mails)
        msg = EmailMessage()
        msg["From"] = rng.choice([str(ours["To"]), "mallory@evil.example", "noreply@x.example",
                                  "postmaster@x.example"])
        msg["To"] = str(ours["Reply-To"])
        msg["Subject"] = "Re: " + str(ours["Subject"])
        msg["Message-ID"] = f"<fz{len(out)}.{secrets.token_hex(4)}@fuzz.example>"
        msg["In-Reply-To"] = str(ours["Message-ID"])
        if rng.random() < 0.1:
            msg["Auto-Submitted"] = "auto-replied"
        body = b"\r\n".join(rng.choice(LINES).replace(b"\n", b"\r\n")
                            for _ in range(rng.randint(1, 30)))
        msg.set_content("x")
        # SMTP lines end in CRLF (smtplib sends bytes as they are)
        raw = msg.as_bytes(policy=msg.policy.clone(linesep="\r\n"))
        raw = raw.replace(b"\r\n\r\nx\r\n", b"\r\n\r\n" + body + b"\r\n")
        for _ in range(rng.randint(0, 4)):
            at = rng.randint(0, len(raw))
            raw = raw[:at] + rng.choice(ODD) + raw[at:]
        out.append(raw)
    return out[:count]


READING = """## Reading it

The stack is laid out as production runs it (the Procfile): gunicorn from config/gunicorn.py
with 4 sync workers, a Celery worker with 2 processes, beat as its own process, the SMTP
receiver, PostgreSQL 15 and Redis, and the production sweep interval, 60 s
(`make faults-short`, run by CI, sweeps every 5 s and runs a fast subset with 10 s outages).

- *links clicked*, *replies*: every other game moves by reply, sent to the receiver over
  SMTP (the words of a move its turn email lists, written as a phone's mail app writes a
  reply), the others by the link in the turn email its seat to act got for the position the
  game is at now (checked unused in the database first: a mover is never mailed about its own
  move, so its own latest email holds the link it has just used). Both meet every fault but
  the two that are about one way in (20 clicks on one link; a database error inside a
  reply). A reply the receiver answers with a 4xx is sent again, as a mail server would.
- *done*, *already done*, *refused*: what the clicks were told: the done page (the move was
  applied), the "already done" page, or a 4xx (stale, not allowed: nothing applied). Twenty
  clicks on one link: one "done", nineteen "already done", one move applied.
- *moves applied*: the clicked links whose move is in the database (its submission row,
  written in the move's own transaction). *replies applied*: the move replies whose stored
  message ended `applied`. *lost*: a click answered "done" whose move is not there, a fresh
  link's first click answered "already done", or a move reply the receiver took (250) that
  did not end `applied` (`failed`, refused, or still waiting when the deadline came). A fresh
  link refused, an answer that is none of the above, a move no click made, or an email
  neither delivered nor parked fails the run too, and is named in the note.
- *emails expected*: outbox rows the scenario queued (a move mails the seat to act next; a
  `help` reply is answered); *delivered*: their Message-IDs seen by the SMTP sink; *doubled*:
  seen more than once; *parked*: given up (a refusal of the address, 550 5.1.1, is parked at
  once, by design; a parked email in any other scenario fails the run).
- *muted*: seats muted and addresses given up (bounced, suppressed) during the scenario. A
  seat is muted only on evidence about its address (a hard bounce, or a 5.1.x refusal on two
  separate days), so every scenario must show 0, the 550 one included (one day's refusal).
- *relay refuses everyone*: for two seconds the sink answers every RCPT with "554 5.7.1
  Relay access denied" (what Postfix says when it stops trusting the sender), then, in its
  own row, with "450 4.7.1 try again later". Those are the relay's trouble: the emails wait
  and are retried (each sweep probes the relay), nothing is parked or muted, and the note
  counts the games that have their turn email for their position afterwards: all of them.
- *slowest click*: timed only under a hung broker (Redis stopped with SIGSTOP: it accepts
  connections and never answers), the links clicked one at a time as a person would; the
  target is 1 s (the post-response kick waits about 100 ms at most; the email waits for the
  sweep). The note says what /healthz answered and how fast.
- *database error inside a reply*: a valid reply arrives while its game's row is locked, and
  the backend waiting on the lock is cancelled (`pg_cancel_backend`, as statement_timeout
  does) for one reply and terminated (`pg_terminate_backend`, a failover) for another. The
  reply is handed back and retried with backoff, and applied once the lock goes.
- *worker kill -9 inside a fast batch*: the worker is stopped while the moves queue their
  emails, started again so that one task sends them as a batch to a relay with no delay, and
  the sink kills the worker (SIGKILL to its process group) as it takes the batch's third
  email, before its 250 goes back. The worker cannot know the relay has that email (SMTP has
  no way to ask), so it is composed and sent again when its claim lapses after 60 s, under a
  Message-ID of its own (`tp.….2`: a Message-ID names one rendering), and counted as that
  row's: 1 doubled per kill is the floor for the batch. A reply's task sends its own emails
  where it runs, so the worker's other process may have one in flight as well: the run fails
  on more than one a worker process (2). Every other email is marked sent in its own commit
  as soon as the relay's answer is in.
- *100 help replies, 4 at a time*: from one seat of a game of their own: the cap allows 10
  answers an hour and an 11th that says it is the last, counted under the game row's lock,
  so exactly 11 answers and 1 notice whatever the concurrency.
- *503*: the friendly "back in a moment" page while PostgreSQL restarts; the harness clicks
  those links again afterwards, as a person would ("already done" is then an honest answer:
  the first click got through). A bare 500 is a failure.
- Each fault is checked to have bitten: the notes count the sends the slow relay saw
  abandoned, the claims the killed worker left behind, the recipients refused, and the
  waiting backends ended; a count of 0 means the scenario tested nothing, and fails the run.
- *time to drain*: from the end of the fault until every reply is processed and every queued
  email is sent or parked. The sweep runs every 60 s, so what waits for it (an email whose
  kick the broker never took, a relay's return) drains within about a minute; a claim left
  by a killed worker lapses after 60 s, and the next sweep sends its email.
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", action="store_true", help="small numbers, for CI")
    parser.add_argument("--record", type=Path, help="write the table to this Markdown file")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="turnpost-faults-"))
    # the production sweep interval; CI's short run sweeps every 5 s to stay within minutes
    stack = Stack(tmp, Sink(), sweep_seconds=5 if args.short else 60)
    reports: list[Report] = []
    started = time.time()
    try:
        stack.up()
        h = Harness(stack, args.short)
        h.setup(8 if args.short else 30)
        relay_554 = lambda: h.relay_refuses_all(  # noqa: E731
            "relay refuses everyone: 554 5.7.1", "554 5.7.1 <{address}>: Relay access denied")
        relay_450 = lambda: h.relay_refuses_all(  # noqa: E731
            "relay refuses everyone: 450 4.7.1",
            "450 4.7.1 <{address}>: Client host rejected: try again later")
        if args.short:      # the fast subset: what CI must never see regress
            runs = (h.broker_down, h.hung_broker, h.reply_database_error, relay_554,
                    h.relay_550, h.database_restart, h.same_link, h.worker_kill,
                    lambda: h.concurrent_replies(100))
        else:
            runs = (h.broker_down, h.hung_broker, h.relay_down, relay_554, relay_450,
                    h.relay_550, h.slow_relay, h.worker_kill, h.reply_database_error,
                    h.database_restart, h.same_link, lambda: h.concurrent_replies(100),
                    lambda: h.fuzz_burst(1000))
        for run in runs:
            report = run()
            reports.append(report)
            print(report.row(), flush=True)
    finally:
        stack.down()
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    table = HEADER + "\n" + "\n".join(r.row() for r in reports)
    lost = sum(r.lost for r in reports)
    doubled = sum(r.doubled for r in reports)
    # A worker killed between the relay's 250 and marking the row sent cannot know the relay
    # took the message (SMTP has no way to ask): that one race may resend, with the same
    # Message-ID. It is printed, and counted in the verdict, but it does not fail the run;
    # a double anywhere else does.
    kills = [r for r in reports if r.name.startswith("worker kill -9")]
    race = sum(r.doubled for r in kills)
    bare = sum(r.e500 for r in reports)
    muted = sum(r.muted for r in reports)
    slowest = max((r.slowest for r in reports if r.slowest is not None), default=None)
    failures = [f"{r.name}: {f}" for r in reports for f in r.failures]
    failures += [f"{r.name}: {r.doubled} doubled in one kill (at most {WORKER_PROCESSES}, one "
                 f"a worker process)" for r in kills if r.doubled > WORKER_PROCESSES]
    verdict = f"{lost} lost, {doubled} doubled, {muted} muted, {bare} bare 500s"
    if slowest is not None:
        verdict += f", slowest click under a hung broker {slowest:.2f} s"
    if race:
        verdict += f" ({race} of the doubles in the kill -9 race a relay cannot answer)"
    if failures:
        verdict += f"; {len(failures)} other failures"
    wall = time.time() - started
    print("\n" + table + "\n\n" + verdict + f" ({wall:.0f} s in all)")
    for failure in failures:
        print("FAILED:", failure)
    if args.record:
        args.record.write_text(
            "# Fault harness: last run\n\n"
            f"`{'make faults-short' if args.short else 'make faults'}`, "
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(started))}, "
            f"{wall:.0f} s in all. See tools/faults.py for what each scenario "
            "does.\n\n" + table + f"\n\n**{verdict}.**\n\n" + READING)
    return 0 if lost == 0 and doubled - race == 0 and bare == 0 and not failures else 1


if __name__ == "__main__":
    sys.exit(main())
