"""The API's OpenAPI 3.1 description, built from the code: each view of service/web/api.py
carries its operation (`@described`), and `build` walks the app's URL map with apispec, so a
route cannot exist undescribed (tests/api/test_openapi.py checks both ways and plays every
example against the server)."""
from __future__ import annotations

import re

from apispec import APISpec

from service import play

STALE = "/api/v1/problems#stale-position"
REFUSED = "/api/v1/problems#move-refused"
GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "integer"},
           "example": 1}
SEAT = {"name": "seat", "in": "query", "required": False,
        "schema": {"type": "integer", "minimum": 0},
        "description": "which of your seats, when one address holds several in a game"}
PROBLEM = {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
ERRORS = {
    "400": {"description": "the body is not a JSON object or is malformed", "content": PROBLEM},
    "401": {"description": "no token, or an unknown or revoked one", "content": PROBLEM},
    "404": {"description": "no such game, or not one of yours", "content": PROBLEM},
    "409": {"description": "the position changed (the problem carries the position as it is now: "
                           "its `seq`, `mark` and the seat's `view`), or the game is over", "content": PROBLEM},
    "413": {"description": "the body is too large", "content": PROBLEM},
    "422": {"description": "the move is not allowed or the command not understood; "
                           "nothing was applied", "content": PROBLEM},
}


def _json(example: dict, description: str) -> dict:
    return {"description": description,
            "content": {"application/json": {"schema": {"type": "object"},
                                             "example": example}}}


def _errors(*codes: str) -> dict:
    return {code: ERRORS[code] for code in codes}


def described(operation: dict):
    """Attach the OpenAPI operation of a view (its method is the route's)."""
    def mark(view):
        view.openapi = operation
        return view
    return mark


SPEC_OPERATION = {"summary": "This description", "security": [],
                  "responses": {"200": _json({
                      "openapi": "3.1.0", "info": {"title": "Turnpost API"}, "servers": [],
                      "paths": {}, "components": {}, "security": [{"token": []}]},
                      "OpenAPI 3.1")}}

GAME_STATUSES = tuple(play.GameStatus)

MY_GAMES = {
    "summary": "My games, with whose move it is (Lichess: ongoing games; Xfcc: GetMyGames)",
    "parameters": [{"name": "status", "in": "query", "required": False,
                    "example": play.GameStatus.ACTIVE,
                    "schema": {"type": "string", "enum": list(GAME_STATUSES)}}],
    "responses": {"200": _json({"nowPlaying": [{
        "gameId": 1, "kind": "trees", "title": "Trees", "seat": 0, "status": "active",
        "seq": 3, "players": ["anna", "ben"], "toAct": [0], "isMyTurn": True,
        "deadline": None, "url": "https://turnpost.example/api/v1/games/1"}], "finished": []},
        "each seat of yours: in games going on or forming (nowPlaying), in ended ones "
        "(finished)"), **_errors("401")}}

#: one seat's clock in a game's "clocks" (service.play.time.clocks.clock_view with the seat, its name
#: and status): `deadline` ISO 8601 or null (none running, or paused on vacation)
CLOCK = {"kind": "per_move", "inTurn": True, "paused": False,
         "deadline": "2026-12-01T12:00:00Z", "deadlineText": "Tue 1 Dec, 12:00 UTC",
         "secondsLeft": 259200, "bankSeconds": None, "overdue": False, "extended": False,
         "missedInARow": 0, "seat": 0, "name": "anna", "status": "active",
         "clockWords": "3 days per move"}

ONE_GAME = {
    "summary": "One game as your seat sees it: the view of your email, and its text",
    "parameters": [GAME_ID, SEAT],
    "responses": {"200": _json({
        "gameId": 1, "kind": "trees", "title": "Trees", "seat": 0, "seq": 3, "mark": "a1b2c3",
        "players": ["anna", "ben"], "toAct": [0], "isMyTurn": True, "deadline": None,
        "view": {"game": "trees", "seat": 0, "hand": ["8VL"]}, "text": "Turn 1 ...\n",
        "outcome": None, "clocks": [CLOCK], "notes": ["keep the Mill for later"],
        "page": "https://turnpost.example/g/..."},
        "your seat's view; `clocks` is every seat's clock in seat order, as the game page's "
        "Clocks box shows them (deadlines in your time zone); `notes` your own private notes "
        "on the game (`note ...`), which nobody else sees"),
        **_errors("401", "404")}}

LEGAL_MOVES = {
    "summary": "Every legal move now, as command texts and as objects",
    "parameters": [GAME_ID, SEAT],
    "responses": {"200": _json({
        "gameId": 1, "seq": 3, "mark": "a1b2c3", "isMyTurn": True,
        "commands": ["play the Mill under the Sea"],
        "moves": [{"command": "play the Mill under the Sea",
                   "move": {"type": "play", "card": "8VL", "under": "NW"}}]},
        "the moves"), **_errors("401", "404")}}

MAKE_MOVE = {
    "summary": "Make a move: command lines (all or none, in order) or one move object",
    "description": "`seq` is the position you looked at: if your view of the game changed "
                   "since, nothing is applied and the answer is 409 with the current `seq` and "
                   "`mark`. The same `Idempotency-Key` (or `key`) again gets the first answer "
                   "again, with `Idempotent-Replayed: true`, and applies nothing, for 90 days "
                   "(the server's receipt retention; after it, a retry with `seq` is "
                   "refused as above). Lines that "
                   "are words rather than moves (`help`, `say ...`, `undo`, `resign`, "
                   "`vacation 5`: docs/commands.md) run after the moves, each answered in "
                   "`answers`.",
    "parameters": [GAME_ID, SEAT,
                   {"name": "Idempotency-Key", "in": "header", "required": False,
                    "schema": {"type": "string", "maxLength": 100}}],
    "requestBody": {"required": True, "content": {"application/json": {
        "schema": {"type": "object", "properties": {
            "command": {"type": "string"}, "commands": {"type": "array",
                                                        "items": {"type": "string"}},
            "move": {"type": "object"}, "seq": {"type": "integer"},
            "key": {"type": "string", "maxLength": 100}},
            # one of the three says what to play (without any, a 400 asks for one)
            "anyOf": [{"required": ["command"]}, {"required": ["commands"]},
                      {"required": ["move"]}]},
        "example": {"command": "harvest moons", "seq": 1, "key": "example-1"}}}},
    "responses": {"200": _json({"gameId": 1, "firstSeq": 4, "seq": 4, "answers": [],
                                "nextGame": {"gameId": 7, "title": "Trees",
                                             "page": "https://turnpost.example/g/..."}},
                               "applied; `nextGame` is your game waiting on you longest "
                               "(soonest deadline first), or null when none waits or this "
                               "one still does"),
                  **_errors("400", "401", "404", "409", "413", "422")}}

TRY = {
    "summary": "Try moves without making them: your view after them, and nothing written",
    "description": "The lines of `command` (one or several, as a reply's) are played in the "
                   "position as your seat may know it: a card you would draw shows as "
                   "\"?\", and nothing is played, stored or sent (`try` in docs/commands.md).",
    "parameters": [GAME_ID, SEAT],
    "requestBody": {"required": True, "content": {"application/json": {
        "schema": {"type": "object", "properties": {"command": {"type": "string"}},
                   "required": ["command"]},
        "example": {"command": "play the Mill under the Sea"}}}},
    "responses": {"200": _json({"gameId": 1, "view": {"game": "trees", "hand": ["?"]},
                                "text": "Tried (nothing was played, nobody was told): ...",
                                "moves": ["play the Mill under the Sea"], "legal": []},
                               "your view after the moves, and the moves you could then make"),
                  **_errors("400", "401", "404", "422")}}

CHAT = {
    "summary": "Say something to the table (emailed to the other players)",
    "parameters": [GAME_ID, SEAT],
    "requestBody": {"required": True, "content": {"application/json": {
        "schema": {"type": "object", "required": ["text"],
                   "properties": {"text": {"type": "string", "pattern": "\\S",
                                           "maxLength": 2000}}},
        "example": {"text": "good luck!"}}}},
    "responses": {"202": _json({"gameId": 1, "emails": 1}, "queued for the other players"),
                  **_errors("400", "401", "404", "413", "422")}}

EXTEND = {
    "summary": "Ask the other players for more time (`extend 2d`): the deadline moves when all "
               "agree",
    "parameters": [GAME_ID, SEAT],
    "requestBody": {"required": True, "content": {"application/json": {
        "schema": {"type": "object", "required": ["days"],
                   "properties": {"days": {"type": "string", "maxLength": 20}}},
        "example": {"days": "2d"}}}},
    "responses": {"202": _json({"gameId": 1, "answer": "Asked the others for 2 days more; "
                                "your deadline moves when they all agree.", "emails": 2},
                               "asked (or applied at once when only bots are asked)"),
                  **_errors("400", "401", "404", "422")}}


PLANS = {
    "summary": "Write plans: your moves ahead, private to you until played",
    "parameters": [GAME_ID, SEAT],
    "requestBody": {"required": True, "content": {"application/json": {
        "schema": {"type": "object", "required": ["lines"],
                   "properties": {"lines": {"type": "array", "maxItems": 50,
                                            "items": {"type": "string"}}}},
        "example": {"lines": ["if they lead the Mill then play the Savage",
                              "next: take blind"]}}}},
    "responses": {"200": _json({"gameId": 1, "answers": ["Plan kept: if they lead the Mill "
                                                         "then play the Savage."],
                                "plans": "Your plans, which nobody else sees: ..."},
                               "the plans kept (all of them, or none)"),
                  **_errors("400", "401", "404", "413", "422")}}

RECORD = {
    "summary": "A game as spectators see it, and its history: for its players (their token), "
               "and for its public page's audience (publicId) while the page is on",
    "security": [{}, {"token": []}],
    "parameters": [GAME_ID, {
        "name": "publicId", "in": "query", "required": False, "schema": {"type": "string"},
        "description": "the game's public page id (the end of its address; a tournament's "
                       "games carry it): without it only the game's players are answered"}],
    "responses": {"200": _json({
        "gameId": 1, "kind": "trees", "title": "Trees", "rulesVersion": 1, "status": "active",
        "seq": 3, "players": ["anna", "ben"], "view": {"game": "trees", "seat": None},
        "history": [{"seq": 1, "text": "anna plays first", "type": "start"}],
        "outcome": None}, "the record"), **_errors("401", "404")}}

TOURNAMENT = {
    "summary": "A tournament: its standings (with the tie-breaks), its rounds and their games",
    "security": [],
    "parameters": [{"name": "tournament_id", "in": "path", "required": True,
                    "schema": {"type": "integer"}, "example": 1}],
    "responses": {"200": _json({
        "tournamentId": 1, "kind": "trees", "title": "Trees", "format": "swiss", "rounds": 3,
        "round": 2, "status": "running", "rated": True, "noVacation": False, "clock": "3d",
        "tieBreaks": ["buchholz", "sonnebornBerger"],
        "standings": [{"place": 1, "name": "anna", "points": 1.0, "buchholz": 1.0,
                       "sonnebornBerger": 1.0, "played": 1, "byes": 0, "withdrawn": False}],
        "roundsPlayed": [{"round": 1, "byes": [], "games": [
            {"gameId": 1, "publicId": "Xy3...", "players": ["anna", "ben"], "over": True,
             "points": [1.0, 0.0]}]}]}, "the tournament"),
        "404": {"description": "no such tournament", "content": PROBLEM}}}

PROBLEM_SCHEMA = {"type": "object", "required": ["type", "title", "status"], "properties": {
    "type": {"type": "string"}, "title": {"type": "string"}, "status": {"type": "integer"},
    "detail": {"type": "string"}, "instance": {"type": "string"},
    "seq": {"type": "integer", "description": "409: the current position"},
    "mark": {"type": "string", "description": "409: the current position as your seat sees it"},
    "suggestions": {"type": "array", "items": {"type": "string"}}}}

_CONVERTER = re.compile(r"<(?:[a-z]+:)?([a-z_]+)>")


def openapi_path(rule: str) -> str:
    """Flask's `/games/<int:game_id>` -> OpenAPI's `/games/{game_id}`."""
    return _CONVERTER.sub(r"{\1}", rule)


def build(app) -> dict:
    spec = APISpec(title="Turnpost API", version="1", openapi_version="3.1.0", info={
        "description": "Play your correspondence games from any client. Authenticate with a "
                       "personal token: `Authorization: Bearer tp_...`."},
        servers=[{"url": app.config["TURNPOST_BASE_URL"].rstrip("/")}])
    spec.components.security_scheme("token", {"type": "http", "scheme": "bearer"})
    spec.components.schema("Problem", PROBLEM_SCHEMA)
    paths: dict[str, dict] = {}
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/v1/"):
            continue
        operation = getattr(app.view_functions[rule.endpoint], "openapi", None)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            if operation is not None:
                paths.setdefault(openapi_path(rule.rule), {})[method.lower()] = {
                    "operationId": rule.endpoint.removeprefix("api."), **operation}
    for path, operations in sorted(paths.items()):
        spec.path(path=path.removeprefix(""), operations=operations)
    out = spec.to_dict()
    out["security"] = [{"token": []}]
    return out
