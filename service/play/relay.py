"""The outbox relay (DESIGN.md steps 5-6): claim a row, render it, send it, mark it sent.

* Idempotent per row: a row is claimed with a conditional UPDATE under a random claim, so two
  workers (or a worker and the sweep) never both send it; a sent row is never sent again.
* A claim lasts CLAIM_TIMEOUT and is renewed by a heartbeat while the send runs: a slow relay
  keeps its row, and the row of a worker killed mid-send is taken over within a minute.
* A permanent refusal (5xx) is parked at once with the relay's reason, and that seat's mail
  for the game muted. Anything else goes back to `pending` with the next delay of the retry
  schedule, and is parked when the schedule is used up (`flask outbox`, the dev outbox page).
* While rows wait for a retry, each sweep probes the relay with one of them (a probe that
  fails costs the row no attempt); once one goes through, all the waiting rows go: mail flows
  within a sweep of the relay answering again.
* Marking a row sent is retried through a database blip, so a message that went out is not
  sent again; the relay's answer ("queued as ...") is kept with the row.
"""
from __future__ import annotations

import logging
import secrets
import threading
import time
from datetime import datetime, timedelta
from email.message import EmailMessage

from sqlalchemy import and_, or_, select, update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from service import logctx
from service.mail.outbound.compose import Envelope, compose_notice, compose_turn
from service.mail.outbound.transports import SendFailed, SendRefused
from service.presenting import seat_page
from service.store import events as event_store
from service.store.models import GameRow, OutboxRow, Seat

from . import bounces, letters, positions, timing
from .services import Services

log = logging.getLogger(__name__)
CLAIM_TIMEOUT = timedelta(seconds=60)
HEARTBEAT_SECONDS = 20.0
#: Pauses between tries to mark a sent row sent, through a database restart (about 2 min).
MARK_SENT_PAUSES = (0.2, 0.5, 1, 1, 2, 2, 4, 4, 8, 8, 15, 15, 15, 15, 15, 15)
RELAY = "mail relay"


def _claimable(now: datetime, early: bool = False):
    waiting = OutboxRow.status == "pending"
    if not early:
        waiting = and_(waiting, OutboxRow.next_try <= now)
    return or_(waiting,
               and_(OutboxRow.status == "sending", OutboxRow.claimed_at < now - CLAIM_TIMEOUT))


def due(session: Session, now: datetime, limit: int = 500) -> list[int]:
    return list(session.scalars(select(OutboxRow.id).where(_claimable(now))
                                .order_by(OutboxRow.id).limit(limit)))


def claim(session: Session, row_id: int, now: datetime, token: str = "",
          early: bool = False) -> bool:
    result = session.execute(update(OutboxRow)
                             .where(OutboxRow.id == row_id, _claimable(now, early))
                             .values(status="sending", claimed_at=now, claim=token or None))
    return result.rowcount == 1


class Heartbeat:
    """Renews a row's claim every HEARTBEAT_SECONDS while its send runs."""

    def __init__(self, svc: Services, row_id: int, token: str):
        self.svc, self.row_id, self.token = svc, row_id, token
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, daemon=True,
                                        name=f"outbox-heartbeat-{row_id}")

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _beat(self) -> None:
        while not self._stop.wait(HEARTBEAT_SECONDS):
            try:
                with self.svc.db.transaction() as session:
                    session.execute(update(OutboxRow).where(
                        OutboxRow.id == self.row_id, OutboxRow.claim == self.token,
                        OutboxRow.status == "sending").values(claimed_at=self.svc.clock.now()))
            except DBAPIError:
                pass    # the database is away: marking the row will say so, once


def deliver(svc: Services, row_ids: list[int]) -> dict[int, str]:
    results = {row_id: deliver_one(svc, row_id) for row_id in row_ids}
    for result in results.values():
        if result != "skipped":
            svc.note("email", event={"retry": "retried"}.get(result, result))
    if results:
        log.info("outbox delivery: %s", results)
    return results


def deliver_one(svc: Services, row_id: int, *, probe: bool = False) -> str:
    """Send one outbox row. Returns what happened: sent | skipped | retry | parked | waiting
    (a probe that failed). A probe sends a row before its next try, to see whether the
    relay answers again."""
    token = secrets.token_hex(8)
    with svc.db.transaction() as session:
        if not claim(session, row_id, svc.clock.now(), token, early=probe):
            return "skipped"
    with Heartbeat(svc, row_id, token):
        try:
            with svc.db.transaction() as session:
                row = session.get(OutboxRow, row_id)
                if bounces.unmailable(session, row.to_addr):   # it bounced since it was queued
                    row.status, row.claim = "skipped", None
                    return "skipped"
                msg = render(session, svc, row)
                msg["Return-Path"] = f"<{svc.urls.bounce_address(row.message_id)}>"
            relay_id = svc.transport.send(msg)
        except Exception as exc:   # noqa: BLE001 - any failure, a template bug included, retries
            return _failed(svc, row_id, token, exc, probe)
        svc.outages.ok(RELAY)
        return _mark_sent(svc, row_id, relay_id)


def _mark_sent(svc: Services, row_id: int, relay_id) -> str:
    """The message went out: record it, through a database restart if need be. Until it is
    recorded the heartbeat keeps the claim, so the row is not taken over and sent again."""
    for pause in (0, *MARK_SENT_PAUSES):
        time.sleep(pause)
        try:
            with svc.db.transaction() as session:
                row = session.get(OutboxRow, row_id)
                row.status, row.sent_at, row.last_error = "sent", svc.clock.now(), None
                row.claim, row.relay_id = None, str(relay_id or "")[:200] or None
            svc.outages.ok("database")
            return "sent"
        except DBAPIError as exc:
            svc.outages.failed("database", f"{type(exc).__name__} marking outbox row "
                               f"{row_id} sent; retrying")
    log.error("outbox row %s was sent (%s) but could not be marked sent", row_id, relay_id)
    return "sent"


def render(session: Session, svc: Services, row: OutboxRow) -> EmailMessage:
    """The email of one outbox row: the seat's position at the row's `seq`, with the news
    since the seat's previous turn email."""
    logctx.bind(game=row.game_id, seat_=row.seat)
    envelope = Envelope(row.message_id, row.to_addr, svc.from_name, row.created_at)
    if row.kind in letters.KINDS:
        return letters.render(session, svc, row, envelope)
    if row.game_id is None:   # a notice outside any game, or an invitation to take a seat
        p = row.payload or {}
        return compose_notice(svc.templates, svc.urls, envelope, why=p.get("why", ""),
                              subject=p.get("subject", ""), in_reply_to=p.get("in_reply_to"),
                              kind="invite" if row.kind == "invite" else "notice")
    game = session.get(GameRow, row.game_id)
    pos = positions.load(session, svc.states, row.game_id, upto=row.seq)
    names = [s.player.name for s in game.seats]
    # the table is told when mail to one of them bounced (they get nothing any more)
    bounced = [s.player.name for s in game.seats if s.player.bounced_at is not None]
    news = [(r.seq, r.event) for r in
            event_store.load(session, game, after=row.since_seq, upto=row.seq)]
    page = seat_page(pos.engine, game.id, game.kind, pos.state, pos.seq, row.seat, names, news)
    timing.dress(page, game, svc.clock.now())
    links = svc.urls.for_seat(game.id, row.seat, page.mark, page.holder)
    return compose_turn(svc.templates, page, links, envelope,
                        extra=dict(row.payload or {}, kind=row.kind, bounced=bounced))


def _failed(svc: Services, row_id: int, token: str, exc: Exception, probe: bool) -> str:
    if isinstance(exc, SendFailed):
        reason = str(exc)
        if not isinstance(exc, SendRefused):
            svc.outages.failed(RELAY, reason)
    else:
        reason = f"{type(exc).__name__}: {exc}"
        log.exception("outbox row %s could not be rendered or sent", row_id)
    with svc.db.transaction() as session:
        row = session.get(OutboxRow, row_id)
        if row.status != "sending" or row.claim != token:
            # our claim lapsed and another worker took the row over (and maybe sent it); a
            # late failure here must not undo that
            return "skipped"
        row.claimed_at, row.claim = None, None
        row.last_error = reason[:2000]
        if isinstance(exc, SendRefused):
            return _refused(session, row, reason)
        if probe:
            row.status = "pending"     # the relay is still away; the row keeps its schedule
            return "waiting"
        return _retry_later(svc, row)


def _retry_later(svc: Services, row: OutboxRow) -> str:
    schedule = svc.retry_schedule
    row.attempts += 1
    if row.attempts > len(schedule):
        row.status = "parked"
        return "parked"
    row.status = "pending"
    row.next_try = svc.clock.now() + timedelta(seconds=schedule[row.attempts - 1])
    return "retry"


def _refused(session: Session, row: OutboxRow, reason: str) -> str:
    """Refused for good: parked at once, and the seat's mail for this game muted (its
    address does not take our mail; the player can still play on the game page)."""
    row.attempts += 1
    row.status = "parked"
    if row.game_id is not None and row.seat is not None:
        seat = session.get(Seat, (row.game_id, row.seat))
        if seat is not None:
            seat.muted = True
    log.warning("outbox row %s to %s refused by the relay, parked: %s", row.id, row.to_addr,
                reason[:300])
    return "parked"


def probe(svc: Services) -> dict[int, str]:
    """While rows wait for a retry, try one of them now; when it goes through, send every
    waiting row. (A sweep runs every minute: mail flows within one of the relay's return.)"""
    with svc.db.transaction() as session:
        waiting = list(session.scalars(
            select(OutboxRow.id).where(OutboxRow.status == "pending", OutboxRow.attempts > 0,
                                       OutboxRow.next_try > svc.clock.now())
            .order_by(OutboxRow.next_try, OutboxRow.id).limit(500)))
    if not waiting:
        return {}
    first = deliver_one(svc, waiting[0], probe=True)
    if first != "sent":
        return {waiting[0]: first}
    return {waiting[0]: first} | {row_id: deliver_one(svc, row_id, probe=True)
                                  for row_id in waiting[1:]}


def requeue(svc: Services, row_ids: list[int]) -> list[int]:
    """An operator's retry of parked rows: back to pending, attempts reset, sent now."""
    done = []
    with svc.db.transaction() as session:
        for row_id in row_ids:
            row = session.get(OutboxRow, row_id)
            if row is not None and row.status == "parked":
                row.status, row.attempts, row.next_try = "pending", 0, svc.clock.now()
                done.append(row_id)
    svc.kick("deliver", done)
    return done
