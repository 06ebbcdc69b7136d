"""A player's calendar preferences: `tz`, `rest_days`, `quiet_hours`, `reminders`,
`auto_vacation`, and `forced_moves` (a seat's only move played for it, service.play.moves.tablebots),
with `language` (en, de, fr: their emails, answers and pages), set together from /me, the
API's /api/v1/me/prefs or `flask players prefs EMAIL KEY=VALUE...`. Every value
is checked before any is stored: one bad value changes nothing and says what would work."""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import available_timezones

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from service.mailwire.outbound import catalogs
from service.mailwire.outbound.catalogs import N_, _
from service.store.models import GameRow, Player, Seat

from ...errors import PlayError
from ...services import Services
from .. import clocks
from . import calendarrules

KEYS = ("tz", "rest_days", "quiet_hours", "reminders", "auto_vacation", "forced_moves",
        "language")
REST_DAYS_EVERY = timedelta(days=7)     # rest days change at most this often
ZONES = frozenset(available_timezones())


class CalendarRefused(PlayError):
    title = N_("That preference cannot be set")


def preferences(player: Any) -> dict[str, str]:
    """The preferences as a player writes them (a Player row)."""
    return {"tz": player.zone or "UTC",
            "rest_days": player.rest_days or "none",
            "quiet_hours": player.quiet_hours or "none",
            "reminders": player.reminders or "default",
            "auto_vacation": "on" if player.auto_vacation else "off",
            "forced_moves": "on" if player.forced_moves else "off",
            "language": catalogs.chosen(player.language)}


def read_preferences(svc: Services, player_id: int) -> dict[str, str]:
    with svc.db.transaction() as session:
        return preferences(session.get(Player, player_id))


def save_preferences(svc: Services, changes: dict[str, str], *, player_id: int | None = None,
                     email: str | None = None) -> dict[str, str]:
    """Set some of the preferences (KEYS) of the player found by id or address; returns them
    all as they now are. Raises CalendarRefused with words; then nothing changed."""
    unknown = sorted(set(changes) - set(KEYS))
    if unknown:
        raise CalendarRefused(_("%(key)s is not a preference; the keys are %(keys)s.",
                                key=unknown[0][:30], keys=", ".join(KEYS)))
    now = svc.clock.now()
    with svc.db.transaction() as session:
        query = select(Player).where(Player.id == player_id) if player_id is not None \
            else select(Player).where(func.lower(Player.email) == (email or "").strip().lower())
        player = session.scalars(query.with_for_update()).first()
        if player is None:
            raise CalendarRefused(_("No player has the address %(address)s.",
                                    address=(email or "")[:100]))
        try:
            values = _checked(session, player, changes, now)
        except calendarrules.CalendarError as exc:
            raise CalendarRefused(str(exc)) from None
        for column, value in values.items():
            setattr(player, column, value)
        return preferences(player)


def _checked(session: Session, player: Player, changes: dict[str, str],
             now: datetime) -> dict[str, Any]:
    """The columns to set, every value checked first."""
    values: dict[str, Any] = {}
    if "tz" in changes:
        zone = changes["tz"].strip()
        if zone not in ZONES:
            raise calendarrules.CalendarError(_("%(zone)r is not a time zone; write it like "
                                                "tz=Europe/Berlin or tz=America/New_York.",
                                                zone=zone[:60]))
        values["zone"] = zone
    if "rest_days" in changes:
        days = calendarrules.rest_days_text(calendarrules.parse_rest_days(changes["rest_days"]))
        if days != player.rest_days:
            _check_week(player, now)
            values.update(rest_days=days, rest_days_changed_at=now)
    if "quiet_hours" in changes:
        values["quiet_hours"] = calendarrules.quiet_text(calendarrules.parse_quiet_hours(changes["quiet_hours"]))
    if "reminders" in changes:
        offsets = calendarrules.parse_reminders(changes["reminders"])
        calendarrules.check_reminders_fit(offsets, _longest_turn(session, player.id))
        values["reminders"] = calendarrules.reminders_text(offsets)
    if "auto_vacation" in changes:
        values["auto_vacation"] = calendarrules.parse_switch("auto_vacation", changes["auto_vacation"])
    if "forced_moves" in changes:
        values["forced_moves"] = calendarrules.parse_switch("forced_moves", changes["forced_moves"])
    if "language" in changes:
        language = catalogs.known(changes["language"])
        if language is None:
            raise calendarrules.CalendarError(_("%(typed)r is not a language of ours; write one "
                                                "of %(codes)s, e.g. language=de.",
                                                typed=changes["language"][:20],
                                                codes=", ".join(catalogs.LANGUAGES)))
        values["language"] = language
    return values


def _check_week(player: Player, now: datetime) -> None:
    changed = player.rest_days_changed_at
    if changed is not None and now - changed < REST_DAYS_EVERY:
        again = clocks.format_deadline(changed + REST_DAYS_EVERY, now, player.zone)
        raise calendarrules.CalendarError(_("Rest days change at most once a week; you may "
                                            "change yours again from %(again)s. Nothing was "
                                            "changed.", again=again))


def _longest_turn(session: Session, player_id: int) -> timedelta:
    """The longest time for a turn in the player's games in progress (the longest the
    service offers when they have none with a clock)."""
    options = session.scalars(select(GameRow.clock).join(Seat, Seat.game_id == GameRow.id)
                              .where(Seat.player_id == player_id, GameRow.status != "ended",
                                     GameRow.clock.is_not(None)).distinct()).all()
    turns = [_turn(clocks.parse_clock(o)) for o in options]
    return max(turns, default=clocks.LONGEST)


def _turn(tc: clocks.TimeControl) -> timedelta:
    return tc.per_move if tc.kind == "per_move" else tc.bank
