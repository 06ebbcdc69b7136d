"""Vacation: a player's clocks stop in every game. Each player has a yearly allowance of days
(30 by default, a setting), taken by reply or on the page: `vacation 5`, `vacation until
2026-12-24`, `back`.

A vacation is a run of calendar days in the player's zone, both ends included: it starts the
moment it is asked for, and the clocks restart at midnight after its last day (or on `back`).
Every day on which the clocks stood still counts, the day of coming back included, so
`vacation 1` and a same-day `back` both count one day."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Literal

from service.mailwire.outbound.catalogs import _, ngettext

from .display import player_zone
from .seat import utc

DEFAULT_ALLOWANCE = 30     # vacation days a year
LONGEST_REQUEST = 366      # beyond this no allowance could grant it: refused while parsing


class VacationError(ValueError):
    """A vacation request that cannot be had; the message is a sentence for the player naming
    what would work. Nothing changes."""


@dataclass(frozen=True)
class Vacation:
    first_day: date
    last_day: date          # included

    @property
    def days(self) -> int:
        return (self.last_day - self.first_day).days + 1

    def days_in(self, year: int) -> set[date]:
        first = max(self.first_day, date(year, 1, 1))
        last = min(self.last_day, date(year, 12, 31))
        return {first + timedelta(days=n) for n in range((last - first).days + 1)}


@dataclass(frozen=True)
class VacationRequest:
    kind: Literal["days", "until", "back"]
    last_day: date | None    # the last day off ("days", "until"); None for "back"


def local_today(now: datetime, zone: str | None) -> date:
    """The player's date at `now` (UTC when their zone is unset or unknown)."""
    return utc(now).astimezone(player_zone(zone) or UTC).date()


def resumes_at(vacation: Vacation, zone: str | None) -> datetime:
    """The UTC instant the clocks restart: midnight after the last day, in the player's zone
    (built in the zone, so a daylight-saving change lands it on the local midnight)."""
    day_after = vacation.last_day + timedelta(days=1)
    return datetime.combine(day_after, time(0), tzinfo=player_zone(zone) or UTC).astimezone(UTC)


# --- reading the request -------------------------------------------------------------------

_BACK = re.compile(r"^back$", re.IGNORECASE)
_FOR_DAYS = re.compile(r"^vacation\s+(-?\d+)\s*(?:d|days?)?$", re.IGNORECASE)
_UNTIL = re.compile(r"^vacation\s+until\s+(.+)$", re.IGNORECASE)


def parse_vacation(text: str, today: date) -> VacationRequest:
    """`vacation 5` (five days, today included), `vacation until 2026-12-24` (that day
    included) or `back`, any case; `today` is the player's date (local_today)."""
    written = " ".join(text.split())
    if _BACK.match(written):
        return VacationRequest("back", None)
    if match := _FOR_DAYS.match(written):
        return VacationRequest("days", _last_of_days(written, int(match.group(1)), today))
    if match := _UNTIL.match(written):
        return VacationRequest("until", _until(written, match.group(1), today))
    raise VacationError(_("%(written)s is not a vacation request: %(works)s",
                          written=written or _("That"), works=_what_works(today)))


def _last_of_days(written: str, days: int, today: date) -> date:
    if days < 1:
        raise VacationError(_("%(written)s takes no days: write a number of days from 1, "
                              "%(works)s", written=written, works=_what_works(today)))
    if days > LONGEST_REQUEST:
        raise VacationError(_("%(written)s is longer than a year: %(works)s",
                              written=written, works=_what_works(today)))
    return today + timedelta(days=days - 1)


def _until(written: str, date_text: str, today: date) -> date:
    example = _example_date(today)
    try:
        last = date.fromisoformat(date_text.strip())
    except ValueError:
        raise VacationError(_("%(written)s: %(date)s is not a date I can read; write it "
                              "year-month-day, such as `vacation until %(example)s`",
                              written=written, date=date_text, example=example)) from None
    if last < today:
        raise VacationError(_("%(written)s: %(date)s has passed; write a date from today "
                              "(%(today)s) on, such as `vacation until %(example)s`",
                              written=written, date=last.isoformat(),
                              today=today.isoformat(), example=example))
    if (last - today).days >= LONGEST_REQUEST:
        raise VacationError(_("%(written)s is more than a year away: %(works)s",
                              written=written, works=_what_works(today)))
    return last


def _what_works(today: date) -> str:
    return _("write `vacation 5` (five days from today), `vacation until %(example)s`, or "
             "`back`", example=_example_date(today))


def _example_date(today: date) -> str:
    return (today + timedelta(days=7)).isoformat()


# --- accounting ----------------------------------------------------------------------------

VacationLike = Vacation | tuple[date, date]


def days_left(taken: Iterable[VacationLike], year: int,
              allowance: int = DEFAULT_ALLOWANCE) -> int:
    """Vacation days left in `year`: the allowance less every day of that year already taken
    (a day covered twice counts once; a vacation across New Year counts in each year)."""
    return max(0, allowance - len(_days_taken(taken, year)))


def _days_taken(taken: Iterable[VacationLike], year: int) -> set[date]:
    days: set[date] = set()
    for vacation in map(_as_vacation, taken):
        days |= vacation.days_in(year)
    return days


def _as_vacation(item: VacationLike) -> Vacation:
    return item if isinstance(item, Vacation) else Vacation(*item)


def check_request(request: VacationRequest, taken: Iterable[VacationLike],
                  current: Vacation | None, today: date,
                  allowance: int = DEFAULT_ALLOWANCE) -> Vacation:
    """The vacation to record for `request`, or VacationError. `current` is the vacation in
    progress, if any (it may also be in `taken`: it is left out there). A new request while on
    vacation moves the end of the current one; `back` ends it today."""
    if request.kind == "back":
        if current is None:
            raise VacationError(_("You are not on vacation. To take some, %(works)s.",
                                  works=_what_works(today)))
        return Vacation(current.first_day, min(current.last_day, today))
    plan = Vacation(current.first_day if current else today, request.last_day)
    others = [v for v in map(_as_vacation, taken) if v != current]
    for year in range(plan.first_day.year, plan.last_day.year + 1):
        _check_year(plan, others, year, today, allowance)
    return plan


def _check_year(plan: Vacation, others: list[Vacation], year: int, today: date,
                allowance: int) -> None:
    left = days_left(others, year, allowance)
    wanted = plan.days_in(year) - _days_taken(others, year)
    if len(wanted) <= left:
        return
    if year != today.year:
        last_allowed = max(date(year, 1, 1) + timedelta(days=left - 1), today)
        raise VacationError(_(
            "That would take %(wanted)s vacation days in %(year)s, and you have %(left)s for "
            "that year; `vacation until %(last)s` would take them all.", wanted=len(wanted),
            year=year, left=left, last=last_allowed.isoformat()))
    # What is left from today on, once this vacation's days before today are counted.
    already_used = len({d for d in wanted if d < today})
    from_today = left - already_used
    if from_today <= 0:
        raise VacationError(_("You have no vacation days left this year; %(allowance)s more "
                              "come on 1 January %(year)s.", allowance=allowance,
                              year=year + 1))
    raise VacationError(ngettext("You have %(num)d vacation day left this year; `vacation "
                                 "%(num)d` would take it.",
                                 "You have %(num)d vacation days left this year; `vacation "
                                 "%(num)d` would take them all.", from_today))
