"""The JSON API, /api/v1: the same use cases as the pages and replies, for other clients (apps,
bots, calendars). Shapes follow Lichess's board API and the ICCF's Xfcc where they fit: a list
of my games with whose move it is, a game as my seat sees it (with the position as text), the
legal moves, make a move, chat. Errors are RFC 9457 problem documents. Each view carries its
OpenAPI operations (`@described`); service/web/openapi.py builds /api/v1/openapi.json from them."""
from __future__ import annotations

import json
from datetime import datetime

from flask import Blueprint, current_app, g, jsonify, request
from werkzeug.exceptions import HTTPException

from service import play
from service.mailwire.outbound.catalogs import N_, _
from service.play import community
from service.play.moves import apiwrites
from service.play.players import personaltokens
from service.play.reads import apireads

from . import (
    api_challenges,
    api_community,
    api_prefs,
    api_tournaments,
    api_webhooks,
    openapi,
    problems,
    safety,
)
from .ext import services
from .problems import Problem

bp = Blueprint("api", __name__, url_prefix="/api/v1")
PUBLIC = {"api.spec", "api.tournament"}          # endpoints that need no token
#: endpoints that take a token when one is sent, and answer without one what the read policy
#: shows anyone (service.play.readpolicy)
TOKEN_OPTIONAL = {"api.record"}
# a tournament's tie-breaks (service.play.community standings' Line attributes) by JSON key
TIE_BREAK_KEYS = {"buchholz": "buchholz", "berger": "sonnebornBerger"}
GAME_STATUSES = openapi.GAME_STATUSES
described = openapi.described
api_community.register(bp)          # profiles and leaderboards: public reads
api_challenges.register(bp)         # standing challenges
api_tournaments.register(bp)        # making, starting and calling off tournaments
api_webhooks.register(bp)           # the token holder's own webhooks
api_prefs.register(bp)              # the token holder's preferences (language, calendar)


@bp.errorhandler(Problem)
def on_problem(p: Problem):
    return problems.respond(p)


@bp.errorhandler(HTTPException)
def on_http_error(exc: HTTPException):
    return problems.respond(Problem(exc.code or 500, exc.name, exc.description or ""))


# a PlayError is answered by the app's one handler (service.web.refusals): a problem document


@bp.before_request
def authenticate():
    # bodies are small JSON documents: anything bigger is refused before it is read
    request.max_content_length = current_app.config["TURNPOST_API_MAX_BYTES"]
    if request.endpoint in PUBLIC or request.endpoint in api_community.PUBLIC:
        return
    g.api_player = None
    if request.endpoint in TOKEN_OPTIONAL and "Authorization" not in request.headers:
        return
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Problem(401, N_("Token needed"), N_("Send a personal API token: "
                                                  "Authorization: Bearer tp_..."))
    holder = personaltokens.holder(services(), token.strip())
    if holder is None:
        raise Problem(401, N_("Token not accepted"), N_("This token is unknown or was revoked."))
    g.api_player = holder


def body() -> dict:
    if (request.content_length or 0) > current_app.config["TURNPOST_API_MAX_BYTES"]:
        raise Problem(413, N_("Body too large"), _(
            "A request body may have at most %(most)s bytes.",
            most=current_app.config["TURNPOST_API_MAX_BYTES"]))
    try:
        data = json.loads(request.get_data(cache=False) or b"null")
    except ValueError:
        raise Problem(400, N_("Not JSON"), N_("The body must be a JSON object.")) from None
    if not isinstance(data, dict):
        raise Problem(400, N_("Not a JSON object"), N_("The body must be a JSON object, "
                                                       "e.g. {\"command\": \"harvest moons\"}."))
    if safety.holds_nul(data):      # "\u0000": no text here holds one (PostgreSQL's cannot)
        raise Problem(400, safety.NUL_TITLE, safety.NUL_WORDS)
    return data


def _when(at: datetime | None) -> str | None:
    return at.isoformat() if at else None


def _camel(fields: dict) -> dict:
    """A page's dict with the API's camelCase keys ("in_turn" is "inTurn")."""
    return {_camel_word(k): v for k, v in fields.items()}


def _camel_word(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(w.capitalize() for w in rest)


def _seat_arg() -> int | None:
    """?seat=N: which of the token holder's seats; absent, their one seat in the game. A
    value that is not one seat number is refused rather than ignored: acting for the wrong
    seat is worse than an error."""
    given = request.args.getlist("seat")
    if not given:
        return None
    if len(given) > 1 or not given[0].isascii() or not given[0].isdigit():
        raise Problem(400, N_("Malformed seat"), N_(
            "seat is one seat number, a whole number from 0 (the seat field of /api/v1/games), "
            "e.g. ?seat=1."))
    return int(given[0])


@bp.get("/openapi.json")
@described(openapi.SPEC_OPERATION)
def spec():
    return jsonify(openapi.build(current_app))


@bp.get("/games")
@described(openapi.MY_GAMES)
def my_games():
    given = request.args.getlist("status")
    if len(given) > 1 or (given and given[0] not in GAME_STATUSES):
        raise Problem(400, N_("Malformed status"), _(
            "status is one of %(statuses)s, e.g. ?status=active; without it, every game.",
            statuses=", ".join(GAME_STATUSES)))
    status = given[0] if given else None
    lines = [{"gameId": x.game_id, "kind": x.kind, "title": x.title, "seat": x.seat,
              "status": x.status, "seq": x.seq, "players": x.players, "toAct": x.to_act,
              "isMyTurn": x.your_turn, "deadline": _when(x.deadline),
              "url": services().urls.absolute(f"/api/v1/games/{x.game_id}")}
             for x in apireads.my_games(services(), g.api_player.player_id, status)]
    # an ended game is not being played: it is listed apart
    return {"nowPlaying": [x for x in lines if x["status"] != play.GameStatus.ENDED],
            "finished": [x for x in lines if x["status"] == play.GameStatus.ENDED]}


@bp.get("/games/<int:game_id>")
@described(openapi.ONE_GAME)
def game(game_id: int):
    read = apireads.read_seat(services(), game_id, g.api_player.player_id, _seat_arg())
    page = read.page
    return {"gameId": page.game_id, "kind": page.kind, "title": page.title, "seat": page.me,
            "seq": page.seq, "mark": page.mark, "players": page.names, "toAct": page.to_act,
            "isMyTurn": page.your_turn, "deadline": _when(read.deadline), "view": page.view,
            "text": read.text, "outcome": page.outcome, "notes": read.notes,
            "clocks": [_camel(clock) for clock in page.clocks],
            "page": services().urls.absolute(services().urls.game_path(page.game_id, page.me))}


@bp.get("/games/<int:game_id>/moves")
@described(openapi.LEGAL_MOVES)
def legal_moves(game_id: int):
    read = apireads.read_seat(services(), game_id, g.api_player.player_id, _seat_arg(),
                          every_move=True)
    page = read.page
    return {"gameId": game_id, "seq": page.seq, "mark": page.mark, "isMyTurn": page.your_turn,
            "commands": [m["text"] for m in page.all_moves],
            "moves": [{"command": m["text"], "move": m["move"]} for m in page.all_moves]}


@bp.post("/games/<int:game_id>/moves")
@described(openapi.MAKE_MOVE)
def make_move(game_id: int):
    data = body()
    lines = data.get("commands", [data["command"]] if "command" in data else [])
    move, seq = data.get("move"), data.get("seq")
    key = request.headers.get("Idempotency-Key") or data.get("key")
    if not (isinstance(lines, list) and all(isinstance(x, str) for x in lines)) or \
            (move is not None and not isinstance(move, dict)) or \
            (seq is not None and (not isinstance(seq, int) or isinstance(seq, bool))) or \
            (key is not None and (not isinstance(key, str) or len(key) > 100)):
        raise Problem(400, N_("Malformed move"), N_(
            "\"command\" is a string, \"commands\" a list of strings, \"move\" an object from the "
            "moves list, \"seq\" an integer, \"key\" a string of at most 100 characters."))
    if not {"command", "commands", "move"} & data.keys():
        raise Problem(400, N_("Malformed move"), N_(
            "Say what to play: \"command\" (a line as in a reply), \"commands\" (several, all "
            "or none) or \"move\" (an object from the moves list), e.g. {\"command\": \"harvest "
            "moons\"}."))
    answer = apiwrites.move(services(), game_id, g.api_player.player_id, lines=lines,
                            move_object=move, seq=seq, key=key, seat=_seat_arg())
    # the game waiting on the player longest, once this one waits on others (issue 50)
    upnext = play.next_game(services(), game_id, answer.seat) \
        if answer.seat is not None and not answer.my_turn else None
    # the same key again gets the first answer again (the header tells it was a replay)
    return {"gameId": answer.game_id, "firstSeq": answer.first_seq, "seq": answer.last_seq,
            "answers": answer.answers,
            "nextGame": None if upnext is None else {
                "gameId": upnext.game_id, "title": upnext.title,
                "page": services().urls.absolute(upnext.path)}}, \
        200, {"Idempotent-Replayed": "true"} if answer.replayed else {}


@bp.post("/games/<int:game_id>/try")
@described(openapi.TRY)
def try_moves(game_id: int):
    command = body().get("command")
    if not isinstance(command, str) or not command.strip():
        raise Problem(400, N_("Malformed try"), N_(
            "Send the moves to try as a command, one or several lines: {\"command\": \"play the "
            "Mill under the Sea\"}."))
    tried = apireads.try_moves(services(), game_id, g.api_player.player_id, command, _seat_arg())
    return {"gameId": game_id, "view": tried.view, "text": tried.text, "moves": tried.moves,
            "legal": tried.legal}


@bp.post("/games/<int:game_id>/chat")
@described(openapi.CHAT)
def chat(game_id: int):
    text = body().get("text")
    if not isinstance(text, str):
        raise Problem(400, N_("Malformed chat"), N_("Send {\"text\": \"good luck!\"}."))
    sent = apiwrites.say(services(), game_id, g.api_player.player_id, text, _seat_arg())
    return {"gameId": game_id, "emails": len(sent)}, 202


@bp.post("/games/<int:game_id>/extend")
@described(openapi.EXTEND)
def extend(game_id: int):
    days = body().get("days")
    if not isinstance(days, str | int) or isinstance(days, bool):
        raise Problem(400, N_("Malformed extension"), N_("Send {\"days\": \"2d\"}."))
    done = apiwrites.extend(services(), game_id, g.api_player.player_id, str(days), _seat_arg())
    return {"gameId": game_id, "answer": done.words, "emails": len(done.outbox_ids)}, 202


@bp.post("/games/<int:game_id>/plans")
@described(openapi.PLANS)
def plans(game_id: int):
    lines = body().get("lines")
    if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines):
        raise Problem(400, N_("Malformed plans"), N_(
            "Send {\"lines\": [\"if they lead the Mill then play the Savage\", \"next: take "
            "blind\"]}."))
    kept = apiwrites.plan(services(), game_id, g.api_player.player_id, lines, _seat_arg())
    return {"gameId": kept.game_id, "answers": kept.answers, "plans": kept.plans}


@bp.get("/games/<int:game_id>/record")
@described(openapi.RECORD)
def record(game_id: int):
    """The game as spectators see it: for its players (their token), and for its public page's
    audience (?publicId=, the id the public page's address and a tournament carry)."""
    holder = g.api_player
    r = apireads.record(services(), game_id, play.Reader.player(
        holder.player_id if holder else None, request.args.get("publicId")))
    return {"gameId": r.game_id, "kind": r.kind, "title": r.title,
            "rulesVersion": r.rules_version, "status": r.status, "seq": r.seq,
            "players": r.players, "view": r.view, "history": r.history, "outcome": r.outcome}


@bp.get("/tournaments/<int:tournament_id>")
@described(openapi.TOURNAMENT)
def tournament(tournament_id: int):
    try:
        t = community.show(services(), tournament_id)
    except community.NoSuchTournament as exc:
        raise Problem(404, exc.title, exc.detail) from None
    used = {attr: any(attr == a for a, _ in t.tie_breaks) for attr in TIE_BREAK_KEYS}
    return {"tournamentId": t.id, "kind": t.kind, "title": t.title, "format": t.format,
            "rounds": t.rounds, "round": t.round, "status": t.status, "rated": t.rated,
            "noVacation": t.no_vacation, "clock": t.clock or None,
            # a tie-break the format does not rank by is null (a round robin: no Buchholz)
            "tieBreaks": [TIE_BREAK_KEYS[attr] for attr, _ in t.tie_breaks],
            "standings": [{"place": n, "name": line.name, "points": line.points,
                           "buchholz": line.buchholz if used["buchholz"] else None,
                           "sonnebornBerger": line.berger if used["berger"] else None,
                           "played": line.played, "byes": line.byes,
                           "withdrawn": line.withdrawn}
                          for n, line in enumerate(t.standings, 1)],
            "roundsPlayed": [{"round": r.number, "byes": r.byes, "games": [
                {"gameId": x.game_id, "publicId": x.public_id, "players": x.players,
                 "over": x.over, "points": x.points} for x in r.tables]} for r in t.played]}
