"""Operators' and players' bookkeeping: listing outbox and inbound rows by status, muting a
seat's mail. Small use cases, so the CLI and pages never reach into the store themselves."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select, text

from service.store.models import InboundMessage, OutboxRow, Seat

from .services import Services


@dataclass(frozen=True)
class OutboxLine:
    id: int
    game_id: int | None
    to_addr: str
    kind: str
    attempts: int
    last_error: str


@dataclass(frozen=True)
class InboundLine:
    id: int
    via: str
    message_id: str
    outcome: str


def outbox(svc: Services, status: str) -> list[OutboxLine]:
    with svc.db.transaction() as session:
        rows = session.scalars(select(OutboxRow).where(OutboxRow.status == status)
                               .order_by(OutboxRow.id)).all()
        return [OutboxLine(r.id, r.game_id, r.to_addr, r.kind, r.attempts, r.last_error or "")
                for r in rows]


def inbound(svc: Services, status: str) -> list[InboundLine]:
    with svc.db.transaction() as session:
        rows = session.scalars(select(InboundMessage).where(InboundMessage.status == status)
                               .order_by(InboundMessage.id)).all()
        return [InboundLine(r.id, r.via, r.message_id, r.outcome or "") for r in rows]


def mute_seat(svc: Services, game_id: int, seat: int | None) -> bool:
    """Stop a seat's mail for one game (its unsubscribe link). The game goes on."""
    with svc.db.transaction() as session:
        row = session.get(Seat, (game_id, seat)) if seat is not None else None
        if row is None:
            return False
        row.muted = True
        return True


def database_down(svc: Services) -> str | None:
    """None when the database answers a query; else why not, in one line (for /healthz)."""
    try:
        with svc.db.transaction() as session:
            session.execute(text("SELECT 1"))
        return None
    except Exception as exc:  # noqa: BLE001 - any failure means down; say which
        return f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
