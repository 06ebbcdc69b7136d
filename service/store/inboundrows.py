"""The inbound table's hot statements, built once and run on the transaction's connection: a
reply is stored, claimed and given its outcome by one statement each. Through the ORM (the
row added and flushed, the claim an ORM-enabled UPDATE, the outcome set on the row read back
with its raw bytes) they are a large share of a reply's CPU (bench/reply_cpu.py measures it)."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import and_, bindparam, func, or_
from sqlalchemy.engine import Connection

from .models import InboundMessage
from .statuses import InboundStatus

INBOUND = InboundMessage.__table__
_WHEN = INBOUND.c.processed_at.type
#: Processing stopped by a transient database error, waiting for its next attempt
#: (service.play.mail.retry).
RETRYING = "retrying"

_INSERT = INBOUND.insert().returning(INBOUND.c.id)


def claimable(lapsed, claimant=None):
    """The rows a worker may take: received and never taken, stopped by the database and
    waiting to be tried again, or taken by a worker that died (its claim older than
    `lapsed`), or by this same `claimant` (a worker's retry, when the database was away too
    long for the claim to be handed back)."""
    taken_back = [INBOUND.c.processed_at < lapsed]
    if claimant is not None:
        taken_back.append(INBOUND.c.claimed_by == claimant)
    return or_(INBOUND.c.status.in_((InboundStatus.RECEIVED, RETRYING)),
               and_(INBOUND.c.status == InboundStatus.PROCESSING, or_(*taken_back)))


# built once (a NULL claimant matches no row's claimed_by)
_CLAIM = (INBOUND.update()
          .where(INBOUND.c.id == bindparam("row_id"),
                 claimable(bindparam("lapsed", type_=_WHEN), bindparam("claimant")))
          .values(status=InboundStatus.PROCESSING,
                  processed_at=bindparam("claimed_at", type_=_WHEN),
                  claimed_by=bindparam("claimant"))
          .returning(INBOUND.c.parsed))

# what became of the message; mail kept for diagnosis (`kept_until`) keeps an earlier date
_OUTCOME = (INBOUND.update()
            .where(INBOUND.c.id == bindparam("row_id"))
            .values(status=bindparam("new_status"),
                    processed_at=bindparam("done_at", type_=_WHEN),
                    outcome=bindparam("text"), game_id=bindparam("game"),
                    seat=bindparam("seat_no"), next_attempt_at=None,
                    expires_at=func.coalesce(INBOUND.c.expires_at,
                                             bindparam("kept_until", type_=_WHEN))))


def insert(conn: Connection, values: dict[str, Any]) -> int:
    """A new row; its id. Raises IntegrityError for a Message-ID stored before."""
    return conn.execute(_INSERT, values).scalar_one()


def claim(conn: Connection, row_id: int, now: datetime, lapsed: datetime,
          claimant: str | None) -> tuple[bool, Any]:
    """Take the row for processing: (False, None) when it is not to be taken (done, or
    another's live claim), else (True, what its raw bytes were parsed into at intake)."""
    row = conn.execute(_CLAIM, {"row_id": row_id, "lapsed": lapsed, "claimed_at": now,
                                "claimant": claimant}).first()
    return (False, None) if row is None else (True, row.parsed)


def write_outcome(conn: Connection, row_id: int, status: str, now: datetime, text: str,
                  game_id: int | None, seat: int | None,
                  kept_until: datetime | None = None) -> None:
    conn.execute(_OUTCOME, {"row_id": row_id, "new_status": status, "done_at": now,
                            "text": text, "game": game_id, "seat_no": seat,
                            "kept_until": kept_until})
