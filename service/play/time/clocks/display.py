"""Deadlines as a player reads them: "Tue 24 Nov, 18:00 CET (in 2 days)" in their time zone,
named, and in the language of the moment ("Di., 24. Nov., 18:00 CET (in 2 Tagen)").

The instant is always the UTC one stored; only its rendering uses the zone, so a
daylight-saving change moves the wall time shown, never the deadline."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_date

from service.mailwire.outbound import catalogs
from service.mailwire.outbound.catalogs import _, ngettext

from .control import TimeControl
from .seat import SeatClock, time_left, utc

# English names whatever the process locale (strftime's %a and %b follow the locale).
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun",
           "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
#: the other languages' day and date (Babel's patterns), this year's and another year's
_DATE_PATTERNS = {"de": ("EEE, d. MMM", "EEE, d. MMM y"), "fr": ("EEE d MMM", "EEE d MMM y")}


def player_zone(name: str | None) -> tzinfo | None:
    """The zone named (IANA, e.g. "Europe/London"), or None when unset or unknown."""
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):   # ValueError: a malformed key like "../x"
        return None


def format_deadline(deadline: datetime, now: datetime, zone: str | None = None, *,
                    from_now: bool = True) -> str:
    """"Tue 24 Nov, 18:00 CET (in 2 days)" in the player's zone, which it names: a bare time
    would be read as the reader's local time wherever the email is opened (on a trip, on a
    phone still set to home). Without a known zone the time is UTC and says so ("18:00 UTC").
    The year is added when it is not the current one. `from_now=False` leaves out "(in 2
    days)", for text read later than it is written (a feed)."""
    local_zone = player_zone(zone)
    shown = utc(deadline).astimezone(local_zone or UTC)
    today = utc(now).astimezone(local_zone or UTC)
    text = _day_words(shown, shown.year != today.year)
    text += f", {shown:%H:%M} {zone_label(shown)}"
    return f"{text} ({relative(deadline, now)})" if from_now else text


def _day_words(shown: datetime, with_year: bool) -> str:
    patterns = _DATE_PATTERNS.get(catalogs.current())
    if patterns is not None:
        return format_date(shown, patterns[with_year], locale=catalogs.current())
    text = f"{_DAYS[shown.weekday()]} {shown.day} {_MONTHS[shown.month - 1]}"
    return f"{text} {shown.year}" if with_year else text


def zone_label(shown: datetime) -> str:
    """The zone of a local time, as its readers know it: the abbreviation the zone uses on that
    date ("CET", "CEST", "EST", "GMT", "UTC"), or the offset from UTC where the zone has no
    letters for it ("UTC-3" for São Paulo, "UTC+5:30")."""
    name = shown.tzname() or ""
    if name.isalpha():
        return name
    offset = shown.utcoffset() or timedelta(0)
    sign = "-" if offset < timedelta(0) else "+"
    minutes = abs(offset) // timedelta(minutes=1)
    if not minutes:
        return "UTC"
    hours, rest = divmod(minutes, 60)
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


def relative(deadline: datetime, now: datetime) -> str:
    """"in 2 days", "in 5 hours", "in 40 minutes", "in less than a minute" or "overdue".
    Rounded to the nearest unit, so a turn email rendered seconds after a 3-day turn began
    still says "in 3 days"; the exact time stands beside it."""
    left = utc(deadline) - utc(now)
    if left <= timedelta(0):
        return _("overdue")
    minutes = round(left / timedelta(minutes=1))
    if minutes < 1:
        return _("in less than a minute")
    if minutes < 60:
        return ngettext("in %(num)d minute", "in %(num)d minutes", minutes)
    hours = round(minutes / 60)
    if hours < 48:
        return ngettext("in %(num)d hour", "in %(num)d hours", hours)
    return ngettext("in %(num)d day", "in %(num)d days", round(hours / 24))


def deadline_iso(deadline: datetime) -> str:
    """For `<time datetime="...">`: "2026-11-24T18:00:00Z"."""
    return utc(deadline).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def clock_view(tc: TimeControl, clock: SeatClock, now: datetime,
               zone: str | None = None) -> dict[str, Any]:
    """A seat's clock for the game page and history, JSON-safe (templates get views). While
    the player is on vacation the deadline is not yet known (it moves on their return): only
    the time left, frozen, is given."""
    left = time_left(clock, now)
    has_deadline = clock.deadline is not None and not clock.paused
    return {
        "kind": tc.kind,
        "in_turn": clock.in_turn,
        "paused": clock.paused,
        "deadline": deadline_iso(clock.deadline) if has_deadline else None,
        "deadline_text": format_deadline(clock.deadline, now, zone) if has_deadline else None,
        "seconds_left": None if left is None else int(left.total_seconds()),
        "bank_seconds": None if clock.bank is None else int(clock.bank.total_seconds()),
        "overdue": left is not None and left <= timedelta(0),
        "extended": clock.extended,
        "missed_in_a_row": clock.missed_in_a_row,
    }
