"""A seat's calendar, read from its player (and its game's own rest days)."""
from __future__ import annotations

from datetime import UTC
from functools import lru_cache
from typing import Any

from ..clocks import player_zone
from . import calendarrules
from .calendarrules import Calendar


def of_seat(row: Any, game: Any = None, player: Any = None) -> Calendar:
    """The calendar of a seat (an ORM row or a plain record with `.player`, or `player` taking
    it over): the player's, with the game's own rest days instead of theirs when it has some."""
    player = player if player is not None else row.player
    game_days = getattr(game, "rest_days", None) if game is not None else None
    return _calendar(getattr(player, "zone", None), game_days or getattr(player, "rest_days", None),
                     getattr(player, "quiet_hours", None), getattr(player, "reminders", None))


def of_player(player: Any) -> Calendar:
    """A player's own calendar, outside any game."""
    return _calendar(player.zone, player.rest_days, player.quiet_hours, player.reminders)


@lru_cache(maxsize=1024)
def _calendar(zone: str | None, rest_days: str | None, quiet: str | None,
              reminders: str | None) -> Calendar:
    # a few distinct calendars; the sweep asks for each seat's several times
    return Calendar(zone=player_zone(zone) or UTC, rest_days=calendarrules.parse_rest_days(rest_days),
                    quiet=calendarrules.parse_quiet_hours(quiet), reminders=calendarrules.parse_reminders(reminders))
