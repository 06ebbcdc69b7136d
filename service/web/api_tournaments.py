"""The API's tournaments, added to /api/v1 by service.web.api (`register`): make one as the
lobby's form does (its entrants invited by email, bots entered at once), then start it with
those who accepted or call it off. Reading one (GET /tournaments/<id>) is public, in api.py."""
from __future__ import annotations

from flask import g, request

from service.mailwire.outbound.catalogs import N_
from service.play import community

from .ext import services
from .openapi import PROBLEM, _errors, _json, described
from .problems import Problem

_ID = [{"name": "tournament_id", "in": "path", "required": True,
        "schema": {"type": "integer"}, "example": 1}]
_REFUSED = {"description": "refused, with the reason (nothing was changed)", "content": PROBLEM}
_NOT_FOUND = {"description": "no such tournament", "content": PROBLEM}

MAKE = {
    "summary": "Make a tournament: you enter it, each address is invited by email (Accept and "
               "Decline links, 7 days), a bot level (easy, medium, hard) enters at once; "
               "round 1 starts when every entrant has accepted",
    "requestBody": {"required": True, "content": {"application/json": {
        "schema": {"type": "object", "required": ["game", "format", "entrants"], "properties": {
            "game": {"type": "string"},
            "format": {"type": "string", "enum": ["swiss", "round-robin"]},
            "rounds": {"type": ["integer", "null"],
                       "description": "a Swiss's rounds; a round robin plays as many as it "
                                      "takes"},
            "entrants": {"type": "array", "items": {"type": "string"},
                         "description": "addresses to invite, or bot levels; not you"},
            "clock": {"type": "string", "description": "a time control as the lobby writes "
                                                       "it, e.g. 3d"},
            "rated": {"type": "boolean"}, "noVacation": {"type": "boolean"}}},
        "example": {"game": "trees", "format": "swiss", "rounds": 3,
                    "entrants": ["ben@example.org", "carla@example.org"], "clock": "3d"}}}},
    "responses": {"201": _json({"tournamentId": 1, "started": False,
                                "url": "https://turnpost.example/api/v1/tournaments/1"},
                               "made: the invitations are on their way (started: round 1 "
                               "began at once, every entrant a bot)"),
                  "409": _REFUSED, **_errors("400", "401", "413")}}

START = {
    "summary": "Start your tournament with the entrants who accepted (the invitations still "
               "open close)",
    "parameters": _ID,
    "responses": {"200": _json({"tournamentId": 1, "games": 1}, "round 1 has started"),
                  "404": _NOT_FOUND,
                  "409": {"description": "not yours, started or called off already, or too "
                                         "few accepted to fill a table", "content": PROBLEM},
                  **_errors("401")}}

CANCEL = {
    "summary": "Call off your tournament before it starts (its open invitations close)",
    "parameters": _ID,
    "responses": {"200": _json({"tournamentId": 1, "status": "cancelled"}, "called off"),
                  "404": _NOT_FOUND,
                  "409": {"description": "not yours, or started or called off already",
                          "content": PROBLEM},
                  **_errors("401")}}


def register(bp) -> None:
    bp.add_url_rule("/tournaments", "make_tournament", make_tournament, methods=["POST"])
    bp.add_url_rule("/tournaments/<int:tournament_id>/start", "start_tournament",
                    start_tournament, methods=["POST"])
    bp.add_url_rule("/tournaments/<int:tournament_id>/cancel", "cancel_tournament",
                    cancel_tournament, methods=["POST"])


@described(MAKE)
def make_tournament():
    # the API's size limit stands (api.authenticate sets it): a bigger body is a 413
    data = request.get_json(silent=True)
    if not isinstance(data, dict) or not all(isinstance(data.get(k), str)
                                             for k in ("game", "format")) \
            or not isinstance(data.get("entrants"), list) \
            or not all(isinstance(e, str) for e in data["entrants"]):
        raise Problem(400, N_("Malformed tournament"), N_(
            "Send at least {\"game\": \"trees\", \"format\": \"swiss\", \"entrants\": "
            "[\"ben@example.org\"]}."))
    rounds = data.get("rounds")
    if rounds is not None and (not isinstance(rounds, int) or isinstance(rounds, bool)):
        raise Problem(400, N_("Malformed rounds"), N_(
            "rounds is a whole number, or null for a round robin."))
    clock = data.get("clock")
    if clock is not None and not isinstance(clock, str):
        raise Problem(400, N_("Malformed clock"), N_(
            "clock is a time control as the lobby writes it, e.g. \"3d\"."))
    made = community.invites.make(
        services(), g.api_player.player_id, data["game"], data["format"],
        None if data["format"] == "round-robin" else rounds,
        [e.strip() for e in data["entrants"] if e.strip()],
        clock=clock or None, rated=data.get("rated", True) is not False,
        no_vacation=data.get("noVacation") is True)
    return {"tournamentId": made.tournament_id, "started": made.started,
            "url": services().urls.absolute(f"/api/v1/tournaments/{made.tournament_id}")}, 201


@described(START)
def start_tournament(tournament_id: int):
    try:
        games = community.invites.start(services(), g.api_player.player_id, tournament_id)
    except community.NoSuchTournament as exc:
        raise Problem(404, exc.title, exc.detail) from None
    return {"tournamentId": tournament_id, "games": games}


@described(CANCEL)
def cancel_tournament(tournament_id: int):
    try:
        community.invites.cancel(services(), g.api_player.player_id, tournament_id)
    except community.NoSuchTournament as exc:
        raise Problem(404, exc.title, exc.detail) from None
    return {"tournamentId": tournament_id, "status": "cancelled"}
