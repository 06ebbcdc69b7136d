"""The API's preferences, added to /api/v1 by service.web.api (`register`): read the token
holder's preferences, and set some of them (the keys of `flask players prefs`: language, tz,
rest_days, quiet_hours, reminders, auto_vacation, forced_moves). One bad value changes
nothing and says what would work."""
from __future__ import annotations

from flask import g, request

from service.mailwire.outbound.catalogs import N_
from service.play.time import calendar

from .ext import services
from .openapi import _errors, _json, described
from .problems import Problem

PREFS = {"language": "de", "tz": "Europe/Berlin", "rest_days": "sat,sun",
         "quiet_hours": "22-08", "reminders": "default", "auto_vacation": "on",
         "forced_moves": "on"}

READ = {"summary": "Your preferences: language (en, de, fr), time zone, rest days, quiet "
                   "hours, reminders, automatic vacation, forced moves",
        "responses": {"200": _json(PREFS, "the preferences as they are"),
                      **_errors("401")}}

CHANGE = {
    "summary": "Set some of your preferences (the keys of GET); the others stay",
    "requestBody": {"required": True, "content": {"application/json": {
        "schema": {"type": "object", "properties": {
            key: {"type": "string"} for key in PREFS}},
        "example": {"language": "fr"}}}},
    "responses": {"200": _json(PREFS, "the preferences as they now are"),
                  "409": {"description": "a value refused; nothing changed",
                          "content": _errors("401")["401"]["content"]},
                  **_errors("400", "401", "413")}}


def register(bp) -> None:
    bp.add_url_rule("/me/prefs", "prefs", read_prefs, methods=["GET"])
    bp.add_url_rule("/me/prefs", "change_prefs", change_prefs, methods=["PATCH"])


@described(READ)
def read_prefs():
    return calendar.read_preferences(services(), g.api_player.player_id)


@described(CHANGE)
def change_prefs():
    # the API's size limit stands (api.authenticate sets it): a bigger body is a 413
    data = request.get_json(silent=True)
    if not isinstance(data, dict) or not data or \
            not all(isinstance(v, str) for v in data.values()):
        raise Problem(400, N_("Malformed preferences"), N_(
            "Send the preferences to set as strings, e.g. {\"language\": \"de\"}."))
    return calendar.save_preferences(services(), data, player_id=g.api_player.player_id)
