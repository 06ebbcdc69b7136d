"""The API's standing challenges, added to /api/v1 by service.web.api (`register`): list the
open ones (filtered by the open seats page's terms), post one (matched at once when
something fits), withdraw one of one's own."""
from __future__ import annotations

from flask import g, request

from service.mailwire.outbound.catalogs import N_, _
from service.play import community
from service.play.community import challenges

from .ext import services
from .openapi import _errors, _json, described
from .problems import Problem

CHALLENGE = {"id": 1, "player": "anna", "game": "trees", "title": "Trees", "clock": "3d",
             "rated": True, "minRating": 1400, "maxRating": 1700, "minReliability": 80}

LIST = {
    "summary": "The open standing challenges, oldest first, filtered by the same terms",
    "parameters": [
        {"name": "game", "in": "query", "required": False, "schema": {"type": "string"},
         "example": "trees"},
        {"name": "clock", "in": "query", "required": False, "schema": {"type": "string"},
         "description": "a time control as the lobby writes it, e.g. 3d"},
        {"name": "rated", "in": "query", "required": False,
         "schema": {"type": "string", "enum": ["yes", "no"]}},
        {"name": "rating", "in": "query", "required": False,
         "schema": {"type": "integer", "minimum": 0},
         "description": "only challenges whose rating range admits this rating"},
        {"name": "reliability", "in": "query", "required": False,
         "schema": {"type": "integer", "minimum": 0, "maximum": 100},
         "description": "only challenges of players at least this reliable (percent)"}],
    "responses": {"200": _json({"challenges": [CHALLENGE]}, "the challenges"),
                  **_errors("400", "401")}}

POST = {
    "summary": "Post a standing challenge: matched at once with the first fitting challenge "
               "or open seat (gameId), or standing until one comes (gameId null)",
    "requestBody": {"required": True, "content": {"application/json": {
        "schema": {"type": "object", "required": ["game", "clock"], "properties": {
            "game": {"type": "string"}, "clock": {"type": "string"},
            "rated": {"type": "boolean"}, "minRating": {"type": ["integer", "null"]},
            "maxRating": {"type": ["integer", "null"]},
            "minReliability": {"type": ["integer", "null"]}}},
        "example": {"game": "trees", "clock": "3d", "rated": True}}}},
    "responses": {"201": _json({"id": 1, "gameId": None, "opponent": None},
                               "posted: matched (gameId, opponent) or standing"),
                  "409": {"description": "refused (bad terms, or it would meet your own "
                                         "challenge); nothing stored",
                          "content": _errors("401")["401"]["content"]},
                  **_errors("400", "401", "413")}}

WITHDRAW = {
    "summary": "Withdraw one of your open standing challenges",
    "parameters": [{"name": "challenge_id", "in": "path", "required": True,
                    "schema": {"type": "integer"}, "example": 1}],
    "responses": {"200": _json({"id": 1, "status": "withdrawn"}, "withdrawn"),
                  "409": {"description": "not an open challenge of yours",
                          "content": _errors("401")["401"]["content"]},
                  **_errors("401")}}


def register(bp) -> None:
    bp.add_url_rule("/challenges", "challenges", list_challenges, methods=["GET"])
    bp.add_url_rule("/challenges", "post_challenge", post_challenge, methods=["POST"])
    bp.add_url_rule("/challenges/<int:challenge_id>", "withdraw_challenge",
                    withdraw_challenge, methods=["DELETE"])


def _whole(name: str, top: int | None = None) -> int | None:
    given = request.args.get(name)
    if given is None or given == "":
        return None
    if not given.isascii() or not given.isdigit() or (top is not None and int(given) > top):
        raise Problem(400, _("Malformed %(name)s", name=name), _(
            "%(name)s is a whole number.", name=name) if top is None else _(
            "%(name)s is a whole number from 0 to %(top)s.", name=name, top=top))
    return int(given)


@described(LIST)
def list_challenges():
    rated = request.args.get("rated")
    if rated not in (None, "", "yes", "no"):
        raise Problem(400, N_("Malformed rated"), N_("rated is yes or no."))
    listed = challenges.standing(
        services(), kind=request.args.get("game") or None,
        clock=request.args.get("clock") or None,
        rated=None if not rated else rated == "yes", rating=_whole("rating"),
        min_reliability=_whole("reliability", 100), viewer_id=g.api_player.player_id)
    return {"challenges": [{"id": c.id, "player": c.player, "game": c.kind, "title": c.title,
                            "clock": c.clock, "rated": c.rated, "minRating": c.min_rating,
                            "maxRating": c.max_rating, "minReliability": c.min_reliability}
                           for c in listed]}


@described(POST)
def post_challenge():
    # the API's size limit stands (api.authenticate sets it): a bigger body is a 413
    data = request.get_json(silent=True)
    if not isinstance(data, dict) or not isinstance(data.get("game"), str) or not isinstance(data.get("clock"), str):
        raise Problem(400, N_("Malformed challenge"), N_(
            "Send at least {\"game\": \"trees\", \"clock\": \"3d\"}."))
    terms = community.read_terms(data["game"], data["clock"],
                                 data.get("rated", True) is not False, data.get("minRating"),
                                 data.get("maxRating"), data.get("minReliability"))
    posted = challenges.post(services(), g.api_player.player_id, terms)
    return {"id": posted.challenge_id, "gameId": posted.game_id,
            "opponent": posted.opponent}, 201


@described(WITHDRAW)
def withdraw_challenge(challenge_id: int):
    challenges.withdraw(services(), g.api_player.player_id, challenge_id)
    return {"id": challenge_id, "status": "withdrawn"}
