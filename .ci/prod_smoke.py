"""Driver of .ci/prod-smoke: start `make prod` on PostgreSQL + Redis with mail to an SMTP sink,
play a Trees game by a link move and a reply move, check the emails and /metrics, stop it all.
Everything listens on 127.0.0.1; every wait is bounded."""
from __future__ import annotations

import os
import re
import secrets
import signal
import smtplib
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import psycopg
import redis
from aiosmtpd.controller import Controller

ROOT = Path(__file__).resolve().parent.parent
PG = "postgresql://postgres@127.0.0.1:5432"
DB = "turnpost_smoke"
REDIS_DB = 15
ANNA, BEN = "anna@smoke.example.org", "ben@smoke.example.org"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Sink:
    """The SMTP relay: keeps every message it is handed."""

    def __init__(self):
        self.messages: list = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        msg = BytesParser(policy=policy.default).parsebytes(envelope.content)
        with self.lock:
            self.messages.append(msg)
        return "250 OK"

    def to(self, addr: str) -> list:
        with self.lock:
            return [m for m in self.messages if m["To"] == addr]


def wait_for(what: str, check, seconds: float = 120):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        time.sleep(0.5)
    raise SystemExit(f"prod-smoke: timed out waiting for {what}")


def http(url: str, data: bytes | None = None) -> tuple[int, str]:
    req = urllib.request.Request(url, data=data, method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()
    except OSError:
        return 0, ""


def move_links(msg, base: str) -> list[tuple[str, str]]:
    lines = msg.get_body(("plain",)).get_content().splitlines()
    link = re.compile(re.escape(base) + r"/m/[A-Za-z0-9_.\-]+")
    return [(line[2:].strip(), link.search(lines[n + 1]).group(0))
            for n, line in enumerate(lines[:-1])
            if line.startswith("* ") and link.search(lines[n + 1])]


def fresh_stores() -> None:
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB}")
        conn.execute(f"CREATE DATABASE {DB}")
    redis.Redis(host="127.0.0.1", port=6379, db=REDIS_DB).flushdb()


def seq_of() -> int:
    """The game's last event number, read from its log: the API's record is for the game's
    players and, once it is over, the public, so an anonymous request is answered 404 here."""
    with psycopg.connect(f"{PG}/{DB}") as conn:
        row = conn.execute("SELECT max(seq) FROM events WHERE game_id = 1").fetchone()
    return row[0] if row and row[0] is not None else -1


def play(base: str, sink: Sink, env: dict, inbound_port: int) -> None:
    flask = [str(ROOT / ".venv/bin/flask"), "--app", "service.web"]
    subprocess.run([*flask, "start-game", "trees", f"Anna <{ANNA}>", f"Ben <{BEN}>"],
                   cwd=ROOT, env=env, check=True, timeout=60)
    # by default a player is mailed when it is their move: the first player's email
    wait_for("the first player's email", lambda: sink.to(ANNA) or sink.to(BEN))
    # 1. a move by link: GET shows a button, POST moves
    mover = next(a for a in (ANNA, BEN) if sink.to(a) and move_links(sink.to(a)[-1], base))
    other = BEN if mover == ANNA else ANNA
    text, url = move_links(sink.to(mover)[-1], base)[0]
    assert http(url)[0] == 200
    before, seen = seq_of(), len(sink.to(other))
    status, _ = http(url, b"")
    assert status == 200, f"link move answered {status}"
    wait_for("the link move's emails", lambda: len(sink.to(other)) > seen)
    assert seq_of() > before
    print(f"prod-smoke: link move {text!r} by {mover} applied")
    # 2. a move by reply, through the SMTP receiver and a worker
    mover, other = other, mover
    turn = sink.to(mover)[-1]
    text = move_links(turn, base)[0][0]
    reply = EmailMessage()
    reply["From"], reply["To"] = mover, turn["Reply-To"]
    reply["Subject"] = "Re: " + turn["Subject"]
    reply["Message-ID"] = f"<{secrets.token_hex(8)}@smoke.example.org>"
    reply["In-Reply-To"] = reply["References"] = turn["Message-ID"]
    reply.set_content(f"{text}\n\nOn Tuesday Turnpost wrote:\n> your move\n")
    before, seen = seq_of(), len(sink.to(other))
    with smtplib.SMTP("127.0.0.1", inbound_port, timeout=10) as smtp:
        smtp.send_message(reply)
    wait_for("the reply move's emails", lambda: len(sink.to(other)) > seen)
    assert seq_of() > before, "the reply was not applied"
    print(f"prod-smoke: reply move {text!r} by {mover} applied")


def check_metrics(base: str) -> None:
    status, body = http(f"{base}/metrics")
    assert status == 200, status
    for source in ("link", "email"):
        pattern = 'turnpost_moves_total{outcome="applied",source="' + source + '"} '
        m = re.search(re.escape(pattern) + r"(\S+)", body)
        assert m and float(m.group(1)) >= 1, f"no applied {source} move in /metrics"
    m = re.search(r'turnpost_emails_total\{event="sent"\} (\S+)', body)
    # one "your move" email each: the first player's, and one after each of the two moves
    assert m and float(m.group(1)) >= 3, "emails sent not counted"
    print("prod-smoke: /metrics counts the moves and emails of every process")


def main() -> int:
    fresh_stores()
    sink = Sink()
    relay = Controller(sink, hostname="127.0.0.1", port=free_port())
    relay.start()
    web, inbound = free_port(), free_port()
    base = f"http://127.0.0.1:{web}"
    env = dict(os.environ, TURNPOST_DATABASE_URL=f"postgresql+psycopg://postgres@127.0.0.1:5432/{DB}",
               TURNPOST_BROKER_URL=f"redis://127.0.0.1:6379/{REDIS_DB}",
               TURNPOST_SECRET_KEY=secrets.token_hex(32), TURNPOST_BASE_URL=base,
               TURNPOST_WEB_BIND=f"127.0.0.1:{web}", TURNPOST_WEB_WORKERS="2",
               TURNPOST_MAIL_TRANSPORT="smtp", TURNPOST_SMTP_HOST="127.0.0.1",
               TURNPOST_SMTP_PORT=str(relay.port), TURNPOST_MAIL_DOMAIN="turnpost.smoke",
               TURNPOST_INBOUND_SMTP_HOST="127.0.0.1", TURNPOST_INBOUND_SMTP_PORT=str(inbound),
               TURNPOST_SWEEP_SECONDS="5", TURNPOST_LOG_FORMAT="json")
    log = open(ROOT / "var" / "prod-smoke.log", "w") if (ROOT / "var").is_dir() else \
        open("/tmp/turnpost-prod-smoke.log", "w")
    proc = subprocess.Popen(["make", "prod"], cwd=ROOT, env=env, stdout=log,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_for("the web process", lambda: http(f"{base}/healthz")[0] == 200, 240)
        play(base, sink, env, inbound)
        check_metrics(base)
    except BaseException:
        log.flush()
        print(Path(log.name).read_text()[-6000:], file=sys.stderr)
        raise
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        relay.stop()
    print("prod-smoke: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
