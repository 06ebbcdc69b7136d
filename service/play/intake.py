"""The first step for every inbound message, whichever way it came (SMTP receiver, webhook,
IMAP): store the raw bytes with what they parse into, de-duplicated by Message-ID, before
anything else can go wrong; then have a worker act on it (`service.play.replies.process`)."""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from service.mail.inbound.parse import parse_message
from service.store.models import InboundMessage

from .services import Services


def accept_mail(svc: Services, raw: bytes, via: str) -> tuple[int, bool]:
    """Keep the message and queue its processing. Returns (row id, True) for a new message,
    (existing id, False) for a Message-ID seen before — a duplicate delivery, which must not
    be processed again."""
    row_id, new = store_raw(svc, raw, via)
    svc.note("inbound", event="stored" if new else "duplicate")
    if new:
        svc.kick("process_inbound", row_id)
    return row_id, new


def store_raw(svc: Services, raw: bytes, via: str) -> tuple[int, bool]:
    mail = parse_message(raw)     # parsed once: processing reads the stored result
    message_id = mail.message_id[:998]
    try:
        with svc.db.transaction() as session:
            row = InboundMessage(message_id=message_id, raw=raw, via=via, status="received",
                                 parsed=mail.to_json(), received_at=svc.clock.now())
            session.add(row)
            session.flush()
            return row.id, True
    except IntegrityError:
        with svc.db.transaction() as session:
            existing = session.scalar(select(InboundMessage.id)
                                      .where(InboundMessage.message_id == message_id))
            return existing, False
