"""The first step for every inbound message, whichever way it came (SMTP receiver, webhook,
IMAP): store the raw bytes, de-duplicated by Message-ID, before anything else can go wrong.
Processing happens afterwards in a worker (`service.mail.replies.process`)."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from service.store.db import Database
from service.store.models import InboundMessage

from .inbound import parse_message


def store_raw(db: Database, raw: bytes, via: str, now: datetime) -> tuple[int, bool]:
    """Keep the message. Returns (row id, True) for a new message, (existing id, False) for a
    Message-ID seen before — a duplicate delivery, which must not be processed again."""
    message_id = parse_message(raw).message_id[:998]
    try:
        with db.transaction() as session:
            row = InboundMessage(message_id=message_id, raw=raw, via=via, status="received",
                                 received_at=now)
            session.add(row)
            session.flush()
            return row.id, True
    except IntegrityError:
        with db.transaction() as session:
            existing = session.scalar(select(InboundMessage.id)
                                      .where(InboundMessage.message_id == message_id))
            return existing, False
