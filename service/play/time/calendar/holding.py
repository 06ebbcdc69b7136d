"""Quiet hours when an email is queued: inside them it is held (status `quiet`) until they end;
service.play.time.calendar.quiet releases it then."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from . import calendarrules
from .seatcalendar import of_seat

HELD = "quiet"
# the answers to a player's own email: they are awake, and asked
ALWAYS_SENT = ("answer", "refusal")


def hold(seat_row: Any, kind: str, status: str, now: datetime) -> tuple[str, datetime]:
    """An outbox row's (status, next_try) as queued at `now` for a seat: held to the end of
    the player's quiet hours when `now` is inside them."""
    if status != "pending" or kind in ALWAYS_SENT:
        return status, now
    calendar = of_seat(seat_row)
    until = calendarrules.quiet_until(now, calendar) if calendar.quiet is not None else None
    return (status, now) if until is None else (HELD, until)
