"""The statuses the store's rows go through, each written once. A StrEnum equals its value,
so the rows hold the same words as before and comparisons with stored strings still hold."""
from __future__ import annotations

from enum import StrEnum


class GameStatus(StrEnum):
    FORMING = "forming"     # invitations out, not started
    ACTIVE = "active"
    ENDED = "ended"


class SeatStatus(StrEnum):
    ACTIVE = "active"
    ABSENT = "absent"       # missed turns in a row
    RESIGNED = "resigned"
    FORFEITED = "forfeited"


class OutboxStatus(StrEnum):
    """pending -> sending -> sent; a failure goes back to pending with a later try, then
    parked. Held: a digest player's turn email, waiting for the day's digest. Skipped: a
    notice that news made pointless."""
    PENDING = "pending"
    HELD = "held"
    SENDING = "sending"
    SENT = "sent"
    PARKED = "parked"
    SKIPPED = "skipped"


class InboundStatus(StrEnum):
    """received -> processing -> what processing made of it."""
    RECEIVED = "received"
    PROCESSING = "processing"
    APPLIED = "applied"
    ANSWERED = "answered"
    REFUSED = "refused"
    IGNORED = "ignored"
    DUPLICATE = "duplicate"
    STRANGER = "stranger"       # someone else writing from a seat's address
    BOUNCED = "bounced"
    FAILED = "failed"
