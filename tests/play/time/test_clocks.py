"""service.play.time.clocks: time-control options, seat clocks, reminders, missed turns, vacations and
deadlines in words. Pure functions: every instant is passed in, no real clock is read."""
from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.play.time.clocks import (
    ABSENT_AFTER,
    DEFAULT_CLOCK,
    LOBBY_CHOICES,
    LOBBY_DEFAULT,
    NO_CLOCK,
    ON_TIMEOUT,
    ClockError,
    SeatClock,
    TimeControl,
    Vacation,
    VacationError,
    VacationRequest,
    after_miss,
    cancel_turn,
    check_request,
    clock_from_dict,
    clock_to_dict,
    clock_view,
    days_left,
    deadline_iso,
    describe,
    extend_once,
    finish_turn,
    fischer,
    fixed,
    format_deadline,
    is_overdue,
    local_today,
    mark_reminded,
    new_clock,
    next_reminder,
    option_text,
    parse_clock,
    parse_on_timeout,
    parse_vacation,
    pause,
    relative,
    reminder_at,
    reminder_due,
    reminder_lead,
    reopen_turn,
    resume,
    resumes_at,
    start_turn,
    time_left,
    timeout_move_played,
)

H = timedelta(hours=1)
D = timedelta(days=1)
T0 = datetime(2026, 11, 24, 18, 0, tzinfo=UTC)    # a Tuesday
THREE_DAYS = fixed(3 * D)
BANK_7_PLUS_1 = fischer(7 * D, D)
LONDON = ZoneInfo("Europe/London")
NEW_YORK = ZoneInfo("America/New_York")


# --- clock= ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("none", NO_CLOCK),
    ("NONE", NO_CLOCK),
    ("3d", fixed(3 * D)),
    ("12h", fixed(12 * H)),
    (" 3D ", fixed(3 * D)),
    ("3 days", fixed(3 * D)),
    ("1 hour", fixed(H)),
    ("48h", fixed(2 * D)),
    ("7d+1d", fischer(7 * D, D)),
    ("7d + 12h", fischer(7 * D, 12 * H)),
    ("clock=7D+1D", fischer(7 * D, D)),
    ("60d", fixed(60 * D)),
    ("1h", fixed(H)),
])
def test_parse_clock_reads_every_form(text, expected):
    assert parse_clock(text) == expected


@pytest.mark.parametrize(("text", "words"), [
    ("3x", "clock=3x is not a time control: write none, a time per move such as 3d or 12h, "
           "or a bank plus increment such as 7d+1d"),
    ("", "clock= is not a time control"),
    ("3", "clock=3 is not a time control"),
    ("d", "clock=d is not a time control"),
    ("-3d", "clock=-3d is not a time control"),
    ("1.5d", "clock=1.5d is not a time control"),
    ("0d", "clock=0d is too short: at least 1 hour per move"),
    ("0h", "clock=0h is too short: at least 1 hour per move"),
    ("400d", "clock=400d is too long: at most 60 days"),
    ("1441h", "clock=1441h is too long: at most 60 days"),
    ("99999999999999999999d", "is too long: at most 60 days"),
    ("90d+1d", "clock=90d+1d is too long: at most 60 days in the bank"),
    ("0d+1d", "clock=0d+1d is too short: at least 1 hour in the bank"),
    ("7d+0d", "clock=7d+0d adds nothing after a move: write an increment of at least 1 hour"),
    ("3d+5d", "clock=3d+5d adds more after a move than the bank holds"),
])
def test_parse_clock_refuses_with_words_naming_what_works(text, words):
    with pytest.raises(ClockError) as refused:
        parse_clock(text)
    assert words in str(refused.value)
    assert isinstance(refused.value, ValueError)


def test_describe_says_it_in_words():
    assert describe(parse_clock("3d")) == "3 days per move"
    assert describe(parse_clock("1d")) == "1 day per move"
    assert describe(parse_clock("12h")) == "12 hours per move"
    assert describe(parse_clock("36h")) == "36 hours per move"
    assert describe(parse_clock("7d+1d")) == "a bank of 7 days, plus 1 day per move (at most 7 days)"
    assert describe(NO_CLOCK) == "no clock"


@pytest.mark.parametrize("text", ["none", "3d", "12h", "36h", "7d+1d", "7d+12h", "60d"])
def test_option_text_round_trips(text):
    assert option_text(parse_clock(text)) == text
    assert parse_clock(option_text(parse_clock(text))) == parse_clock(text)


@given(st.integers(1, 1440), st.integers(1, 1440), st.booleans())
def test_option_text_round_trips_any_valid_control(first_hours, second_hours, with_increment):
    if with_increment:
        bank, increment = max(first_hours, second_hours), min(first_hours, second_hours)
        tc = fischer(timedelta(hours=bank), timedelta(hours=increment))
    else:
        tc = fixed(timedelta(hours=first_hours))
    assert parse_clock(option_text(tc)) == tc


def test_option_text_is_canonical():
    assert option_text(parse_clock(" 48 HOURS ")) == "2d"


def test_lobby_offers_words_and_defaults_to_three_days_per_move():
    assert LOBBY_DEFAULT == "3d"
    assert DEFAULT_CLOCK == fixed(3 * D)
    assert ("3d", "3 days per move") in LOBBY_CHOICES
    assert ("none", "no clock") in LOBBY_CHOICES
    for option, words in LOBBY_CHOICES:
        assert describe(parse_clock(option)) == words


def test_time_control_fields_must_match_its_kind():
    with pytest.raises(ValueError):
        TimeControl("per_move")
    with pytest.raises(ValueError):
        TimeControl("none", per_move=D)
    with pytest.raises(ValueError):
        TimeControl("fischer", bank=D)
    with pytest.raises(ValueError):
        TimeControl("sudden death")


# --- on_timeout= -----------------------------------------------------------------------------

def test_parse_on_timeout():
    assert ON_TIMEOUT == ("bot", "forfeit", "wait")
    assert parse_on_timeout("bot") == "bot"
    assert parse_on_timeout(" Forfeit ") == "forfeit"
    assert parse_on_timeout("on_timeout=WAIT") == "wait"


def test_parse_on_timeout_refuses_naming_the_three():
    with pytest.raises(ClockError) as refused:
        parse_on_timeout("skip")
    message = str(refused.value)
    assert message.startswith("on_timeout=skip is not a timeout policy: write bot")
    assert "forfeit" in message and "wait" in message


# --- a turn ----------------------------------------------------------------------------------

def test_per_move_turn_has_deadline_after_the_time_per_move():
    clock = start_turn(THREE_DAYS, new_clock(THREE_DAYS), T0)
    assert clock.in_turn and clock.turn_started == T0
    assert clock.deadline == T0 + 3 * D
    assert time_left(clock, T0 + D) == 2 * D


def test_per_move_resets_at_each_turn():
    clock = start_turn(THREE_DAYS, new_clock(THREE_DAYS), T0)
    clock = finish_turn(THREE_DAYS, clock, T0 + 2 * D + 23 * H)
    assert not clock.in_turn and clock.deadline is None
    again = start_turn(THREE_DAYS, clock, T0 + 5 * D)
    assert again.deadline == T0 + 8 * D


def test_no_clock_turn_has_no_deadline():
    clock = start_turn(NO_CLOCK, new_clock(NO_CLOCK), T0)
    assert clock.in_turn and clock.deadline is None
    assert not is_overdue(clock, T0 + 400 * D)
    assert not finish_turn(NO_CLOCK, clock, T0 + D).in_turn


def test_starting_a_turn_in_progress_changes_nothing():
    clock = start_turn(THREE_DAYS, new_clock(THREE_DAYS), T0)
    assert start_turn(THREE_DAYS, clock, T0 + D) == clock


def test_finishing_when_not_in_turn_changes_nothing():
    clock = new_clock(THREE_DAYS)
    assert finish_turn(THREE_DAYS, clock, T0) == clock


def test_fischer_bank_spends_then_gains_the_increment():
    clock = new_clock(BANK_7_PLUS_1)
    assert clock.bank == 7 * D
    clock = start_turn(BANK_7_PLUS_1, clock, T0)
    assert clock.deadline == T0 + 7 * D
    clock = finish_turn(BANK_7_PLUS_1, clock, T0 + 3 * D)
    assert clock.bank == 4 * D + D
    clock = start_turn(BANK_7_PLUS_1, clock, T0 + 4 * D)
    assert clock.deadline == T0 + 4 * D + 5 * D


def test_fischer_bank_never_rises_above_its_start():
    clock = start_turn(BANK_7_PLUS_1, new_clock(BANK_7_PLUS_1), T0)
    clock = finish_turn(BANK_7_PLUS_1, clock, T0 + 2 * H)
    assert clock.bank == 7 * D


def test_fischer_late_move_keeps_only_the_increment():
    clock = start_turn(BANK_7_PLUS_1, new_clock(BANK_7_PLUS_1), T0)
    clock = finish_turn(BANK_7_PLUS_1, clock, T0 + 8 * D)   # before the sweep got to it
    assert clock.bank == D


def test_fischer_without_a_bank_yet_starts_from_the_full_bank():
    clock = start_turn(BANK_7_PLUS_1, SeatClock(), T0)
    assert clock.deadline == T0 + 7 * D


def test_simultaneous_choices_each_seat_has_its_own_clock():
    # Aristocracy: both seats must choose; the first to choose stops only its own clock.
    clocks = {seat: start_turn(THREE_DAYS, new_clock(THREE_DAYS), T0) for seat in (0, 1)}
    clocks[0] = finish_turn(THREE_DAYS, clocks[0], T0 + H)
    assert not clocks[0].in_turn
    assert clocks[1].deadline == T0 + 3 * D
    assert is_overdue(clocks[1], T0 + 3 * D) and not is_overdue(clocks[0], T0 + 3 * D)


def test_naive_datetimes_are_refused():
    with pytest.raises(ValueError, match="naive"):
        start_turn(THREE_DAYS, new_clock(THREE_DAYS), datetime(2026, 11, 24, 18))


# --- vacation pauses -------------------------------------------------------------------------

def test_pause_and_resume_move_a_fixed_deadline_by_exactly_the_pause():
    clock = start_turn(THREE_DAYS, new_clock(THREE_DAYS), T0)
    away = T0 + H
    back = T0 + 2 * D + H + timedelta(minutes=37, seconds=5)
    paused = pause(clock, away)
    assert time_left(paused, back) == 3 * D - H     # frozen while away
    resumed = resume(paused, back)
    assert resumed.deadline == T0 + 3 * D + (back - away)
    assert not resumed.paused


def test_pause_and_resume_move_a_fischer_deadline_and_keep_the_bank_exact():
    clock = start_turn(BANK_7_PLUS_1, new_clock(BANK_7_PLUS_1), T0)
    clock = resume(pause(clock, T0 + D), T0 + 11 * D)       # ten days away
    assert clock.deadline == T0 + 17 * D
    clock = finish_turn(BANK_7_PLUS_1, clock, T0 + 12 * D)  # two days of own time used
    assert clock.bank == 5 * D + D


# (running minutes, paused minutes) stretches, in turn
stretches = st.lists(st.tuples(st.integers(0, 3000), st.integers(0, 30000)), max_size=8)


@given(stretches)
def test_any_vacations_give_back_exactly_the_time_they_took(pattern):
    clock = start_turn(THREE_DAYS, new_clock(THREE_DAYS), T0)
    now, ran, stood = T0, timedelta(0), timedelta(0)
    for running, paused in pattern:
        now += timedelta(minutes=running)
        ran += timedelta(minutes=running)
        clock = pause(clock, now)
        now += timedelta(minutes=paused)
        stood += timedelta(minutes=paused)
        clock = resume(clock, now)
        assert time_left(clock, now) == 3 * D - ran
    assert clock.deadline == T0 + 3 * D + stood


@given(st.lists(st.integers(0, 300), min_size=1, max_size=20))
def test_fischer_bank_stays_between_nothing_and_its_cap(hours_per_move):
    clock, now = new_clock(BANK_7_PLUS_1), T0
    for hours in hours_per_move:
        before = clock.bank
        clock = start_turn(BANK_7_PLUS_1, clock, now)
        now += timedelta(hours=hours)
        clock = finish_turn(BANK_7_PLUS_1, clock, now)
        spent = min(before, timedelta(hours=hours))
        assert clock.bank == min(7 * D, before - spent + D)
        assert D <= clock.bank <= 7 * D


def test_pause_twice_or_resume_a_running_clock_changes_nothing():
    clock = pause(start_turn(THREE_DAYS, new_clock(THREE_DAYS), T0), T0 + H)
    assert pause(clock, T0 + 2 * H) == clock
    running = start_turn(THREE_DAYS, new_clock(THREE_DAYS), T0)
    assert resume(running, T0 + H) == running


def test_a_turn_starting_during_vacation_starts_paused_from_its_start():
    on_vacation = pause(new_clock(THREE_DAYS), T0 - 5 * D)
    clock = start_turn(THREE_DAYS, on_vacation, T0)
    assert clock.paused and clock.deadline == T0 + 3 * D
    assert not is_overdue(clock, T0 + 10 * D)
    clock = resume(clock, T0 + 2 * D)
    assert clock.deadline == T0 + 5 * D     # the turn's full three days, from the return


def test_vacation_outlives_the_turn():
    clock = pause(start_turn(THREE_DAYS, new_clock(THREE_DAYS), T0), T0 + H)
    assert finish_turn(THREE_DAYS, clock, T0 + 2 * H).paused


# --- reminders -------------------------------------------------------------------------------

def test_reminder_when_a_quarter_of_the_time_per_move_is_left():
    tc = fixed(2 * D)
    assert reminder_at(tc, T0, T0 + 2 * D) == T0 + 2 * D - 12 * H


def test_reminder_at_most_24_hours_before_the_deadline():
    tc = fixed(14 * D)
    assert reminder_at(tc, T0, T0 + 14 * D) == T0 + 14 * D - 24 * H


def test_reminder_at_least_1_hour_before_the_deadline():
    tc = fixed(2 * H)
    assert reminder_at(tc, T0, T0 + 2 * H) == T0 + H


def test_no_reminder_for_a_turn_under_two_hours_or_without_a_clock():
    assert reminder_at(fixed(H), T0, T0 + H) is None
    assert reminder_lead(timedelta(minutes=119)) is None
    assert reminder_at(NO_CLOCK, T0, T0 + D) is None


def test_fischer_reminder_counts_the_bank_at_turn_start():
    tc = fischer(7 * D, D)
    assert reminder_at(tc, T0, T0 + 2 * D) == T0 + 2 * D - 12 * H


def test_reminder_due_once_per_turn_and_never_after_moving():
    clock = start_turn(THREE_DAYS, new_clock(THREE_DAYS), T0)
    assert next_reminder(clock) == T0 + 3 * D - 18 * H
    assert not reminder_due(clock, T0 + 2 * D)
    assert reminder_due(clock, T0 + 2 * D + 6 * H)
    reminded = mark_reminded(clock)
    assert not reminder_due(reminded, T0 + 2 * D + 7 * H)
    moved = finish_turn(THREE_DAYS, clock, T0 + 2 * D + 6 * H)
    assert not reminder_due(moved, T0 + 2 * D + 7 * H)
    assert not reminder_due(clock, T0 + 3 * D)              # too late: the deadline has passed


def test_reminder_waits_out_a_vacation_and_follows_the_deadline():
    clock = pause(start_turn(THREE_DAYS, new_clock(THREE_DAYS), T0), T0 + H)
    assert not reminder_due(clock, T0 + 2 * D + 6 * H)
    clock = resume(clock, T0 + D + H)
    assert next_reminder(clock) == T0 + 4 * D - 18 * H


def test_a_new_turn_may_be_reminded_again():
    clock = mark_reminded(start_turn(THREE_DAYS, new_clock(THREE_DAYS), T0))
    clock = start_turn(THREE_DAYS, finish_turn(THREE_DAYS, clock, T0 + 3 * H), T0 + D)
    assert reminder_due(clock, T0 + 4 * D - 18 * H)


# --- missed turns ----------------------------------------------------------------------------

def overdue_clock(tc: TimeControl = THREE_DAYS, missed: int = 0) -> SeatClock:
    clock = start_turn(tc, SeatClock(bank=new_clock(tc).bank, missed_in_a_row=missed), T0)
    assert is_overdue(clock, clock.deadline)
    return clock


def test_not_overdue_before_the_deadline_or_on_vacation():
    clock = start_turn(THREE_DAYS, new_clock(THREE_DAYS), T0)
    assert not is_overdue(clock, T0 + 3 * D - timedelta(seconds=1))
    assert not is_overdue(pause(clock, T0 + H), T0 + 10 * D)


def test_bot_policy_plays_the_timeout_move_and_stops_the_clock():
    miss = after_miss("bot", THREE_DAYS, overdue_clock(), T0 + 3 * D, seats_in_play=2)
    assert miss.play_timeout_move and not miss.forfeit and not miss.end_game
    assert not miss.tell_others and not miss.absent
    assert not miss.clock.in_turn and miss.clock.missed_in_a_row == 1


def test_bot_policy_leaves_a_fischer_seat_its_increment():
    miss = after_miss("bot", BANK_7_PLUS_1, overdue_clock(BANK_7_PLUS_1), T0 + 7 * D, seats_in_play=2)
    assert miss.clock.bank == D


def test_forfeit_ends_a_two_player_game():
    miss = after_miss("forfeit", THREE_DAYS, overdue_clock(), T0 + 3 * D, seats_in_play=2)
    assert miss.forfeit and miss.end_game and not miss.play_timeout_move


def test_forfeit_with_more_players_plays_the_timeout_move_on():
    miss = after_miss("forfeit", THREE_DAYS, overdue_clock(), T0 + 3 * D, seats_in_play=4)
    assert miss.forfeit and miss.play_timeout_move and not miss.end_game


def test_wait_plays_nothing_and_tells_the_others():
    miss = after_miss("wait", THREE_DAYS, overdue_clock(), T0 + 3 * D, seats_in_play=2)
    assert not miss.play_timeout_move and miss.tell_others and miss.can_extend
    assert miss.clock.in_turn and miss.clock.missed_in_a_row == 1
    assert not is_overdue(miss.clock, T0 + 4 * D)     # handled: the sweep does not repeat it


def test_wait_extends_once_from_now_then_refuses():
    miss = after_miss("wait", THREE_DAYS, overdue_clock(), T0 + 3 * D, seats_in_play=2)
    extended = extend_once(THREE_DAYS, miss.clock, T0 + 3 * D + 5 * H)
    assert extended.deadline == T0 + 6 * D + 5 * H and extended.extended
    assert is_overdue(extended, T0 + 6 * D + 5 * H)
    again = after_miss("wait", THREE_DAYS, extended, T0 + 6 * D + 5 * H, seats_in_play=2)
    assert again.tell_others and not again.can_extend
    assert again.clock.missed_in_a_row == 1               # the same turn, missed once
    with pytest.raises(ClockError, match="already been extended once; you can switch the seat"):
        extend_once(THREE_DAYS, again.clock, T0 + 7 * D)


def test_extend_refused_without_a_deadline():
    with pytest.raises(ClockError, match="no running deadline"):
        extend_once(THREE_DAYS, new_clock(THREE_DAYS), T0)


def test_extended_fischer_turn_keeps_only_the_increment():
    miss = after_miss("wait", BANK_7_PLUS_1, overdue_clock(BANK_7_PLUS_1), T0 + 7 * D, seats_in_play=2)
    extended = extend_once(BANK_7_PLUS_1, miss.clock, T0 + 7 * D)
    assert extended.deadline == T0 + 14 * D
    assert finish_turn(BANK_7_PLUS_1, extended, T0 + 8 * D).bank == D


def test_switch_a_waiting_seat_to_bot():
    miss = after_miss("wait", THREE_DAYS, overdue_clock(), T0 + 3 * D, seats_in_play=2)
    clock = timeout_move_played(THREE_DAYS, miss.clock)
    assert not clock.in_turn and clock.missed_in_a_row == 1


def test_absent_after_three_missed_turns_in_a_row():
    assert ABSENT_AFTER == 3
    second = after_miss("bot", THREE_DAYS, overdue_clock(missed=1), T0 + 3 * D, seats_in_play=2)
    third = after_miss("bot", THREE_DAYS, overdue_clock(missed=2), T0 + 3 * D, seats_in_play=2)
    assert not second.absent and third.absent


def test_moving_ends_the_run_of_missed_turns():
    clock = overdue_clock(missed=2)
    assert finish_turn(THREE_DAYS, clock, T0 + H).missed_in_a_row == 0


def test_after_miss_refuses_a_seat_not_overdue():
    clock = start_turn(THREE_DAYS, new_clock(THREE_DAYS), T0)
    with pytest.raises(ValueError):
        after_miss("bot", THREE_DAYS, clock, T0 + D, seats_in_play=2)


# --- a move taken back -----------------------------------------------------------------------

def test_reopen_gives_back_the_time_left_at_the_move_not_a_fresh_period():
    # the turn began at position 4 at T0; the seat moved 10 hours in (position 6)
    clock = start_turn(THREE_DAYS, new_clock(THREE_DAYS), T0, at=4)
    moved = finish_turn(THREE_DAYS, clock, T0 + 10 * H, at=6)
    assert moved.last_turn.left == 3 * D - 10 * H
    # agreed 5 hours later, back to position 5 (after the turn began, before the move)
    back = reopen_turn(THREE_DAYS, moved, T0 + 15 * H, at=5)
    assert back.in_turn and back.deadline == T0 + 15 * H + 3 * D - 10 * H
    assert time_left(back, T0 + 15 * H) == 3 * D - 10 * H
    assert back.turn_at == 4 and back.allowance == 3 * D
    assert next_reminder(back) == back.deadline - 18 * H


def test_reopen_fischer_restores_the_bank_of_the_turns_start_without_the_increment():
    tc = fischer(2 * D, H)
    clock = start_turn(tc, replace_bank(new_clock(tc), 2 * D - 4 * H), T0, at=1)
    moved = finish_turn(tc, clock, T0 + 7 * H, at=2)
    assert moved.bank == 2 * D - 10 * H
    back = reopen_turn(tc, moved, T0 + 9 * H, at=1)
    assert back.bank == 2 * D - 4 * H
    assert back.deadline == T0 + 9 * H + 2 * D - 11 * H
    assert finish_turn(tc, back, T0 + 10 * H, at=2).bank == 2 * D - 11 * H


def replace_bank(clock, bank):
    from dataclasses import replace
    return replace(clock, bank=bank)


def test_a_turn_begun_after_the_position_taken_back_to_never_happened():
    tc = fischer(2 * D, H)
    clock = start_turn(tc, replace_bank(new_clock(tc), 2 * D - 4 * H), T0, at=7)
    gone = cancel_turn(clock)
    assert not gone.in_turn and gone.deadline is None and gone.bank == 2 * D - 4 * H
    # reopening at an earlier position where the seat was to act: cancelled, then a turn
    # (it kept no finished turn there, so a new one from now)
    again = reopen_turn(tc, clock, T0 + 3 * H, at=5)
    assert again.turn_at == 5 and again.deadline == T0 + 3 * H + 2 * D - 4 * H


def test_a_turn_running_since_before_the_position_goes_on_untouched():
    clock = start_turn(THREE_DAYS, new_clock(THREE_DAYS), T0, at=3)
    assert reopen_turn(THREE_DAYS, clock, T0 + D, at=5) == clock


def test_a_miss_counted_in_a_cancelled_turn_is_uncounted():
    clock = start_turn(THREE_DAYS, new_clock(THREE_DAYS), T0, at=2)
    waiting = after_miss("wait", THREE_DAYS, clock, T0 + 3 * D, seats_in_play=2).clock
    assert waiting.missed_in_a_row == 1
    assert cancel_turn(waiting).missed_in_a_row == 0


def test_reopen_while_on_vacation_stays_stopped_with_the_time_left():
    clock = start_turn(THREE_DAYS, new_clock(THREE_DAYS), T0, at=1)
    moved = pause(finish_turn(THREE_DAYS, clock, T0 + 10 * H, at=2), T0 + 11 * H)
    back = reopen_turn(THREE_DAYS, moved, T0 + D, at=1)
    assert back.paused and time_left(back, T0 + 2 * D) == 3 * D - 10 * H
    assert resume(back, T0 + 3 * D).deadline == T0 + 3 * D + 3 * D - 10 * H


# --- storing ---------------------------------------------------------------------------------

def test_clock_round_trips_through_json():
    clock = mark_reminded(pause(start_turn(BANK_7_PLUS_1, new_clock(BANK_7_PLUS_1), T0), T0 + H))
    stored = json.loads(json.dumps(clock_to_dict(clock)))
    assert clock_from_dict(stored) == clock
    assert clock_from_dict({}) == SeatClock()


def test_a_finished_turn_round_trips_through_json():
    clock = finish_turn(BANK_7_PLUS_1, start_turn(BANK_7_PLUS_1, new_clock(BANK_7_PLUS_1), T0,
                                                   at=3), T0 + H, at=4)
    clock = start_turn(BANK_7_PLUS_1, clock, T0 + 2 * H, at=9)
    stored = json.loads(json.dumps(clock_to_dict(clock)))
    assert clock_from_dict(stored) == clock
    assert clock_from_dict(stored).last_turn.ended_at == 4


# --- deadlines in words ----------------------------------------------------------------------

def test_format_deadline_in_utc_says_utc():
    assert format_deadline(T0, T0 - 2 * D) == "Tue 24 Nov, 18:00 UTC (in 2 days)"
    assert format_deadline(T0, T0 - 2 * D, "Not/AZone") == "Tue 24 Nov, 18:00 UTC (in 2 days)"
    assert format_deadline(T0, T0 - 2 * D, "../etc") == "Tue 24 Nov, 18:00 UTC (in 2 days)"


def test_format_deadline_in_the_players_zone_names_the_zone():
    # a bare "13:00" is read as the reader's local time wherever the email is opened
    assert format_deadline(T0, T0 - 5 * H, "America/New_York") == "Tue 24 Nov, 13:00 EST (in 5 hours)"
    assert format_deadline(T0, T0 - 2 * D, "Asia/Tokyo") == "Wed 25 Nov, 03:00 JST (in 2 days)"
    assert format_deadline(T0 - 2 * H + timedelta(minutes=1), T0 - 2 * D,
                           "Europe/Paris") == "Tue 24 Nov, 17:01 CET (in 46 hours)"
    assert format_deadline(T0, T0 - 2 * D, "Europe/London") == "Tue 24 Nov, 18:00 GMT (in 2 days)"
    assert format_deadline(T0, T0 - 2 * D, "Etc/UTC") == "Tue 24 Nov, 18:00 UTC (in 2 days)"


@pytest.mark.parametrize(("zone", "label"), [
    ("America/Sao_Paulo", "15:00 UTC-3"),     # zones without letters for their time: an offset
    ("Asia/Dubai", "22:00 UTC+4"),
    ("Asia/Kathmandu", "23:45 UTC+5:45"),
    ("Asia/Kolkata", "23:30 IST"),
])
def test_format_deadline_says_an_offset_where_a_zone_has_no_abbreviation(zone, label):
    assert f", {label} (" in format_deadline(T0, T0 - 2 * D, zone)


def test_format_deadline_names_another_year():
    deadline = datetime(2027, 1, 1, 9, 0, tzinfo=UTC)
    assert format_deadline(deadline, T0, "Europe/London") == "Fri 1 Jan 2027, 09:00 GMT (in 38 days)"


@pytest.mark.parametrize(("left", "words"), [
    (3 * D - timedelta(seconds=5), "in 3 days"),      # a turn email rendered just after start
    (2 * D, "in 2 days"),
    (47 * H, "in 47 hours"),
    (5 * H, "in 5 hours"),
    (H, "in 1 hour"),
    (timedelta(minutes=40), "in 40 minutes"),
    (timedelta(minutes=1), "in 1 minute"),
    (timedelta(seconds=20), "in less than a minute"),
    (timedelta(0), "overdue"),
    (-H, "overdue"),
])
def test_relative_wording(left, words):
    assert relative(T0 + left, T0) == words


def test_deadline_iso_for_time_elements():
    assert deadline_iso(datetime(2026, 11, 24, 13, 0, 0, 123, tzinfo=NEW_YORK)) == "2026-11-24T18:00:00Z"


def test_dst_change_in_london_does_not_move_a_deadline():
    # Saturday 24 Oct 2026, 18:00 BST; the clocks go back on Sunday 25 Oct.
    saturday = datetime(2026, 10, 24, 18, 0, tzinfo=LONDON)
    clock = start_turn(THREE_DAYS, new_clock(THREE_DAYS), saturday)
    assert clock.deadline.timestamp() - saturday.timestamp() == 72 * 3600
    assert clock.deadline == datetime(2026, 10, 27, 17, 0, tzinfo=UTC)
    # the instant is the same; the local wall time shown is an hour earlier
    assert format_deadline(clock.deadline, saturday, "Europe/London") == "Tue 27 Oct, 17:00 GMT (in 3 days)"


def test_dst_change_in_new_york_does_not_move_a_deadline():
    # Saturday 7 Mar 2026, 18:00 EST; the clocks go forward on Sunday 8 Mar.
    saturday = datetime(2026, 3, 7, 18, 0, tzinfo=NEW_YORK)
    clock = start_turn(THREE_DAYS, new_clock(THREE_DAYS), saturday)
    assert clock.deadline.timestamp() - saturday.timestamp() == 72 * 3600
    assert format_deadline(clock.deadline, saturday, "America/New_York") == "Tue 10 Mar, 19:00 EDT (in 3 days)"


def test_clock_view_for_the_game_page():
    clock = start_turn(THREE_DAYS, new_clock(THREE_DAYS), T0 - D)
    view = clock_view(THREE_DAYS, clock, T0, "Europe/London")
    assert view["deadline"] == "2026-11-26T18:00:00Z"
    assert view["deadline_text"] == "Thu 26 Nov, 18:00 GMT (in 2 days)"
    assert view["seconds_left"] == 2 * 86400 and not view["overdue"] and not view["paused"]
    json.dumps(view)
    paused = clock_view(THREE_DAYS, pause(clock, T0), T0 + 5 * D)
    assert paused["paused"] and paused["deadline"] is None and paused["seconds_left"] == 2 * 86400


def test_clock_view_between_fischer_turns_shows_the_bank():
    view = clock_view(BANK_7_PLUS_1, new_clock(BANK_7_PLUS_1), T0)
    assert view["bank_seconds"] == 7 * 86400 and view["deadline"] is None and not view["in_turn"]


# --- vacations -------------------------------------------------------------------------------

TODAY = date(2026, 11, 24)


def test_parse_vacation_forms():
    assert parse_vacation("vacation 5", TODAY) == VacationRequest("days", date(2026, 11, 28))
    assert parse_vacation("Vacation 1 day", TODAY) == VacationRequest("days", TODAY)
    assert parse_vacation(" vacation  until 2026-12-24 ", TODAY) == VacationRequest(
        "until", date(2026, 12, 24))
    assert parse_vacation("vacation until 2026-11-24", TODAY).last_day == TODAY
    assert parse_vacation("BACK", TODAY) == VacationRequest("back", None)


@pytest.mark.parametrize(("text", "words"), [
    ("vacation 0", "vacation 0 takes no days: write a number of days from 1"),
    ("vacation -3", "vacation -3 takes no days"),
    ("vacation 400", "vacation 400 is longer than a year"),
    ("vacation until 2026-11-01", "2026-11-01 has passed; write a date from today (2026-11-24) "
                                  "on, such as `vacation until 2026-12-01`"),
    ("vacation until christmas", "christmas is not a date I can read; write it year-month-day"),
    ("vacation until 2026-02-30", "2026-02-30 is not a date I can read"),
    ("vacation until 2028-01-01", "is more than a year away"),
    ("vacation", "vacation is not a vacation request: write `vacation 5`"),
    ("vacation soon", "`vacation until 2026-12-01`, or `back`"),
])
def test_parse_vacation_refuses_with_words_naming_what_works(text, words):
    with pytest.raises(VacationError) as refused:
        parse_vacation(text, TODAY)
    assert words in str(refused.value)


def test_days_left_counts_each_day_once_and_per_year():
    taken = [(date(2026, 3, 1), date(2026, 3, 10)),
             Vacation(date(2026, 3, 8), date(2026, 3, 12)),          # overlaps: 2 more days
             (date(2026, 12, 30), date(2027, 1, 2))]                 # 2 days in each year
    assert days_left(taken, 2026) == 30 - 12 - 2
    assert days_left(taken, 2027) == 28
    assert days_left(taken, 2026, allowance=10) == 0
    assert days_left([], 2026) == 30


def test_check_request_grants_what_is_left():
    taken = [(date(2026, 1, 1), date(2026, 1, 26))]               # 26 days: 4 left
    request = parse_vacation("vacation 4", TODAY)
    assert check_request(request, taken, None, TODAY) == Vacation(TODAY, date(2026, 11, 27))


def test_check_request_refuses_more_days_than_are_left():
    taken = [(date(2026, 1, 1), date(2026, 1, 26))]
    with pytest.raises(VacationError) as refused:
        check_request(parse_vacation("vacation 5", TODAY), taken, None, TODAY)
    assert str(refused.value) == ("You have 4 vacation days left this year; "
                                  "`vacation 4` would take them all.")


def test_check_request_refuses_when_none_are_left():
    taken = [(date(2026, 1, 1), date(2026, 1, 30))]
    with pytest.raises(VacationError, match="You have no vacation days left this year; "
                                            "30 more come on 1 January 2027"):
        check_request(parse_vacation("vacation 1", TODAY), taken, None, TODAY)


def test_check_request_across_new_year_counts_each_year():
    today = date(2026, 12, 28)
    plan = check_request(parse_vacation("vacation until 2027-01-03", today), [], None, today)
    assert plan == Vacation(today, date(2027, 1, 3))
    taken = [(date(2027, 6, 1), date(2027, 6, 28))]                # 2 left in 2027
    with pytest.raises(VacationError, match="That would take 3 vacation days in 2027, and you "
                                            "have 2 for that year; `vacation until 2027-01-02`"):
        check_request(parse_vacation("vacation until 2027-01-03", today), taken, None, today)


def test_back_while_not_on_vacation_is_refused():
    with pytest.raises(VacationError) as refused:
        check_request(parse_vacation("back", TODAY), [], None, TODAY)
    assert str(refused.value).startswith("You are not on vacation.")
    assert "`vacation 5`" in str(refused.value)


def test_back_ends_the_vacation_today():
    current = Vacation(date(2026, 11, 20), date(2026, 11, 30))
    ended = check_request(parse_vacation("back", TODAY), [current], current, TODAY)
    assert ended == Vacation(date(2026, 11, 20), TODAY) and ended.days == 5


def test_a_new_request_while_away_moves_the_end_and_counts_days_once():
    current = Vacation(date(2026, 11, 20), date(2026, 11, 25))
    taken = [(date(2026, 1, 1), date(2026, 1, 20)), current]       # 20 + 6: 4 left beyond it
    longer = check_request(parse_vacation("vacation 6", TODAY), taken, current, TODAY)
    assert longer == Vacation(date(2026, 11, 20), date(2026, 11, 29))      # 10 days in all
    assert days_left([taken[0], longer], 2026) == 0
    # four days of this vacation are behind us, so six are left from today on
    with pytest.raises(VacationError, match="You have 6 vacation days left this year; "
                                            "`vacation 6` would take them all."):
        check_request(parse_vacation("vacation 7", TODAY), taken, current, TODAY)


def test_local_today_and_resume_instant_in_the_players_zone():
    late_evening_utc = datetime(2026, 11, 24, 23, 30, tzinfo=UTC)
    assert local_today(late_evening_utc, "Asia/Tokyo") == date(2026, 11, 25)
    assert local_today(late_evening_utc, None) == TODAY
    # Midnight after the last day, local: BST on the eve of the change, GMT after it.
    assert resumes_at(Vacation(TODAY, date(2026, 10, 24)), "Europe/London") == datetime(
        2026, 10, 24, 23, 0, tzinfo=UTC)
    assert resumes_at(Vacation(TODAY, date(2026, 10, 25)), "Europe/London") == datetime(
        2026, 10, 26, 0, 0, tzinfo=UTC)
    assert resumes_at(Vacation(TODAY, TODAY), None) == datetime(2026, 11, 25, tzinfo=UTC)
