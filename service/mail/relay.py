"""The outbox relay (DESIGN.md steps 5-6): claim a row, render it, send it, mark it sent.

* Idempotent per row: a row is claimed with a conditional UPDATE, so two workers (or a worker
  and the sweep) never both send it; a sent row is never sent again.
* A failed send goes back to `pending` with the next delay of the retry schedule; when the
  schedule is used up the row is `parked`, where `flask outbox` and the dev outbox page show it.
* A claim older than CLAIM_TIMEOUT (a worker died mid-send) is taken over by the sweep.
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone

from sqlalchemy import and_, or_, select, update
from sqlalchemy.orm import Session

from service.store.db import Database
from service.store.models import OutboxRow

from .transports import SendFailed

CLAIM_TIMEOUT = timedelta(minutes=10)


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


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


def deliver(db: Database, row_id: int, render: Callable[[Session, OutboxRow], object],
            send: Callable[[object], None], schedule: tuple[int, ...],
            clock: Callable[[], datetime] = utcnow) -> str:
    """Send one outbox row. Returns what happened: sent | skipped | retry | parked."""
    claimed_at = clock()
    with db.transaction() as session:
        if not claim(session, row_id, claimed_at):
            return "skipped"
    try:
        with db.transaction() as session:
            row = session.get(OutboxRow, row_id)
            msg = render(session, row)
        send(msg)
    except Exception as exc:   # noqa: BLE001 - any failure, a template bug included, retries
        return _failed(db, row_id, claimed_at, exc, schedule, clock())
    with db.transaction() as session:
        row = session.get(OutboxRow, row_id)
        row.status, row.sent_at, row.last_error = "sent", clock(), None
    return "sent"


def _failed(db: Database, row_id: int, claimed_at: datetime, exc: Exception,
            schedule: tuple[int, ...], now: datetime) -> str:
    reason = str(exc) if isinstance(exc, SendFailed) else f"{type(exc).__name__}: {exc}"
    with db.transaction() as session:
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
        row.next_try = now + timedelta(seconds=schedule[row.attempts - 1])
    return "retry"


def requeue(db: Database, row_id: int, now: datetime) -> bool:
    """An operator's retry of a parked row: back to pending, attempts reset."""
    with db.transaction() as session:
        row = session.get(OutboxRow, row_id)
        if row is None or row.status != "parked":
            return False
        row.status, row.attempts, row.next_try = "pending", 0, now
    return True
