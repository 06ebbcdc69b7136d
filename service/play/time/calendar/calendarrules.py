"""A person's own calendar, as pure rules: rest days (their clocks stand still), quiet hours
(nobody mails them), and the reminders they want before a deadline.

Everything is built from calendar dates and wall-clock times in the player's zone, then turned
into UTC instants: a rest day runs from local midnight to local midnight and quiet hours from
their local start to their local end, whatever a daylight-saving change does to the length of
that day or night. Nothing here reads a clock or a database."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from functools import lru_cache

from service.mailwire.outbound.catalogs import _

from .. import clocks
from ..clocks import ClockError, SeatClock, TimeControl
from ..clocks.seat import FinishedTurn, utc

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
LONGEST_QUIET = timedelta(hours=16)
QUIET_MARGIN = timedelta(hours=2)    # a deadline this soon after quiet hours: remind before
EARLY = timedelta(minutes=30)        # ...this long before they begin
MOST_REMINDERS = 6
NONE_WORDS = ("", "none", "off", "no")


class CalendarError(ClockError):
    """A preference or option that cannot be had; the message names what would work."""


@dataclass(frozen=True)
class QuietHours:
    start: time
    end: time          # the next day when it is not after `start`

    @property
    def length(self) -> timedelta:
        span = _minutes(self.end) - _minutes(self.start)
        return timedelta(minutes=span if span > 0 else span + 24 * 60)


@dataclass(frozen=True)
class Calendar:
    """One seat's calendar: the player's zone, the rest days that apply to this game (the
    game's own, else the player's), quiet hours, and reminder offsets (None: the default)."""

    zone: tzinfo = UTC
    rest_days: frozenset[int] = frozenset()       # weekday numbers, Monday 0
    quiet: QuietHours | None = None
    reminders: tuple[timedelta, ...] | None = None


# --- reading what a person writes ------------------------------------------------------------

_DAY_NAMES = {name: n for n, name in enumerate(DAYS)} | {
    full: n for n, full in enumerate(("monday", "tuesday", "wednesday", "thursday", "friday",
                                      "saturday", "sunday"))}


@lru_cache(maxsize=256)
def parse_rest_days(text: str | None) -> frozenset[int]:
    """`sat,sun` (or full names, any case, commas or spaces); `none`: no rest days."""
    words = [w for w in re.split(r"[\s,]+", (text or "").strip().lower()) if w]
    if not words or words == ["none"]:
        return frozenset()
    unknown = [w for w in words if w not in _DAY_NAMES]
    if unknown:
        raise CalendarError(_("%(word)r is not a day: write rest days as %(days)s, such as "
                              "rest_days=sat,sun (or rest_days=none).", word=unknown[0][:20],
                              days=",".join(DAYS)))
    days = frozenset(_DAY_NAMES[w] for w in words)
    if len(days) == 7:
        raise CalendarError(_("Rest days on all seven days would stop the clocks for good: "
                              "keep at least one day to play, such as rest_days=sat,sun."))
    return days


def rest_days_text(days: frozenset[int]) -> str | None:
    return ",".join(DAYS[n] for n in sorted(days)) or None


_CLOCK_TIME = re.compile(r"^(\d{1,2})(?::(\d{2}))?$")


@lru_cache(maxsize=256)
def parse_quiet_hours(text: str | None) -> QuietHours | None:
    """`22-08` or `22:30-07:00` (their own time); `none`: no quiet hours. At most 16 hours."""
    written = (text or "").strip().lower()
    if written in NONE_WORDS:
        return None
    parts = written.split("-")
    times = [_clock_time(p.strip()) for p in parts] if len(parts) == 2 else [None]
    if None in times:
        raise CalendarError(_("%(written)r is not a span of hours: write start-end in your "
                              "own time, such as quiet_hours=22-08 or 22:30-07:00 (or "
                              "quiet_hours=none).", written=written[:30]))
    quiet = QuietHours(times[0], times[1])
    if quiet.start == quiet.end or quiet.length > LONGEST_QUIET:
        hours = 24 if quiet.start == quiet.end else quiet.length / timedelta(hours=1)
        raise CalendarError(_("quiet_hours=%(written)s is %(hours)s hours of quiet; at most "
                              "%(most)d hours, such as quiet_hours=22-08.", written=written,
                              hours=f"{hours:g}", most=LONGEST_QUIET.seconds // 3600))
    return quiet


def _clock_time(text: str) -> time | None:
    match = _CLOCK_TIME.match(text)
    if not match:
        return None
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    return time(hour, minute) if hour < 24 and minute < 60 else None


def quiet_text(quiet: QuietHours | None) -> str | None:
    if quiet is None:
        return None
    return f"{quiet.start.strftime('%H:%M')}-{quiet.end.strftime('%H:%M')}"


_OFFSET = re.compile(r"^(\d{1,4})\s*(m|min|h|d)$")
_UNITS = {"m": timedelta(minutes=1), "min": timedelta(minutes=1), "h": timedelta(hours=1),
          "d": timedelta(days=1)}


@lru_cache(maxsize=256)
def parse_reminders(text: str | None) -> tuple[timedelta, ...] | None:
    """`24h,4h,1h` (m, h or d before the deadline), longest first; `default`: None, the
    service's one reminder; `none`: no reminders at all."""
    written = (text or "").strip().lower()
    if written in ("", "default"):
        return None
    if written in ("none", "off"):
        return ()
    offsets = []
    for word in (w.strip() for w in written.split(",")):
        match = _OFFSET.match(word)
        if not match or int(match.group(1)) == 0:
            raise CalendarError(_("%(word)r is not a time before the deadline: write "
                                  "reminders like reminders=24h,4h,1h (m, h or d), "
                                  "reminders=default or reminders=none.", word=word[:20]))
        offsets.append(int(match.group(1)) * _UNITS[match.group(2)])
    if len(set(offsets)) > MOST_REMINDERS:
        raise CalendarError(_("That is %(n)d reminders; at most %(most)d, such as "
                              "reminders=24h,4h,1h.", n=len(set(offsets)),
                              most=MOST_REMINDERS))
    return tuple(sorted(set(offsets), reverse=True))


def reminders_text(offsets: tuple[timedelta, ...] | None) -> str | None:
    if offsets is None:
        return None
    if not offsets:
        return "none"
    return ",".join(_offset_text(o) for o in offsets)


def _offset_text(offset: timedelta) -> str:
    minutes = int(offset.total_seconds() // 60)
    if minutes % (24 * 60) == 0 and minutes >= 2 * 24 * 60:
        return f"{minutes // (24 * 60)}d"
    return f"{minutes // 60}h" if minutes % 60 == 0 else f"{minutes}m"


def check_reminders_fit(offsets: tuple[timedelta, ...] | None, longest: timedelta) -> None:
    """No offset longer than the time per move (`longest`: the longest of the player's games,
    else the longest the service offers): such a reminder would come before the turn."""
    too_long = [o for o in offsets or () if o > longest]
    if too_long:
        raise CalendarError(_(
            "A reminder %(offset)s before the deadline is longer than the time per move "
            "(%(longest)s at most in your games); write shorter offsets, such as "
            "reminders=24h,4h,1h.", offset=clocks.duration_words(too_long[0]),
            longest=clocks.duration_words(longest)))


def parse_switch(key: str, text: str) -> bool:
    word = text.strip().lower()
    if word in ("on", "yes", "true"):
        return True
    if word in ("off", "no", "false"):
        return False
    raise CalendarError(_("%(key)s=%(text)s is not on or off: write %(key)s=on or %(key)s=off.",
                          key=key, text=text[:20]))


# --- rest days -----------------------------------------------------------------------------

def _day_start(day: date, zone: tzinfo) -> datetime:
    return datetime.combine(day, time(0), tzinfo=zone).astimezone(UTC)


def working_deadline(start: datetime, allowance: timedelta, zone: tzinfo,
                     rest_days: frozenset[int]) -> datetime:
    """The instant `allowance` of working time after `start`: the hours of rest days (local
    midnight to midnight) do not count."""
    at = utc(start)
    if not rest_days:
        return at + allowance
    left = allowance
    while True:
        today = at.astimezone(zone).date()
        if today.weekday() in rest_days:
            at = _day_start(today + timedelta(days=1), zone)
            continue
        ahead = next(k for k in range(1, 8) if (today + timedelta(days=k)).weekday() in rest_days)
        rest_begins = _day_start(today + timedelta(days=ahead), zone)
        if at + left <= rest_begins:
            return at + left
        left -= rest_begins - at
        at = rest_begins


def working_time(start: datetime, end: datetime, zone: tzinfo,
                 rest_days: frozenset[int]) -> timedelta:
    """The working time between two instants (rest days left out); negative if `end` is
    earlier (an overdue deadline)."""
    start, end = utc(start), utc(end)
    if end <= start or not rest_days:
        return end - start
    total, at = timedelta(0), start
    while at < end:
        today = at.astimezone(zone).date()
        next_day = min(end, _day_start(today + timedelta(days=1), zone))
        if today.weekday() not in rest_days:
            total += next_day - at
        at = next_day
    return total


def start_turn(clock: SeatClock, calendar: Calendar) -> SeatClock:
    """A turn just started (service.play.time.clocks.start_turn): its deadline counts working time only."""
    if not calendar.rest_days or clock.deadline is None or clock.allowance is None:
        return clock
    return replace(clock, deadline=working_deadline(clock.turn_started, clock.allowance,
                                                    calendar.zone, calendar.rest_days))


def finish_turn(tc: TimeControl, before: SeatClock, after: SeatClock, now: datetime,
                calendar: Calendar) -> SeatClock:
    """The seat moved (service.play.time.clocks.finish_turn gave `after`): a Fischer bank keeps the
    working time that was left, not the rest days still ahead of the deadline."""
    if (tc.kind != "fischer" or not calendar.rest_days or before.deadline is None
            or before.extended):
        return after
    counted_until = before.paused_since or now
    left = max(timedelta(0), working_time(counted_until, before.deadline, calendar.zone,
                                          calendar.rest_days))
    return replace(after, bank=min(tc.bank, left + tc.increment))


def reopen_turn(before: SeatClock, after: SeatClock, now: datetime, calendar: Calendar,
                reopened: FinishedTurn | None) -> SeatClock:
    """A take-back (service.play.time.clocks.reopen_turn gave `after`): a turn reopened goes on
    with the working time it had left when the seat moved, counted in working time from now; a
    new turn counts working time as any turn does; a turn that ran on is as it was."""
    if not calendar.rest_days or after.deadline is None or after is before:
        return after
    if reopened is None or reopened.left is None:
        return start_turn(after, calendar)
    counted_from = reopened.clock.paused_since or reopened.moved_at
    left = max(timedelta(0), working_time(counted_from, counted_from + reopened.left,
                                          calendar.zone, calendar.rest_days))
    return replace(after, deadline=working_deadline(now, left, calendar.zone, calendar.rest_days))


def resume(before: SeatClock, after: SeatClock, now: datetime, calendar: Calendar) -> SeatClock:
    """The clock runs again after a pause (service.play.time.clocks.resume gave `after`): the
    turn goes on with the working time it had left when it stopped, counted in working time
    from now (a pause that ends on a rest day adds none of it)."""
    if not calendar.rest_days or not before.paused or before.deadline is None or not after.deadline:
        return after
    left = max(timedelta(0), working_time(before.paused_since, before.deadline, calendar.zone,
                                          calendar.rest_days))
    return replace(after, deadline=working_deadline(now, left, calendar.zone, calendar.rest_days))


# --- quiet hours ---------------------------------------------------------------------------

def quiet_periods(near: datetime, calendar: Calendar) -> list[tuple[datetime, datetime]]:
    """The quiet periods (start, end) that begin on the local day before `near`, that day and
    the next: enough to find the one containing `near` or just before or after it."""
    quiet = calendar.quiet
    if quiet is None:
        return []
    zone, today = calendar.zone, utc(near).astimezone(calendar.zone).date()
    periods = []
    for k in (-1, 0, 1):
        day = today + timedelta(days=k)
        end_day = day if quiet.end > quiet.start else day + timedelta(days=1)
        periods.append((datetime.combine(day, quiet.start, tzinfo=zone).astimezone(UTC),
                        datetime.combine(end_day, quiet.end, tzinfo=zone).astimezone(UTC)))
    return periods


def quiet_until(now: datetime, calendar: Calendar) -> datetime | None:
    """The end of the quiet hours `now` is in, or None when it is not in any."""
    now = utc(now)
    return next((end for start, end in quiet_periods(now, calendar) if start <= now < end), None)


# --- reminders -----------------------------------------------------------------------------

def reminder_times(clock: SeatClock, calendar: Calendar) -> list[datetime]:
    """This turn's reminders, in order: each offset before the deadline that is shorter than
    the turn (the default: the one reminder service.play.time.clocks gives). A deadline inside quiet
    hours or within 2 hours after them gets the reminders that would fall from their start on
    before they begin instead (when the turn had begun by then)."""
    if clock.deadline is None or clock.allowance is None:
        return []
    if calendar.reminders is None:
        lead = clocks.reminder_lead(clock.allowance)
        offsets: tuple[timedelta, ...] = () if lead is None else (lead,)
    else:
        offsets = tuple(o for o in calendar.reminders if o < clock.allowance)
    times = {clock.deadline - o for o in offsets}
    night = next(((start, end) for start, end in quiet_periods(clock.deadline, calendar)
                  if start <= clock.deadline <= end + QUIET_MARGIN), None)
    if night is not None:
        before = night[0] - EARLY
        if clock.turn_started is None or before > clock.turn_started:
            times = {before if t >= night[0] else t for t in times}
    return sorted(times)


def next_reminder(clock: SeatClock, calendar: Calendar) -> datetime | None:
    """The next reminder still to send this turn (none once the last one went)."""
    if clock.reminded:
        return None
    sent = clock.reminded_at
    return next((t for t in reminder_times(clock, calendar) if sent is None or t > sent), None)


def reminder_due(clock: SeatClock, calendar: Calendar, now: datetime) -> bool:
    """Send a reminder now? Never twice, never to a seat that has moved (its turn is over),
    never on vacation, never once the deadline has passed."""
    now = utc(now)
    due_at = next_reminder(clock, calendar)
    if due_at is None or clock.paused or clock.timed_out:
        return False
    return due_at <= now < clock.deadline


def mark_reminded(clock: SeatClock, calendar: Calendar, now: datetime) -> SeatClock:
    """Every reminder due by `now` is done with (one email, however many were due)."""
    done = replace(clock, reminded_at=utc(now))
    return replace(done, reminded=next_reminder(done, calendar) is None)


def _minutes(at: time) -> int:
    return at.hour * 60 + at.minute
