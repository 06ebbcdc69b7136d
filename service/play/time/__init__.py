"""Time: time controls, every seat's clock and deadline, vacations. The sweep that acts on them is the family
service.play.time.sweep."""

from service.play import notify

from . import calendar, clocks, deadlines, ending, extensions, mailholds, vacationdays
from .clocks import LOBBY_CHOICES, LOBBY_DEFAULT, ClockError, SeatClock
from .deadlines import (
    BATCH,
    MAX_TIMEOUT_MOVES,
    OUT,
    Said,
    about,
    change,
    control,
    end_game,
    get_clock,
    policy_of,
    receipt_key,
    seat_line,
    seat_row,
    set_clock,
    tell,
    timer_key,
    to_the_others,
    who,
    worded,
)

__all__ = [
    "extensions",
    "mailholds",
    "vacationdays",
    "calendar",
    "ending",
    "BATCH",
    "ClockError",
    "LOBBY_CHOICES",
    "LOBBY_DEFAULT",
    "MAX_TIMEOUT_MOVES",
    "OUT",
    "Said",
    "about",
    "SeatClock",
    "change",
    "clocks",
    "control",
    "deadlines",
    "end_game",
    "get_clock",
    "policy_of",
    "receipt_key",
    "seat_line",
    "seat_row",
    "set_clock",
    "tell",
    "timer_key",
    "to_the_others",
    "who",
    "worded",
]

# a row queued inside its recipient's quiet hours waits for their end (see notify.hold)
notify.hold = calendar.hold
