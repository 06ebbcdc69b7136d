"""A person's own calendar as pure rules (service.play.time.calendar.calendarrules): rest days that do not
count towards a deadline, quiet hours, the reminders a player wants; each across a
daylight-saving change, which moves neither a rest day nor a quiet hour."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from service.play.time import clocks
from service.play.time.calendar import calendarrules
from service.play.time.calendar.calendarrules import Calendar, CalendarError

BERLIN, NEW_YORK = ZoneInfo("Europe/Berlin"), ZoneInfo("America/New_York")
WEEKEND = calendarrules.parse_rest_days("sat,sun")
DAY = timedelta(days=1)


def local(zone, *args):
    return datetime(*args, tzinfo=zone)


@pytest.mark.parametrize("zone, friday, monday", [
    # Berlin leaves summer time on Sunday 25 October 2026, New York on Sunday 1 November
    (BERLIN, (2026, 10, 23, 19, 0), (2026, 10, 26, 19, 0)),
    (NEW_YORK, (2026, 10, 30, 18, 30), (2026, 11, 2, 18, 30)),
    (BERLIN, (2026, 11, 27, 19, 0), (2026, 11, 30, 19, 0)),
])
def test_a_day_per_move_started_friday_evening_is_due_monday_evening(zone, friday, monday):
    due = calendarrules.working_deadline(local(zone, *friday), DAY, zone, WEEKEND)
    assert due == local(zone, *monday)          # the same wall time, whatever the offset did
    assert calendarrules.working_time(local(zone, *friday), due, zone, WEEKEND) == DAY


def test_without_rest_days_a_deadline_is_the_time_per_move_later():
    start = local(BERLIN, 2026, 11, 27, 19, 0)
    assert calendarrules.working_deadline(start, DAY, BERLIN, frozenset()) == start + DAY


def test_a_turn_begun_on_a_rest_day_starts_counting_on_the_next_working_day():
    saturday = local(NEW_YORK, 2026, 11, 28, 10, 0)
    due = calendarrules.working_deadline(saturday, timedelta(hours=5), NEW_YORK, WEEKEND)
    assert due == local(NEW_YORK, 2026, 11, 30, 5, 0)


def test_a_rest_day_list_of_all_seven_days_is_refused_naming_what_works():
    with pytest.raises(CalendarError, match="at least one day.*rest_days=sat,sun"):
        calendarrules.parse_rest_days("mon,tue,wed,thu,fri,sat,sun")
    with pytest.raises(CalendarError, match="not a day"):
        calendarrules.parse_rest_days("sat,caturday")
    assert calendarrules.parse_rest_days("Saturday, sun") == WEEKEND
    assert calendarrules.parse_rest_days("none") == frozenset()


def test_quiet_hours_longer_than_sixteen_hours_are_refused():
    with pytest.raises(CalendarError, match="18 hours.*at most 16.*quiet_hours=22-08"):
        calendarrules.parse_quiet_hours("22-16")
    with pytest.raises(CalendarError, match="24 hours"):
        calendarrules.parse_quiet_hours("08-08")
    with pytest.raises(CalendarError, match="22-08"):
        calendarrules.parse_quiet_hours("late")
    assert calendarrules.quiet_text(calendarrules.parse_quiet_hours("22-08")) == "22:00-08:00"
    assert calendarrules.quiet_text(calendarrules.parse_quiet_hours("6-22")) == "06:00-22:00"   # 16 hours


def test_quiet_hours_keep_their_wall_times_across_the_night_summer_time_ends():
    calendar = Calendar(zone=BERLIN, quiet=calendarrules.parse_quiet_hours("22-08"))
    # the night of 24 to 25 October 2026 is 11 hours long in Berlin
    inside = local(BERLIN, 2026, 10, 25, 2, 30, 0)
    assert calendarrules.quiet_until(inside, calendar) == local(BERLIN, 2026, 10, 25, 8, 0)
    assert calendarrules.quiet_until(local(BERLIN, 2026, 10, 24, 21, 59), calendar) is None
    assert calendarrules.quiet_until(local(BERLIN, 2026, 10, 25, 8, 0), calendar) is None


def test_reminder_offsets_are_read_and_checked_against_the_time_per_move():
    assert calendarrules.parse_reminders("1h, 24h,4h") == (timedelta(hours=24), timedelta(hours=4),
                                                  timedelta(hours=1))
    assert calendarrules.parse_reminders("default") is None
    assert calendarrules.parse_reminders("none") == ()
    with pytest.raises(CalendarError, match="reminders=24h,4h,1h"):
        calendarrules.parse_reminders("soon")
    with pytest.raises(CalendarError, match="longer than the time per move.*2 days"):
        calendarrules.check_reminders_fit(calendarrules.parse_reminders("3d,1h"), timedelta(days=2))


def turn(start, allowance):
    return clocks.start_turn(clocks.fixed(allowance), clocks.SeatClock(), start)


def test_each_reminder_once_in_order():
    calendar = Calendar(reminders=calendarrules.parse_reminders("24h,4h,1h"))
    start = datetime(2026, 11, 24, 9, 0, tzinfo=UTC)
    clock = turn(start, timedelta(days=2))
    sent = []
    now = start
    while now < clock.deadline:
        if calendarrules.reminder_due(clock, calendar, now):
            sent.append(now)
            clock = calendarrules.mark_reminded(clock, calendar, now)
        now += timedelta(minutes=30)
    assert sent == [clock.deadline - timedelta(hours=h) for h in (24, 4, 1)]
    assert clock.reminded


def test_the_default_is_todays_one_reminder():
    start = datetime(2026, 11, 24, 9, 0, tzinfo=UTC)
    clock = turn(start, timedelta(days=2))
    assert calendarrules.reminder_times(clock, Calendar()) == [clocks.next_reminder(clock)]


def test_a_deadline_just_after_quiet_hours_is_reminded_before_they_begin():
    # quiet 22-08 in New York; the deadline 09:00 on the morning after summer time ends
    calendar = Calendar(zone=NEW_YORK, quiet=calendarrules.parse_quiet_hours("22-08"),
                        reminders=calendarrules.parse_reminders("12h,4h,1h"))
    deadline = local(NEW_YORK, 2026, 11, 1, 9, 0)
    clock = turn(deadline - timedelta(days=2), timedelta(days=2))
    before = local(NEW_YORK, 2026, 10, 31, 22, 0) - calendarrules.EARLY
    assert calendarrules.reminder_times(clock, calendar) == [deadline - timedelta(hours=12), before]
    # due 2 1/2 hours after the quiet hours: nothing moves (the outbox holds the 4h one)
    clock = turn(local(NEW_YORK, 2026, 10, 30, 12, 30), timedelta(days=2))   # 11:30 EST
    assert calendarrules.reminder_times(clock, calendar) == [
        clock.deadline - timedelta(hours=h) for h in (12, 4, 1)]


def test_a_fischer_bank_keeps_the_working_time_left_not_the_weekend_ahead():
    tc = clocks.fischer(timedelta(days=2), timedelta(hours=2))
    calendar = Calendar(zone=BERLIN, rest_days=WEEKEND)
    friday = local(BERLIN, 2026, 11, 27, 12, 0)
    clock = calendarrules.start_turn(clocks.start_turn(tc, clocks.new_clock(tc), friday), calendar)
    assert clock.deadline == local(BERLIN, 2026, 12, 1, 12, 0)     # Tuesday noon
    moved = friday + timedelta(hours=6)                             # 18:00, 6 hours spent
    after = calendarrules.finish_turn(tc, clock, clocks.finish_turn(tc, clock, moved), moved, calendar)
    assert after.bank == timedelta(hours=42 + 2)    # not the weekend ahead (a full bank)
    late = local(BERLIN, 2026, 11, 30, 20, 0)       # Monday 20:00: 12 + 20 hours spent
    after = calendarrules.finish_turn(tc, clock, clocks.finish_turn(tc, clock, late), late, calendar)
    assert after.bank == timedelta(hours=16 + 2)
