"""What a relay's refusal says about an address. A seat or an address is muted only on
evidence about the address itself: a hard bounce (play.bounces), or the relay refusing the
address with a per-recipient permanent code (RFC 3463 5.1.x: no such mailbox) on two separate
UTC days. Anything else the relay refuses (a 5.7.x policy refusal such as "Relay access
denied", a "500 Error" without a code, every recipient of a batch at once) is the relay's bad
minute: the emails wait and are tried again, and an operator is told."""
from __future__ import annotations

import re
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from service.store.models import AddressRefusal, OutboxRow, Seat
from service.store.statuses import OutboxStatus

from . import bounces

#: A parked row's last_error that named the address: "recipient refused: <addr>: 550 5.1.1 ..."
_ABOUT_ADDRESS = re.compile(r"^recipient refused: .*?: 5\d\d 5\.1\.\d{1,3}(?!\S)")
#: a permanent refusal of the email, as the relay wrote it down (mailwire.outbound.transports)
_REFUSED = re.compile(r"^(recipient refused: .*?: 5\d\d\b|message refused: 5\d\d\b)")


def about_address(last_error: str | None) -> bool:
    """Whether a refusal written down in an outbox row's last_error was about its address
    (5.1.x to its recipient), rather than the relay's own trouble."""
    return bool(_ABOUT_ADDRESS.match(last_error or ""))


def record(session: Session, address: str, answer: str, now: datetime) -> bool:
    """Note that the relay refused `address` today with a 5.1.x code; True when that makes
    two separate days, and the address is muted everywhere (as after a hard bounce)."""
    addr, day = address.lower(), now.date()
    if session.get(AddressRefusal, (addr, day)) is None:
        session.add(AddressRefusal(address=addr, day=day, refused_at=now, answer=answer[:2000]))
        session.flush()
    days = session.scalar(select(func.count()).select_from(AddressRefusal)
                          .where(AddressRefusal.address == addr))
    if days < 2:
        return False
    bounces.mute_address(session, addr, now)
    return True


def unmute(session: Session, row: OutboxRow, now: datetime) -> list[int]:
    """An operator retries a parked email that the relay refused. The relay used to mute the
    seat on any refusal; it no longer mutes a seat at all, so a seat muted that way was muted
    on no evidence, and its player expects their mail back: the seat is unmuted and its
    latest turn email, skipped while it was muted, queued again (their game goes on; older
    skipped emails would only show stale positions). Returns that email's row id, if any."""
    if row.game_id is None or row.seat is None or not _REFUSED.match(row.last_error or ""):
        return []
    seat = session.get(Seat, (row.game_id, row.seat))
    if seat is None or not seat.muted:
        return []
    seat.muted = False
    latest = session.scalars(
        select(OutboxRow).where(OutboxRow.game_id == row.game_id, OutboxRow.seat == row.seat,
                                OutboxRow.kind == "turn", OutboxRow.status == OutboxStatus.SKIPPED,
                                OutboxRow.id > row.id)
        .order_by(OutboxRow.id.desc()).limit(1)).first()
    if latest is None:
        return []
    latest.status, latest.attempts, latest.next_try = OutboxStatus.PENDING, 0, now
    latest.claim = None
    return [latest.id]
