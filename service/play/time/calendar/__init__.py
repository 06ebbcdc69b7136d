"""A person's own time: rest days on which their clocks stand still, quiet hours in which
nobody mails them, the reminders they want before a deadline (service.play.time.calendar.calendarrules, pure),
and the preferences that say so (`prefs`), with the outbox's side of quiet hours (`quiet`).

The hooks elsewhere are one call each: a turn's deadline (timing.track), the next reminder
(timing.set_clock, timeouts.remind), an email's status when queued (notify.values), the release
after quiet hours (periodic.sweep), and the game option `rest_days=` (start, invitations). The
calendar is read from the seat's player record (its columns come with every game read, the
sweep's batches included), so nothing here adds a query per seat."""
from __future__ import annotations

from typing import Any

from . import calendarrules
from .calendarrules import Calendar, CalendarError
from .holding import HELD, hold
from .prefs import KEYS, CalendarRefused, preferences, read_preferences, save_preferences
from .quiet import hold_retry, release_due
from .seatcalendar import of_seat

__all__ = ["HELD", "KEYS", "Calendar", "CalendarError", "CalendarRefused", "game_rest_days",
           "hold", "hold_retry", "of_seat", "preferences", "read_preferences", "release_due",
           "rules", "save_preferences"]


def game_rest_days(options: dict[str, Any]) -> str | None:
    """The game option `rest_days=sat,sun` (every seat's clock stands still on those days, in
    each player's zone) as stored (timing.read_options keeps it from the engine). Raises
    CalendarError (a ClockError) with words."""
    written = options.get("rest_days")
    if written is None:
        return None
    return calendarrules.rest_days_text(calendarrules.parse_rest_days(str(written)))
