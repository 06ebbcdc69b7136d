"""What players do through the web tier: moves by link, moves by reply (the inbound webhook,
applied by the workers), /me of a player with 1,000 games; each beside the bare route under
the same gunicorn. Every move is the first in its game since the seed: cold, as
correspondence makes it."""
from __future__ import annotations

import http.client
import random
import threading
import time
from dataclasses import dataclass, field
from email.message import EmailMessage

from sqlalchemy import text

from bench import bot_move
from service.play import repository
from service.store.statuses import InboundStatus

from .stack import INBOUND_SECRET

CLIENTS = 16


@dataclass
class Driven:
    """One side of a hammer run: seconds driven and each answered request's time."""

    seconds: float = 0.0
    times: list[float] = field(default_factory=list)
    refused: int = 0

    @property
    def rate(self) -> float:
        return len(self.times) / self.seconds if self.seconds else 0.0


def request(port: int, method: str, path: str, body: bytes | None = None,
            headers: dict | None = None) -> tuple[int, float]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    t0 = time.perf_counter()
    conn.request(method, path, body=body, headers=headers or {})
    resp = conn.getresponse()
    resp.read()
    elapsed = time.perf_counter() - t0
    conn.close()
    return resp.status, elapsed


def drive(port: int, next_request, out: Driven, seconds: float, clients: int = CLIENTS) -> None:
    """`clients` threads sending next_request() -> (method, path, body, headers) for
    `seconds` or until it gives None."""
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def client() -> None:
        while time.monotonic() < stop:
            with lock:
                req = next_request()
            if req is None:
                return
            status, elapsed = request(port, *req)
            with lock:
                if status == 200:
                    out.times.append(elapsed)
                else:
                    out.refused += 1

    started = time.monotonic()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.seconds += time.monotonic() - started


def bare_request():
    return ("POST", "/bare", None, None)


def take(pool: list):
    return (lambda: pool.pop() if pool else None)


def links(svc, game_ids: list[int], rng: random.Random) -> list[tuple]:
    """A move link for the seat to act in each game (the easy bot's move), as requests."""
    out = []
    for game_id in game_ids:
        token = bot_move(svc, game_id, rng)
        if token is not None:
            out.append(("POST", f"/m/{token}", None, None))
    return out


def replies(svc, game_ids: list[int], rng: random.Random, tag: str) -> list[tuple]:
    """A reply email for the seat to act in each game, from its player's address, with the
    easy bot's move in words, as webhook requests (POST /inbound/raw)."""
    out = []
    for game_id in game_ids:
        with svc.db.transaction() as s:
            pos = repository.load(s, svc.states, game_id)
            if pos.engine.outcome(pos.state) is not None or not pos.engine.to_act(pos.state):
                continue
            seat = min(pos.engine.to_act(pos.state))
            move = pos.engine.bots["easy"](pos.state, seat, rng)
            address = next(x.player.email for x in pos.row.seats if x.seat == seat)
        reply = EmailMessage()
        reply["From"], reply["To"] = address, svc.urls.reply_address(game_id, seat)
        reply["Subject"] = "Re: your turn"
        reply["Message-ID"] = f"<scale-{tag}-{game_id}@phone.example>"
        reply.set_content(pos.engine.describe(move) + "\n\nOn Sunday Turnpost wrote:\n> ...\n")
        out.append(("POST", "/inbound/raw", reply.as_bytes(),
                    {"Authorization": f"Bearer {INBOUND_SECRET}",
                     "Content-Type": "message/rfc822"}))
    return out


def alternate(port: int, bare_port: int, pool: list, slices: int = 4, slice_s: float = 3.0
              ) -> tuple[Driven, Driven]:
    """The pool's requests and the bare route taking turns, `slices` times `slice_s` s each
    (why: docs/performance.md, "How to measure")."""
    moves, bare = Driven(), Driven()
    for _ in range(slices):
        drive(bare_port, bare_request, bare, slice_s)
        drive(port, take(pool), moves, slice_s)
    return moves, bare


_UNDONE = (InboundStatus.RECEIVED, InboundStatus.PROCESSING)


def applied(db, tag: str, seconds: float = 300) -> tuple[list[float], float, int]:
    """Wait for the tagged replies to be processed: each one's time from stored to applied,
    the rate they were applied at (from the first stored to the last applied), how many
    were not applied (each of those printed with its status and outcome: a reply the service
    refused says why, and one still unprocessed is named as such)."""
    deadline = time.monotonic() + seconds
    sql = text("SELECT id, status, outcome, received_at, processed_at FROM inbound "
               "WHERE message_id LIKE :tag")
    while True:
        with db.engine.connect() as conn:
            rows = conn.execute(sql, {"tag": f"%scale-{tag}-%"}).all()
        # a reply being processed may carry its claim's time already: done is an outcome
        if all(r.status not in _UNDONE for r in rows) or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    done = [r for r in rows if r.status == "applied"]
    for r in rows:
        if r.status != "applied":
            said = (r.outcome or "no outcome yet").strip().splitlines()[0][:160]
            print(f"  reply {r.id} not applied: {r.status}: {said}", flush=True)
    lags = [(r.processed_at - r.received_at).total_seconds() for r in done]
    if not done:
        return [], 0.0, len(rows)
    span = (max(r.processed_at for r in done) - min(r.received_at for r in done)).total_seconds()
    return lags, len(done) / max(span, 1e-3), len(rows) - len(done)


def paced(port: int, pool: list, per_second: float, seconds: float) -> int:
    """The pool's requests sent at `per_second` for `seconds`, each on its own thread."""
    threads, start, n = [], time.monotonic(), 0
    while pool and time.monotonic() - start < seconds:
        wait = start + n / per_second - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        t = threading.Thread(target=request, args=(port, *pool.pop()))
        t.start()
        threads.append(t)
        n += 1
    for t in threads:
        t.join()
    return n


def me_page(port: int, bare_port: int, cookie: str, n: int = 21) -> tuple[list[float],
                                                                             list[float]]:
    """GET /me signed in as the player, and the bare route, one after the other. Four
    requests first, untimed (gunicorn's workers each meet the page once, mostly); then `n`:
    five were too few for a figure on its target's edge (two runs of the same code read 28 and
    98 ms, 2026-12-06)."""
    me, bare = [], []
    for _ in range(4):
        request(port, "GET", "/me", headers={"Cookie": cookie})
    for _ in range(n):
        status, elapsed = request(port, "GET", "/me", headers={"Cookie": cookie})
        assert status == 200, status
        me.append(elapsed)
        bare.append(request(bare_port, *bare_request()[:2])[1])
    return me, bare


def session_cookie(app, player_id: int) -> str:
    """The signed session cookie of a player signed in (Flask's own serializer)."""
    value = app.session_interface.get_signing_serializer(app).dumps({"player": player_id})
    return f"{app.config.get('SESSION_COOKIE_NAME', 'session')}={value}"

