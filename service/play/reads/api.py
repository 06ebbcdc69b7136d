"""The use cases behind the JSON API (service/web/api.py): a player's games, one game as their
seat sees it (the same page as their email), its legal moves, a move with stale-move protection
and a client's idempotency key, chat, and a game's record as spectators see it. Who is asking
is a player id (from their token); what they may see is service.play.readpolicy's to say: a
game they have no seat in does not exist for them, word for word as a missing one."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.display.seatpage import SeatPage, history
from service.games import registry
from service.linking import freshness as marks
from service.mail.outbound.templating import game_partial
from service.play import readpolicy
from service.play import repository as positions
from service.play.errors import AlreadyDone, PositionChanged, Refused
from service.play.moves import Intent, apply, chat, commands, plans
from service.play.readpolicy import Reader
from service.play.services import Services
from service.play.time import extensions
from service.store import events as event_store
from service.store.models import GameRow, Seat, Submission

from . import listing, seatpage

MAX_LINES = 50


@dataclass(frozen=True)
class GameLine:
    """One of a player's games, as a list shows it (Lichess's "ongoing games")."""

    game_id: int
    kind: str
    title: str
    seat: int
    status: str
    seq: int
    players: list[str]
    to_act: list[int]
    your_turn: bool
    deadline: datetime | None
    updated: datetime            # when the game's last event happened


@dataclass(frozen=True)
class SeatRead:
    page: SeatPage
    text: str                     # the position as the email's plain text shows it
    deadline: datetime | None


@dataclass(frozen=True)
class MoveAnswer:
    game_id: int
    first_seq: int
    last_seq: int
    moves: list[str]
    replayed: bool = False        # the same client key again: this is the first answer
    answers: list[str] = field(default_factory=list)   # each word's answer (help, resign ...)


@dataclass(frozen=True)
class Record:
    game_id: int
    kind: str
    title: str
    rules_version: int
    status: str
    seq: int
    players: list[str]
    view: dict
    history: list[dict]
    outcome: dict | None


def deadline_of(seat_row: Seat) -> datetime | None:
    """The seat's deadline once games have clocks (a column of the seats table); None before."""
    return getattr(seat_row, "deadline", None)


def my_games(svc: Services, player_id: int, status: str | None = None) -> list[GameLine]:
    """Read from the rows (service.play.reads.listing), no game's log folded: a player may
    have thousands of games."""
    with svc.db.reading() as session:
        q = (select(Seat.game_id, Seat.seat).join(GameRow, GameRow.id == Seat.game_id)
             .where(Seat.player_id == player_id).order_by(Seat.game_id, Seat.seat))
        if status:
            q = q.where(GameRow.status == status)
        mine = session.execute(q).all()
        games = listing.games(session, {game_id for game_id, _ in mine})
        out = []
        for game_id, seat in mine:
            game, updated = games[game_id]
            # a game the service ended (a resignation, a forfeit) waits on nobody
            to_act = listing.to_act(game)
            out.append(GameLine(game.id, game.kind, registry.title(game.kind, game.options), seat,
                                game.status, game.seq, [s.player.name for s in game.seats],
                                to_act, seat in to_act,
                                deadline_of(listing.seat_of(game, seat)),
                                updated or game.created_at))
        return out


def seat_for(session: Session, game_id: int, player_id: int, seat: int | None = None) -> Seat:
    """The player's seat in the game (`seat`: which of theirs). A game they do not play, and a
    seat that is not theirs, are "no such game" (404) in the words of a game that does not
    exist (readpolicy.UNSEEN), so a token cannot probe which games exist."""
    reader = Reader.player(player_id)
    row = readpolicy.admit(lambda: positions.game_row(session, game_id), reader,
                           readpolicy.is_player)
    held = readpolicy.seats_held(row, reader)
    if seat is not None and seat not in held:
        raise readpolicy.hidden()
    chosen = held[0] if seat is None else seat
    return next(s for s in row.seats if s.seat == chosen)


def read_seat(svc: Services, game_id: int, player_id: int, seat: int | None = None,
              *, every_move: bool = False) -> SeatRead:
    with svc.db.reading() as session:
        seat_row = seat_for(session, game_id, player_id, seat)
        pos = positions.load(session, svc.states, game_id)
        page = seatpage.build(pos.row, pos, seat_row.seat, svc.clock.now(),
                              every_move=every_move)
        return SeatRead(page, position_text(svc, page), deadline_of(seat_row))


def position_text(svc: Services, page: SeatPage) -> str:
    """The seat's view as the email's plain text shows it (Xfcc's "position as text")."""
    env = svc.templates
    return env.get_template(game_partial(env, page.kind, "txt")).render(
        page=page, view=page.view, names=page.names, me=page.me).strip() + "\n"


def move(svc: Services, game_id: int, player_id: int, *, lines: list[str] | None = None,
         move_object: dict | None = None, seq: int | None = None, key: str | None = None,
         seat: int | None = None) -> MoveAnswer:
    """Apply command lines (all or none, in order) or one move object from the legal list.
    `seq` is the position the client looked at: a change this seat can see since -> 409.
    The same `key` again answers the first answer, and applies nothing. Words (help, say,
    resign ...) are run after the moves, as on the game page."""
    lines = [ln.strip() for ln in (lines or []) if ln.strip()][:MAX_LINES]
    words, lines = commands.split(lines)
    with svc.db.transaction() as session:
        seat_row = seat_for(session, game_id, player_id, seat)
        intent = Intent(game_id, seat_row.seat, lines=lines,
                        moves=[move_object] if move_object is not None else [],
                        expected_seq=seq, source="api",
                        key=f"api:{key}" if key else None)
        first = _first_answer(session, intent)
        if first is not None:
            return first
        if seq is not None and seq < 1:
            raise PositionChanged("No position of this game has that number.",
                                  positions.game_row(session, game_id).seq)
        if move_object is not None:
            _check_listed(session, svc, intent, move_object)
        if not intent.moves and not intent.lines and not words:
            raise Refused("Send a command (\"command\" or \"commands\") or a move object.")
        moved = None
        if intent.moves or intent.lines:
            try:
                applied = apply(session, svc, intent)
            except AlreadyDone as exc:      # a concurrent request with the same key won
                return MoveAnswer(game_id, exc.first_seq, exc.last_seq, [], replayed=True)
            pos = positions.load(session, svc.states, game_id)
            moved = MoveAnswer(game_id, applied.first_seq, applied.last_seq,
                               [pos.engine.describe(m) for m in applied.moves])
    if moved is not None:
        svc.kick("deliver", applied.outbox_ids)
    # the words after the commit, each in a transaction of its own
    return _words(svc, game_id, intent.seat, words, moved)


def _words(svc: Services, game_id: int, seat: int, words: list[str],
           moved: MoveAnswer | None) -> MoveAnswer:
    answers = commands.answer(svc, game_id, seat, words, after_moves=moved is not None)
    if moved is None:
        with svc.db.transaction() as session:
            seq = positions.game_row(session, game_id).seq
        return MoveAnswer(game_id, seq, seq, [], answers=answers)
    return replace(moved, answers=answers)


def _first_answer(session: Session, intent: Intent) -> MoveAnswer | None:
    if intent.key is None:
        return None
    done = session.get(Submission, (intent.game_id, f"{intent.seat}:{intent.key}"[:128]))
    if done is None:
        return None
    return MoveAnswer(intent.game_id, done.first_seq, done.last_seq, [], replayed=True)


def _check_listed(session: Session, svc: Services, intent: Intent, move_object: dict) -> None:
    """A move object must be one of the seat's legal moves exactly as listed: the engines trust
    the shape of what they are handed."""
    pos = positions.load(session, svc.states, intent.game_id)
    if pos.engine.outcome(pos.state) is None and \
            move_object in pos.engine.legal_moves(pos.state, intent.seat):
        return
    if intent.expected_seq is not None and intent.expected_seq != pos.seq:
        then = positions.load(session, svc.states, intent.game_id, upto=intent.expected_seq) \
            if intent.expected_seq < pos.seq else None
        if then is None or marks.mark(pos.engine, then.state, intent.seat) != \
                marks.mark(pos.engine, pos.state, intent.seat):
            raise PositionChanged("The game has moved on; here is the position as it is now.",
                                  pos.seq)
    raise Refused("That move object is not one of your legal moves now; "
                  "GET the game's moves for the list.")


def say(svc: Services, game_id: int, player_id: int, text: str,
        seat: int | None = None) -> list[int]:
    if not text.strip():
        raise Refused("Write something to say.")
    with svc.db.transaction() as session:
        seat_row = seat_for(session, game_id, player_id, seat)
        game = positions.game_row(session, game_id)
        try:
            ids = chat.post(session, svc, game, seat_row.seat, text).outbox_ids
        except chat.ChatRefused as exc:
            raise Refused(exc.detail) from None
    svc.kick("deliver", ids)
    return ids


def extend(svc: Services, game_id: int, player_id: int, days: str,
           seat: int | None = None) -> extensions.Extension:
    """`extend 2d` through the API (service.play.extensions)."""
    with svc.db.transaction() as session:
        seat_row = seat_for(session, game_id, player_id, seat)
        try:
            done = extensions.ask_in(session, svc, game_id, seat_row.seat, days)
        except extensions.ExtensionRefused as exc:
            raise Refused(exc.detail) from None
    svc.kick("deliver", done.outbox_ids)
    return done


def record(svc: Services, game_id: int, reader: Reader) -> Record:
    """The game as spectators see it, with every event a spectator may see: for its players,
    and for the public page's audience (the reader names the page's id) while that page is on
    (readpolicy.sees_table). To anyone else, "no such game" as for a number that is none."""
    with svc.db.reading() as session:
        row = readpolicy.admit(lambda: positions.game_row(session, game_id), reader,
                               readpolicy.sees_table)
        pos = positions.load(session, svc.states, game_id, row=row)
        names = [s.player.name for s in pos.row.seats]
        events = [(r.seq, r.event) for r in event_store.load(session, pos.row)]
        outcome = pos.engine.outcome(pos.state)
        return Record(game_id, pos.row.kind, registry.title(pos.row.kind, pos.row.options),
                      pos.row.rules_version,
                      pos.row.status, pos.seq, names, pos.engine.view(pos.state, None),
                      history(pos.engine, events, None, names),
                      # the result as ranked (service.play.ranking), a service's end too
                      pos.row.result or (outcome.to_json() if outcome else None))


def current(svc: Services, game_id: int, player_id: int, seat: int | None = None) -> dict[str, Any]:
    """The position as it is now for this seat (a 409's body): its sequence number, mark and
    the seat's view, as GET /games/{id} gives them."""
    with svc.db.reading() as session:
        seat_row = seat_for(session, game_id, player_id, seat)
        pos = positions.load(session, svc.states, game_id)
        return {"seq": pos.seq, "mark": marks.mark(pos.engine, pos.state, seat_row.seat),
                "view": pos.engine.view(pos.state, seat_row.seat)}


@dataclass(frozen=True)
class PlansAnswer:
    game_id: int
    answers: list[str]
    plans: str


def plan(svc: Services, game_id: int, player_id: int, lines: list[str],
         seat: int | None = None) -> PlansAnswer:
    """Plan lines (if ... then ..., next: ..., plans clear), all kept or none; the seat's
    plans as they then stand."""
    with svc.db.transaction() as session:
        seat_row = seat_for(session, game_id, player_id, seat)
        answers = plans.write_lines(session, svc, game_id, seat_row.seat, lines)
        listed = plans.listing(session, svc, game_id, seat_row.seat)
    return PlansAnswer(game_id, answers, listed)
