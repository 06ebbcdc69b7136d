"""The JSON API's writes (service/web/api.py): command lines or a move object with a client's
idempotency key and the position it looked at, chat, an extension, plans. Lines go through the
one command runner (service.play.moves.runner), as a reply's and the page's do; what the API
adds is who acts (a player id, from their token: a game they have no seat in does not exist for
them), a key answered with its first answer, and move objects checked against the legal list."""
from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from service.games import registry
from service.linking import freshness
from service.mailwire.outbound.catalogs import _
from service.play import readpolicy, repository
from service.play.errors import AlreadyDone, PositionChanged, Refused
from service.play.readpolicy import Reader
from service.play.services import Services
from service.play.time import extensions
from service.store.models import Seat, Submission

from . import chat, runner, standingplans, wordregistry
from .submit import Intent, seat_key

MAX_LINES = 50
#: the words the plans endpoint takes
PLAN_WORDS = ("if", "next:", "plans clear")


@dataclass(frozen=True)
class MoveAnswer:
    game_id: int
    first_seq: int
    last_seq: int
    moves: list[str]
    replayed: bool = False        # the same client key again: this is the first answer
    answers: list[str] = field(default_factory=list)   # each word's answer (help, resign ...)
    seat: int | None = None       # the seat that moved
    my_turn: bool = False         # the seat is still to act here after the move


@dataclass(frozen=True)
class PlansAnswer:
    game_id: int
    answers: list[str]
    plans: str


def acting_seat(session: Session, game_id: int, player_id: int,
                seat: int | None = None) -> Seat:
    """The seat the token's player acts for, by the read policy (readpolicy.own_seat): a game
    they do not play is "no such game" (404), word for word as a missing one."""
    return readpolicy.own_seat(lambda: repository.game_row(session, game_id),
                               Reader.player(player_id), seat)


def move(svc: Services, game_id: int, player_id: int, *, lines: list[str] | None = None,
         move_object: dict | None = None, seq: int | None = None, key: str | None = None,
         seat: int | None = None) -> MoveAnswer:
    """Apply command lines or one move object from the legal list, as one batch (all or
    none: service.play.moves.runner). `seq` is the position the client looked at: a change
    this seat can see since -> 409. The same `key` again answers the first answer, and
    applies nothing."""
    lines = [ln.strip() for ln in (lines or []) if ln.strip()][:MAX_LINES]
    with svc.db.reading() as session:
        seat_row = acting_seat(session, game_id, player_id, seat)
        intent = Intent(game_id, seat_row.seat, lines=lines,
                        moves=[move_object] if move_object is not None else [],
                        expected_seq=seq, source="api", key=f"api:{key}" if key else None)
        first = _first_answer(session, intent)
    if first is not None:
        return first
    if not intent.moves and not intent.lines:
        raise Refused(_("Send a command (\"command\" or \"commands\") or a move object."))

    def before(session: Session) -> None:
        if seq is not None and seq < 1:
            raise PositionChanged(_("No position of this game has that number."),
                                  repository.game_row(session, game_id).seq)
        if move_object is not None:
            _check_listed(session, svc, intent, move_object)

    try:
        ran = runner.run(svc, intent, before=before)
    except AlreadyDone as exc:      # a concurrent request with the same key won
        return MoveAnswer(game_id, exc.first_seq, exc.last_seq, [], replayed=True)
    if ran.applied is None:
        return MoveAnswer(game_id, ran.seq, ran.seq, [], answers=ran.texts)
    engine = registry.get(ran.applied.kind)
    return MoveAnswer(game_id, ran.applied.first_seq, ran.applied.last_seq,
                      [engine.describe(m) for m in ran.applied.moves], answers=ran.texts,
                      seat=intent.seat, my_turn=intent.seat in ran.applied.to_act)


def _first_answer(session: Session, intent: Intent) -> MoveAnswer | None:
    if intent.key is None:
        return None
    done = session.get(Submission, (intent.game_id, seat_key(intent.seat, intent.key)))
    if done is None:
        return None
    return MoveAnswer(intent.game_id, done.first_seq, done.last_seq, [], replayed=True)


def _check_listed(session: Session, svc: Services, intent: Intent, move_object: dict) -> None:
    """A move object must be one of the seat's legal moves exactly as listed: the engines trust
    the shape of what they are handed."""
    pos = repository.load(session, svc.states, intent.game_id)
    if pos.engine.outcome(pos.state) is None and \
            move_object in pos.engine.legal_moves(pos.state, intent.seat):
        return
    if intent.expected_seq is not None and intent.expected_seq != pos.seq:
        then = repository.load(session, svc.states, intent.game_id, upto=intent.expected_seq) \
            if intent.expected_seq < pos.seq else None
        if then is None or freshness.mark(pos.engine, then.state, intent.seat) != \
                freshness.mark(pos.engine, pos.state, intent.seat):
            raise PositionChanged(_("The game has moved on; here is the position as it is "
                                    "now."), pos.seq)
    raise Refused(_("That move object is not one of your legal moves now; GET the game's "
                    "moves for the list."))


def say(svc: Services, game_id: int, player_id: int, text: str,
        seat: int | None = None) -> list[int]:
    if not text.strip():
        raise Refused(_("Write something to say."))
    with svc.db.transaction() as session:
        seat_row = acting_seat(session, game_id, player_id, seat)
        game = repository.game_row(session, game_id)
        try:
            return chat.post(session, svc, game, seat_row.seat, text).outbox_ids
        except chat.ChatRefused as exc:
            raise Refused(exc.detail) from None


def extend(svc: Services, game_id: int, player_id: int, days: str,
           seat: int | None = None) -> extensions.Extension:
    """`extend 2d` through the API (service.play.time.extensions)."""
    with svc.db.transaction() as session:
        seat_row = acting_seat(session, game_id, player_id, seat)
        try:
            return extensions.ask_in(session, svc, game_id, seat_row.seat, days)
        except extensions.ExtensionRefused as exc:
            raise Refused(exc.detail) from None


def plan(svc: Services, game_id: int, player_id: int, lines: list[str],
         seat: int | None = None) -> PlansAnswer:
    """Plan lines (if ... then ..., next: ..., plans clear) as one batch, all kept or none;
    the seat's plans as they then stand."""
    lines = [ln.strip() for ln in lines if ln.strip()]
    if not lines:
        raise standingplans.PlanRefused(_("Send plan lines, e.g. if they lead the Mill then "
                                          "play the Savage."))
    if len(lines) > standingplans.MAX_PLANS:
        raise standingplans.PlanRefused(_("That is %(n)s plan lines; at most %(most)s may stand "
                                          "in one game.", n=len(lines),
                                          most=standingplans.MAX_PLANS))
    for line in lines:
        found = wordregistry.find(line)
        if found is None or found[0].name not in PLAN_WORDS:
            raise standingplans.PlanRefused(_("\"%(line)s\" is not a plan: write if THEIR MOVE "
                                              "then MY MOVE, next: MY MOVE, or plans clear.",
                                              line=line))
    with svc.db.reading() as session:
        acting = acting_seat(session, game_id, player_id, seat).seat
    listed: list[str] = []

    def within(session: Session, ran: runner.Ran) -> None:
        listed.append(standingplans.listing(session, svc, game_id, acting))

    ran = runner.run(svc, Intent(game_id, acting, lines=lines, source="api"), within=within)
    return PlansAnswer(game_id, ran.texts, listed[0])
