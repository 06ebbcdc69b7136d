"""The first step for every inbound message, whichever way it came (SMTP receiver, webhook,
IMAP): store the raw bytes with what they parse into, de-duplicated by Message-ID, before
anything else can go wrong; then have a worker act on it (`service.play.mail.replies.process`).

Whatever its bytes, a message is stored: the parser never raises and cleans what it hands on
(service.mailwire.inbound.parse: Message-IDs that are not plain ASCII become a hash of their
bytes, NULs and undecodable bytes are replaced). Mail for no reply address of ours (a guessed
or broken play+ token) is kept only for diagnosis: cut to TURNPOST_INBOUND_UNKNOWN_MAX_BYTES
and deleted UNKNOWN_KEPT after by the sweep."""
from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from service.linking.signer import TokenError
from service.mailwire.inbound.parse import InboundMail, parse_message, reply_tokens
from service.play import aftercommit, notify
from service.play.services import Services
from service.store import inboundrows
from service.store.models import InboundMessage, OutboxRow
from service.store.statuses import InboundStatus

UNKNOWN_KEPT = timedelta(days=7)


def accept_mail(svc: Services, raw: bytes, via: str) -> tuple[int, bool]:
    """Keep the message and queue its processing. Returns (row id, True) for a new message,
    (existing id, False) for a Message-ID seen before — a duplicate delivery, which must not
    be processed again."""
    row_id, new = store_raw(svc, raw, via)
    svc.note("inbound", event="stored" if new else "duplicate")
    return row_id, new


def store_raw(svc: Services, raw: bytes, via: str) -> tuple[int, bool]:
    raw = bytes(raw)
    mail = parse_message(raw)     # parsed once: processing reads the stored result
    message_id = mail.message_id[:998]
    now = svc.clock.now()
    expires_at = None
    if not is_for_us(svc, mail):
        raw = raw[:svc.settings.INBOUND_UNKNOWN_MAX_BYTES]
        expires_at = now + UNKNOWN_KEPT
    try:
        # one statement: no BEGIN or COMMIT round trip for it (Database.autocommit)
        with svc.db.autocommit() as session:
            row_id = inboundrows.insert(session.connection(), {
                "message_id": message_id, "raw": raw, "via": via,
                "status": InboundStatus.RECEIVED, "parsed": mail.to_json(), "attempts": 0,
                "received_at": now, "expires_at": expires_at})
            aftercommit.inbound(session, row_id)     # processed once it is kept
            return row_id, True
    except IntegrityError:
        with svc.db.transaction() as session:
            existing = session.scalar(select(InboundMessage.id)
                                      .where(InboundMessage.message_id == message_id))
            return existing, False


def is_for_us(svc: Services, mail: InboundMail) -> bool:
    """A genuine reply address of ours among the recipients, or a reply to one of our emails
    (by its random Message-ID: the guessable thread root does not count)."""
    for token in reply_tokens(mail, svc.urls.domain):
        try:
            svc.urls.signer.read_reply_token(token)
            return True
        except TokenError:
            continue
    ours = [notify.row_message_id(ref.partition("@")[0])
            for ref in [*mail.in_reply_to, *mail.references]
            if ref.endswith("@" + svc.urls.domain) and ref.startswith("tp.")]
    if not ours:
        return False
    with svc.db.transaction() as session:
        return session.scalar(select(OutboxRow.id).where(OutboxRow.message_id.in_(ours[:50]))
                              .limit(1)) is not None


def forget_expired(svc: Services, now: datetime) -> int:
    """The sweep's part: delete stored mail past its diagnosis window."""
    with svc.db.transaction() as session:
        return session.execute(delete(InboundMessage).where(
            InboundMessage.expires_at.is_not(None), InboundMessage.expires_at < now,
            InboundMessage.status != InboundStatus.PROCESSING)).rowcount
