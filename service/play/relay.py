"""The outbox relay (DESIGN.md steps 5-6): claim a row, render it, send it, mark it sent.

* Idempotent per row: a row is claimed with a conditional UPDATE, so two workers (or a worker
  and the sweep) never both send it; a sent row is never sent again.
* A failed send goes back to `pending` with the next delay of the retry schedule; when the
  schedule is used up the row is `parked`, where `flask outbox` and the dev outbox page show it.
* A claim older than CLAIM_TIMEOUT (a worker died mid-send) is taken over by the sweep.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta
from email.message import EmailMessage

from sqlalchemy import and_, or_, select, update
from sqlalchemy.orm import Session

from service import logctx
from service.mail.outbound.compose import Envelope, compose_notice, compose_turn
from service.mail.outbound.transports import SendFailed
from service.presenting import seat_page
from service.store import events as event_store
from service.store.models import GameRow, OutboxRow

from . import bounces, letters, positions, timing
from .services import Services

log = logging.getLogger(__name__)
CLAIM_TIMEOUT = timedelta(minutes=10)


def _claimable(now: datetime):
    return or_(and_(OutboxRow.status == "pending", OutboxRow.next_try <= now),
               and_(OutboxRow.status == "sending", OutboxRow.claimed_at < now - CLAIM_TIMEOUT))


def due(session: Session, now: datetime, limit: int = 500) -> list[int]:
    return list(session.scalars(select(OutboxRow.id).where(_claimable(now))
                                .order_by(OutboxRow.id).limit(limit)))


def claim(session: Session, row_id: int, now: datetime) -> bool:
    result = session.execute(update(OutboxRow)
                             .where(OutboxRow.id == row_id, _claimable(now))
                             .values(status="sending", claimed_at=now))
    return result.rowcount == 1


def deliver(svc: Services, row_ids: list[int]) -> dict[int, str]:
    results = {row_id: deliver_one(svc, row_id) for row_id in row_ids}
    for result in results.values():
        if result != "skipped":
            svc.note("email", event={"retry": "retried"}.get(result, result))
    if results:
        log.info("outbox delivery: %s", results)
    return results


def deliver_one(svc: Services, row_id: int) -> str:
    """Send one outbox row. Returns what happened: sent | skipped | retry | parked."""
    claimed_at = svc.clock.now()
    with svc.db.transaction() as session:
        if not claim(session, row_id, claimed_at):
            return "skipped"
    try:
        with svc.db.transaction() as session:
            row = session.get(OutboxRow, row_id)
            if bounces.unmailable(session, row.to_addr):   # it bounced since it was queued
                row.status = "skipped"
                return "skipped"
            msg = render(session, svc, row)
            msg["Return-Path"] = f"<{svc.urls.bounce_address(row.message_id)}>"
        svc.transport.send(msg)
    except Exception as exc:   # noqa: BLE001 - any failure, a template bug included, retries
        return _failed(svc, row_id, claimed_at, exc)
    with svc.db.transaction() as session:
        row = session.get(OutboxRow, row_id)
        row.status, row.sent_at, row.last_error = "sent", svc.clock.now(), None
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


def _failed(svc: Services, row_id: int, claimed_at: datetime, exc: Exception) -> str:
    reason = str(exc) if isinstance(exc, SendFailed) else f"{type(exc).__name__}: {exc}"
    schedule = svc.retry_schedule
    with svc.db.transaction() as session:
        row = session.get(OutboxRow, row_id)
        if row.status != "sending" or row.claimed_at != claimed_at:
            # a send slower than CLAIM_TIMEOUT: the sweep has taken the row over (and maybe
            # sent it); a late failure here must not undo that
            return "skipped"
        row.attempts += 1
        row.last_error = reason[:2000]
        row.claimed_at = None
        if row.attempts > len(schedule):
            row.status = "parked"
            return "parked"
        row.status = "pending"
        row.next_try = svc.clock.now() + timedelta(seconds=schedule[row.attempts - 1])
    return "retry"


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
