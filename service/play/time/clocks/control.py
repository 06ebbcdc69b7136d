"""Time control as a game option: `clock=` and `on_timeout=`, read from the lobby and from
`flask start-game -o`, and said back in words.

Pure: no clock, no framework. Every refusal is a `ClockError` whose message names what would
work, so an adapter can show it to the player as it is."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

from service.mailwire.outbound.catalogs import N_, _, ngettext

HOUR = timedelta(hours=1)
DAY = timedelta(days=1)

# Below an hour a correspondence turn cannot survive a night; above 60 days a game stalls for
# a season. Both bounds are said in the refusals, so keep them in step with the words there.
SHORTEST = HOUR
LONGEST = timedelta(days=60)

ClockKind = Literal["none", "per_move", "fischer"]


class ClockError(ValueError):
    """A time-control option (or a clock action) the player asked for cannot be had; the message
    is a sentence for the player naming what would work."""


@dataclass(frozen=True)
class TimeControl:
    """How much time a seat has per move.

    - `none`: no clock;
    - `per_move`: a fixed time per move, reset at each turn;
    - `fischer`: a bank, and `increment` added to it after each move, never above `bank`
      (here `bank` is the starting bank and also its cap).
    """

    kind: ClockKind = "none"
    per_move: timedelta | None = None
    bank: timedelta | None = None
    increment: timedelta | None = None

    def __post_init__(self) -> None:
        # A programming error, not a player's: the fields must match the kind.
        wanted = {"none": (), "per_move": ("per_move",), "fischer": ("bank", "increment")}
        if self.kind not in wanted:
            raise ValueError(f"unknown time-control kind {self.kind!r}")
        for name in ("per_move", "bank", "increment"):
            needed = name in wanted[self.kind]
            if (getattr(self, name) is not None) != needed:
                verb = "needs" if needed else "has no"
                raise ValueError(f"a {self.kind} time control {verb} {name}")


NO_CLOCK = TimeControl()


def fixed(per_move: timedelta) -> TimeControl:
    """A fixed time per move, reset at each turn."""
    return TimeControl("per_move", per_move=per_move)


def fischer(bank: timedelta, increment: timedelta) -> TimeControl:
    """A bank of `bank`, plus `increment` after each move, never above `bank`."""
    return TimeControl("fischer", bank=bank, increment=increment)


# --- reading `clock=` ----------------------------------------------------------------------

_UNIT = r"(d|days?|h|hours?)"
_AMOUNT = rf"(\d+)\s*{_UNIT}"
_CLOCK = re.compile(rf"^{_AMOUNT}(?:\s*\+\s*{_AMOUNT})?$", re.IGNORECASE)
_WHAT_WORKS = N_("write none, a time per move such as 3d or 12h, or a bank plus increment "
                 "such as 7d+1d")
#: where a length is refused, said inside the refusal
_PER_MOVE, _IN_THE_BANK = N_("per move"), N_("in the bank")


def parse_clock(text: str) -> TimeControl:
    """`none`, `3d`, `12h` or `7d+1d` (any case, spaces allowed, `clock=` prefix allowed) to a
    TimeControl; anything else raises ClockError naming what would work."""
    written = _strip_option_name(text, "clock")
    shown = f"clock={written}"
    if written.lower() == "none":
        return NO_CLOCK
    match = _CLOCK.match(written)
    if not match:
        raise ClockError(_("%(shown)s is not a time control: %(what)s", shown=shown,
                           what=_(_WHAT_WORKS)))
    first = _hours(match.group(1), match.group(2))
    if match.group(3) is None:
        _check_length(shown, first, _PER_MOVE, example="3d")
        return fixed(timedelta(hours=first))
    increment = _hours(match.group(3), match.group(4))
    _check_length(shown, first, _IN_THE_BANK, example="7d+1d")
    if increment == 0:
        raise ClockError(_("%(shown)s adds nothing after a move: write an increment of at "
                           "least 1 hour such as 7d+1d, or a time per move such as 7d",
                           shown=shown))
    if increment > first:
        raise ClockError(_("%(shown)s adds more after a move than the bank holds: the "
                           "increment must be at most the bank, such as 7d+1d", shown=shown))
    return fischer(timedelta(hours=first), timedelta(hours=increment))


def _strip_option_name(text: str, name: str) -> str:
    written = " ".join(text.split())
    if written.lower().startswith(f"{name}="):
        written = written[len(name) + 1:].strip()
    return written


def _hours(number: str, unit: str) -> int:
    # Counting in whole hours keeps a huge number ("99999999999d") out of timedelta's range
    # until the length check has refused it.
    return int(number) * (24 if unit[0].lower() == "d" else 1)


def _check_length(shown: str, hours: int, where: str, example: str) -> None:
    if hours < SHORTEST / HOUR:
        raise ClockError(_("%(shown)s is too short: at least 1 hour %(where)s, such as "
                           "%(example)s, or none for no clock", shown=shown, where=_(where),
                           example=example))
    if hours > LONGEST / HOUR:
        raise ClockError(_("%(shown)s is too long: at most %(days)d days %(where)s, such as "
                           "%(example)s, or none for no clock", shown=shown, days=LONGEST.days,
                           where=_(where), example=example))


# --- saying it back ------------------------------------------------------------------------

def describe(tc: TimeControl) -> str:
    """The time control in words, in the language of the moment: "3 days per move", "no
    clock", "a bank of 7 days, plus 1 day per move (at most 7 days)"."""
    if tc.kind == "per_move":
        return _("%(span)s per move", span=duration_words(tc.per_move))
    if tc.kind == "fischer":
        return _("a bank of %(bank)s, plus %(span)s per move (at most %(bank)s)",
                 bank=duration_words(tc.bank), span=duration_words(tc.increment))
    return _("no clock")


def option_text(tc: TimeControl) -> str:
    """The canonical option string: parse_clock(option_text(tc)) == tc."""
    if tc.kind == "per_move":
        return _duration_option(tc.per_move)
    if tc.kind == "fischer":
        return f"{_duration_option(tc.bank)}+{_duration_option(tc.increment)}"
    return "none"


def duration_words(span: timedelta) -> str:
    """Whole days as days ("2 days", "2 Tage"), anything else as hours ("36 hours", "1 hour")."""
    if span % DAY == timedelta(0):
        return ngettext("%(num)d day", "%(num)d days", span // DAY)
    return ngettext("%(num)d hour", "%(num)d hours", round(span / HOUR))


def _duration_option(span: timedelta) -> str:
    if span % DAY == timedelta(0):
        return f"{span // DAY}d"
    return f"{round(span / HOUR)}h"


# The lobby offers these, in this order; the words come from describe() so they never drift.
LOBBY_DEFAULT = "3d"
DEFAULT_CLOCK = parse_clock(LOBBY_DEFAULT)
LOBBY_OPTIONS = ("12h", "1d", "2d", "3d", "5d", "7d", "14d", "7d+1d", "14d+2d", "none")
#: the choices in English (the API's and the CLI's words)
LOBBY_CHOICES: list[tuple[str, str]] = [
    (option, describe(parse_clock(option))) for option in LOBBY_OPTIONS]


def lobby_choices() -> list[tuple[str, str]]:
    """The lobby's choices in the language of the moment (a page's reader's)."""
    return [(option, describe(parse_clock(option))) for option in LOBBY_OPTIONS]


# --- on_timeout= ---------------------------------------------------------------------------

OnTimeout = Literal["bot", "forfeit", "wait"]
ON_TIMEOUT: tuple[OnTimeout, ...] = ("bot", "forfeit", "wait")
DEFAULT_ON_TIMEOUT: OnTimeout = "bot"


def parse_on_timeout(text: str) -> OnTimeout:
    """`bot`, `forfeit` or `wait` (any case, `on_timeout=` prefix allowed); anything else raises
    ClockError naming the three."""
    written = _strip_option_name(text, "on_timeout")
    policy = written.lower()
    if policy in ON_TIMEOUT:
        return policy  # type: ignore[return-value]
    raise ClockError(_(
        "on_timeout=%(written)s is not a timeout policy: write bot (the default: the timeout "
        "move is played for the seat), forfeit (the seat loses) or wait (nothing is played; "
        "the others may extend the deadline once or switch the seat to bot)", written=written))
