"""One seat's clock in one game, as a frozen record and pure functions that return a new one.

Every instant is an aware UTC datetime passed in by the caller (`now`): nothing here reads the
real clock, and no wall-clock arithmetic happens in a player's zone, so a daylight-saving change
never moves a deadline. Naive datetimes are refused.

The life of a turn, as the play layer drives it:

    start_turn ──> (pause/resume for vacation) ──> finish_turn          the player moved
                         │
                         └─ deadline passes ──> after_miss(policy)      the sweep
                                                  ├─ bot/forfeit: the timeout move is played
                                                  └─ wait: extend_once, or timeout_move_played

In Aristocracy's sealed simultaneous choices every seat in `to_act` has its own SeatClock:
start each one's turn, and finish each as that seat chooses; they never share time.

A move taken back by agreement (service.play.moves.undo) rewinds the clocks with the position: a turn
that began after the position returned to never happened (`cancel_turn`), and the turn the
position returns to goes on where it stopped (`reopen_turn`). To know where it stopped, a
finished turn is kept (`FinishedTurn`, in `last_turn`) until the seat's next turn ends, and
each turn knows the position it began at (`turn_at`: an opaque number, the event sequence
number to the play layer).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from service.mailwire.outbound.catalogs import _

from .control import HOUR, ClockError, OnTimeout, TimeControl

ABSENT_AFTER = 3              # missed turns in a row after which a seat is marked absent
SHORTEST_REMINDER_LEAD = HOUR  # a reminder comes at least this long before the deadline...
LONGEST_REMINDER_LEAD = timedelta(hours=24)  # ...and at most this long


@dataclass(frozen=True)
class SeatClock:
    """A seat's clock. Between turns only `bank` (Fischer), `paused_since` (on vacation) and
    `missed_in_a_row` carry over; the rest describes the turn in progress."""

    bank: timedelta | None = None           # Fischer: what is left in the bank between turns
    turn_started: datetime | None = None    # set while it is this seat's turn
    deadline: datetime | None = None        # None with no clock, or between turns
    allowance: timedelta | None = None      # time given at turn start: the reminder's quarter
    paused_since: datetime | None = None    # the seat's player is on vacation
    reminded: bool = False                  # this turn's reminder has gone out
    reminded_at: datetime | None = None     # the last of this turn's reminders sent (a player's
                                            # own list: service.play.time.calendar)
    extended: bool = False                  # `wait`: this turn's one extension is used
    timed_out: bool = False                 # the sweep has handled this deadline's passing
    missed_in_a_row: int = 0
    turn_at: int | None = None              # the position this turn began at (None: unknown)
    last_turn: FinishedTurn | None = None   # the last turn the seat ended by moving

    @property
    def in_turn(self) -> bool:
        return self.turn_started is not None

    @property
    def paused(self) -> bool:
        return self.paused_since is not None


@dataclass(frozen=True)
class FinishedTurn:
    """A turn as it stood when the seat moved: the in-turn clock (without its own `last_turn`),
    when the move was made, the time then left (pauses excluded; None without a deadline), and
    the position the move led to. A take-back of that move reopens it (`reopen_turn`)."""

    clock: SeatClock
    moved_at: datetime
    left: timedelta | None
    ended_at: int | None


def new_clock(tc: TimeControl) -> SeatClock:
    """A seat's clock at the start of a game: a Fischer bank starts full."""
    return SeatClock(bank=tc.bank if tc.kind == "fischer" else None)


def start_turn(tc: TimeControl, clock: SeatClock, now: datetime,
               at: int | None = None) -> SeatClock:
    """It is now this seat's turn (from position `at`): per move, deadline = now + time per
    move; Fischer, now + what is left in the bank. A seat on vacation starts its turn paused, so
    its vacation counts from the turn's start. Starting a turn already in progress changes
    nothing (a sweep may repeat)."""
    now = utc(now)
    if clock.in_turn:
        return clock
    allowance = _allowance(tc, clock)
    return replace(
        clock,
        turn_started=now,
        deadline=None if allowance is None else now + allowance,
        allowance=allowance,
        paused_since=now if clock.paused else None,
        reminded=False, reminded_at=None, extended=False, timed_out=False,
        turn_at=at,
    )


def _allowance(tc: TimeControl, clock: SeatClock) -> timedelta | None:
    if tc.kind == "per_move":
        return tc.per_move
    if tc.kind == "fischer":
        return tc.bank if clock.bank is None else clock.bank
    return None


def finish_turn(tc: TimeControl, clock: SeatClock, now: datetime,
                at: int | None = None) -> SeatClock:
    """The seat moved (to position `at`): its clock stops and its run of missed turns ends.
    Fischer: the bank keeps what was left (pauses excluded), plus the increment, never above the
    starting bank. Time granted by an extension is grace, not bank: an extended turn leaves
    only the increment. The turn is kept as it stood, for a take-back (`reopen_turn`)."""
    now = utc(now)
    if not clock.in_turn:
        return clock
    bank = None
    if tc.kind == "fischer":
        left = timedelta(0) if clock.extended else max(timedelta(0), time_left(clock, now))
        bank = min(tc.bank, left + tc.increment)
    kept = FinishedTurn(replace(clock, last_turn=None), now, time_left(clock, now), at)
    return replace(_between_turns(clock, bank, missed=0), last_turn=kept)


# --- a move taken back ---------------------------------------------------------------------
#
# What is fair when a move is taken back by agreement: the seat whose move it was gets its turn
# back as it stood when it moved, with the time it then had left, counted again from the
# take-back (the minutes between its move and the others' agreement are not its own: its clock
# was stopped, the others' ran). It neither gains a fresh full period nor loses time it did not
# spend; a Fischer bank is what it was at that turn's start (the increment it earned by the move
# goes with the move); its reminder, extension and missed turns are as they were. A seat whose
# turn began after the position returned to loses nothing by it: that turn never happened, no
# time is charged and no increment earned.

def cancel_turn(clock: SeatClock) -> SeatClock:
    """A take-back returned the game to before this turn began: the turn never happened. The
    clock stops as it stood at the turn's start (a Fischer bank as it was, no increment), and a
    miss counted in this turn (`wait`) is uncounted."""
    if not clock.in_turn:
        return clock
    missed = clock.missed_in_a_row
    if clock.timed_out or clock.extended:
        missed = max(0, missed - 1)
    return replace(_between_turns(clock, clock.bank, missed), last_turn=clock.last_turn)


def reopen_turn(tc: TimeControl, clock: SeatClock, now: datetime, at: int) -> SeatClock:
    """A take-back returned the game to position `at`, where this seat is to act. A turn that
    ran since before `at` goes on unchanged; a turn that began after `at` is cancelled first.
    Then the turn the seat was in at `at` goes on from now with the time it had left when the
    seat moved (see above); when that turn is not known (a clock stored before turns were kept,
    a bot that has moved since), a new turn starts, as after any move."""
    now = utc(now)
    if clock.in_turn:
        if clock.turn_at is None or clock.turn_at <= at:
            return clock
        clock = cancel_turn(clock)
    last = reopened_turn(clock, at)
    if last is None:
        return start_turn(tc, clock, now, at)
    turn, shift = last.clock, now - last.moved_at
    return replace(turn,
                   turn_started=turn.turn_started + shift,
                   deadline=None if last.left is None else now + last.left,
                   paused_since=now if clock.paused else None,
                   last_turn=None)


def reopened_turn(clock: SeatClock, at: int) -> FinishedTurn | None:
    """The turn a take-back to position `at` reopens for a seat not in turn: the one it was in
    at `at`, if kept (`reopen_turn` goes on with it; None: a new turn starts)."""
    last = clock.last_turn
    if (last is None or last.ended_at is None or last.ended_at <= at
            or last.clock.turn_at is None or last.clock.turn_at > at):
        return None
    return last


def timeout_move_played(tc: TimeControl, clock: SeatClock) -> SeatClock:
    """The engine's timeout move was played for the seat (after_miss said so, or the others
    switched a waiting seat to `bot`): the clock stops with the miss already counted, and a
    Fischer bank, spent, gets only the increment."""
    bank = min(tc.bank, tc.increment) if tc.kind == "fischer" else None
    return _between_turns(clock, bank, clock.missed_in_a_row)


def _between_turns(clock: SeatClock, bank: timedelta | None, missed: int) -> SeatClock:
    # Vacation outlives the turn: keep the seat paused, from whenever.
    return SeatClock(bank=bank, paused_since=clock.paused_since, missed_in_a_row=missed)


def time_left(clock: SeatClock, now: datetime) -> timedelta | None:
    """Time until the deadline, frozen while paused; negative when overdue; None without one
    (between turns a Fischer seat's time is its `bank`)."""
    if clock.deadline is None:
        return None
    counted_until = clock.paused_since if clock.paused else utc(now)
    return clock.deadline - counted_until


# --- vacation ------------------------------------------------------------------------------

def pause(clock: SeatClock, now: datetime) -> SeatClock:
    """The player went on vacation: the clock stops (in turn or not). Pausing a paused clock
    changes nothing, so the play layer may pause every game of the player blindly."""
    if clock.paused:
        return clock
    return replace(clock, paused_since=utc(now))


def resume(clock: SeatClock, now: datetime) -> SeatClock:
    """The player is back: a running deadline moves later by exactly the time paused, for a
    fixed time per move as for a Fischer bank. Resuming a running clock changes nothing."""
    now = utc(now)
    if not clock.paused:
        return clock
    paused_for = max(timedelta(0), now - clock.paused_since)
    deadline = None if clock.deadline is None else clock.deadline + paused_for
    return replace(clock, paused_since=None, deadline=deadline)


# --- reminders -----------------------------------------------------------------------------

def reminder_lead(allowance: timedelta) -> timedelta | None:
    """How long before the deadline the reminder goes: a quarter of the time the turn gave,
    at most 24 hours and at least 1 hour. None for a turn under 2 hours: its reminder would
    come in the first half of the turn, on the heels of the turn email itself."""
    if allowance < 2 * SHORTEST_REMINDER_LEAD:
        return None
    return min(LONGEST_REMINDER_LEAD, max(SHORTEST_REMINDER_LEAD, allowance / 4))


def reminder_at(tc: TimeControl, started: datetime, deadline: datetime) -> datetime | None:
    """When to remind a seat whose turn started at `started` with deadline `deadline` (both as
    at turn start). Fischer counts the time available at turn start (the bank), per move the
    time per move. None with no clock, or for a turn too short for a reminder."""
    if tc.kind == "none":
        return None
    allowance = tc.per_move if tc.kind == "per_move" else utc(deadline) - utc(started)
    lead = reminder_lead(allowance)
    return None if lead is None else utc(deadline) - lead


def next_reminder(clock: SeatClock) -> datetime | None:
    """When this turn's reminder is due, following the deadline as vacations move it; None when
    there is none to send (no deadline, already sent, or too short a turn)."""
    if clock.deadline is None or clock.reminded or clock.allowance is None:
        return None
    lead = reminder_lead(clock.allowance)
    return None if lead is None else clock.deadline - lead


def reminder_due(clock: SeatClock, now: datetime) -> bool:
    """Send the reminder now? Never twice a turn, never to a seat that has moved (its turn is
    over), never on vacation, never once the deadline has passed."""
    now = utc(now)
    due_at = next_reminder(clock)
    if due_at is None or clock.paused or clock.timed_out:
        return False
    return due_at <= now < clock.deadline


def mark_reminded(clock: SeatClock) -> SeatClock:
    return replace(clock, reminded=True)


# --- missed turns --------------------------------------------------------------------------

def is_overdue(clock: SeatClock, now: datetime) -> bool:
    """The deadline has passed and the sweep has not yet handled it (vacation stops it)."""
    left = time_left(clock, now)
    return left is not None and left <= timedelta(0) and not clock.paused and not clock.timed_out


@dataclass(frozen=True)
class Miss:
    """What the sweep does about a seat whose deadline passed, and the seat's clock after it."""

    clock: SeatClock
    play_timeout_move: bool   # play the engine's timeout move for the seat now
    forfeit: bool             # the seat loses and ranks last; later turns get the timeout move
    end_game: bool            # a forfeit that leaves one player: the game ends
    tell_others: bool         # `wait`: tell the others, with the links below
    can_extend: bool          # `wait`: the extend-once link is still on offer
    absent: bool              # ABSENT_AFTER missed turns in a row: mark the seat absent


def after_miss(policy: OnTimeout, tc: TimeControl, clock: SeatClock, now: datetime, *,
               seats_in_play: int) -> Miss:
    """The seat's deadline passed (is_overdue). `seats_in_play` counts the seats not yet
    forfeited, this one included (required: a default would let a forgotten count end a
    four-player game). A turn counts once as missed, even when its one extension runs out
    too."""
    if not is_overdue(clock, now):
        raise ValueError("after_miss on a seat whose deadline has not passed")
    missed = clock.missed_in_a_row + (0 if clock.extended else 1)
    counted = replace(clock, missed_in_a_row=missed, timed_out=True)
    absent = missed >= ABSENT_AFTER
    if policy == "wait":
        return Miss(counted, play_timeout_move=False, forfeit=False, end_game=False,
                    tell_others=True, can_extend=not clock.extended, absent=absent)
    stopped = timeout_move_played(tc, counted)
    if policy == "forfeit":
        ends = seats_in_play <= 2
        return Miss(stopped, play_timeout_move=not ends, forfeit=True, end_game=ends,
                    tell_others=False, can_extend=False, absent=absent)
    return Miss(stopped, play_timeout_move=True, forfeit=False, end_game=False,
                tell_others=False, can_extend=False, absent=absent)


def extend_once(tc: TimeControl, clock: SeatClock, now: datetime) -> SeatClock:
    """`wait`: another player extends a seat's deadline, once a turn, by one full time per move
    (Fischer: one full bank), counted from now or the deadline, whichever is later."""
    now = utc(now)
    if clock.deadline is None or tc.kind == "none":
        raise ClockError(_("This seat has no running deadline to extend."))
    if clock.extended:
        raise ClockError(_("This turn's deadline has already been extended once; you can "
                           "switch the seat to bot instead."))
    extension = tc.per_move if tc.kind == "per_move" else tc.bank
    return replace(clock, deadline=max(clock.deadline, now) + extension,
                   extended=True, timed_out=False)


# --- storing it ----------------------------------------------------------------------------

def clock_to_dict(clock: SeatClock) -> dict[str, Any]:
    """JSON-safe: durations in whole seconds, instants as ISO 8601 UTC."""
    return {
        "bank": _seconds(clock.bank),
        "turn_started": _iso(clock.turn_started),
        "deadline": _iso(clock.deadline),
        "allowance": _seconds(clock.allowance),
        "paused_since": _iso(clock.paused_since),
        "reminded": clock.reminded,
        **({} if clock.reminded_at is None else {"reminded_at": _iso(clock.reminded_at)}),
        "extended": clock.extended,
        "timed_out": clock.timed_out,
        "missed_in_a_row": clock.missed_in_a_row,
        **({} if clock.turn_at is None else {"turn_at": clock.turn_at}),
        **({} if clock.last_turn is None else {"last_turn": _finished_to_dict(clock.last_turn)}),
    }


def _finished_to_dict(turn: FinishedTurn) -> dict[str, Any]:
    return {"clock": clock_to_dict(turn.clock), "moved_at": _iso(turn.moved_at),
            "left": _seconds(turn.left), "ended_at": turn.ended_at}


def _finished_from_dict(data: dict[str, Any] | None) -> FinishedTurn | None:
    if not data:
        return None
    return FinishedTurn(clock_from_dict(data.get("clock") or {}), _instant(data["moved_at"]),
                        _span(data.get("left")), data.get("ended_at"))


def clock_from_dict(data: dict[str, Any]) -> SeatClock:
    """The inverse of clock_to_dict; missing keys take their defaults."""
    return SeatClock(
        bank=_span(data.get("bank")),
        turn_started=_instant(data.get("turn_started")),
        deadline=_instant(data.get("deadline")),
        allowance=_span(data.get("allowance")),
        paused_since=_instant(data.get("paused_since")),
        reminded=bool(data.get("reminded", False)),
        reminded_at=_instant(data.get("reminded_at")),
        extended=bool(data.get("extended", False)),
        timed_out=bool(data.get("timed_out", False)),
        missed_in_a_row=int(data.get("missed_in_a_row", 0)),
        turn_at=data.get("turn_at"),
        last_turn=_finished_from_dict(data.get("last_turn")),
    )


def _seconds(span: timedelta | None) -> float | None:
    return None if span is None else span.total_seconds()


def _span(seconds: float | None) -> timedelta | None:
    return None if seconds is None else timedelta(seconds=seconds)


def _iso(instant: datetime | None) -> str | None:
    return None if instant is None else utc(instant).isoformat()


def _instant(text: str | None) -> datetime | None:
    return None if text is None else utc(datetime.fromisoformat(text))


def utc(instant: datetime) -> datetime:
    """The same instant in UTC; a naive datetime is a bug (whose midnight would it be?)."""
    if instant.tzinfo is UTC:        # as stored and read back: nothing to convert
        return instant
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise ValueError(f"naive datetime {instant!r}: pass an aware datetime, in UTC")
    return instant.astimezone(UTC)
