"""Time control for correspondence games: the `clock=` and `on_timeout=` options, each seat's
clock (deadlines, reminders, missed turns), vacations, and deadlines in words.

Pure and framework-free (the stdlib, and Babel with our catalogs for words in the reader's
language): every function takes the instant `now` as an aware
datetime and returns new frozen records; nothing reads the real clock or a database. The play
layer stores a SeatClock per seat (clock_to_dict / clock_from_dict), the sweep asks
reminder_due / is_overdue / after_miss, and the emails and pages use format_deadline and
clock_view."""
from .control import (
    DEFAULT_CLOCK,
    DEFAULT_ON_TIMEOUT,
    LOBBY_CHOICES,
    LOBBY_DEFAULT,
    LONGEST,
    NO_CLOCK,
    ON_TIMEOUT,
    SHORTEST,
    ClockError,
    OnTimeout,
    TimeControl,
    describe,
    duration_words,
    fischer,
    fixed,
    lobby_choices,
    option_text,
    parse_clock,
    parse_on_timeout,
)
from .display import clock_view, deadline_iso, format_deadline, player_zone, relative
from .seat import (
    ABSENT_AFTER,
    FinishedTurn,
    Miss,
    SeatClock,
    after_miss,
    cancel_turn,
    clock_from_dict,
    clock_to_dict,
    extend_once,
    finish_turn,
    is_overdue,
    mark_reminded,
    new_clock,
    next_reminder,
    pause,
    reminder_at,
    reminder_due,
    reminder_lead,
    reopen_turn,
    reopened_turn,
    resume,
    start_turn,
    time_left,
    timeout_move_played,
)
from .vacation import (
    DEFAULT_ALLOWANCE,
    Vacation,
    VacationError,
    VacationRequest,
    check_request,
    days_left,
    local_today,
    parse_vacation,
    resumes_at,
)

__all__ = [
    "ABSENT_AFTER", "DEFAULT_ALLOWANCE", "DEFAULT_CLOCK", "DEFAULT_ON_TIMEOUT", "LOBBY_CHOICES",
    "LOBBY_DEFAULT", "LONGEST", "NO_CLOCK", "ON_TIMEOUT", "SHORTEST",
    "ClockError", "FinishedTurn", "Miss", "OnTimeout", "SeatClock", "TimeControl", "Vacation",
    "VacationError", "VacationRequest",
    "after_miss", "cancel_turn", "check_request", "clock_from_dict", "clock_to_dict",
    "clock_view", "days_left", "deadline_iso", "describe", "duration_words", "extend_once",
    "finish_turn", "fischer", "fixed", "format_deadline", "is_overdue", "lobby_choices", "local_today",
    "mark_reminded", "new_clock", "next_reminder", "option_text", "parse_clock",
    "parse_on_timeout", "parse_vacation", "pause", "player_zone", "relative", "reminder_at",
    "reminder_due", "reminder_lead", "reopen_turn", "reopened_turn", "resume", "resumes_at", "start_turn",
    "time_left", "timeout_move_played",
]
