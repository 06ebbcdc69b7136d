"""The reads behind the JSON API (service/web/api.py): a player's games, one game as their seat
sees it (the same page as their email), its legal moves, and a game's record as spectators see
it. Who is asking is a player id (from their token); what they may see is
service.play.readpolicy's to say: a game they have no seat in does not exist for them, word for
word as a missing one. The API's writes are service.play.moves.apiwrites."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.display.seatview import SeatPage, history
from service.games import registry
from service.linking import freshness
from service.mailwire.outbound.templating import game_partial
from service.play import readpolicy, repository
from service.play.moves import notes, trying
from service.play.readpolicy import Reader
from service.play.services import Services
from service.store import eventstore
from service.store.models import GameRow, Seat

from . import listing, seatpage


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
    notes: list[str] = field(default_factory=list)   # the reader's own private notes


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
    """The player's seat in the game (`seat`: which of theirs), by the read policy
    (readpolicy.own_seat)."""
    return readpolicy.own_seat(lambda: repository.game_row(session, game_id),
                               Reader.player(player_id), seat)


def read_seat(svc: Services, game_id: int, player_id: int, seat: int | None = None,
              *, every_move: bool = False) -> SeatRead:
    with svc.db.reading() as session:
        seat_row = seat_for(session, game_id, player_id, seat)
        pos = repository.load(session, svc.states, game_id)
        page = seatpage.build(pos.row, pos, seat_row.seat, svc.clock.now(),
                              every_move=every_move)
        return SeatRead(page, position_text(svc, page), deadline_of(seat_row),
                        notes.shown(session, game_id, seat_row.seat, player_id))


def position_text(svc: Services, page: SeatPage) -> str:
    """The seat's view as the email's plain text shows it (Xfcc's "position as text")."""
    env = svc.templates
    return env.get_template(game_partial(env, page.kind, "txt")).render(
        page=page, view=page.view, names=page.names, me=page.me).strip() + "\n"


def record(svc: Services, game_id: int, reader: Reader) -> Record:
    """The game as spectators see it, with every event a spectator may see: for its players,
    and for the public page's audience (the reader names the page's id) while that page is on
    (readpolicy.sees_table). To anyone else, "no such game" as for a number that is none."""
    with svc.db.reading() as session:
        row = readpolicy.admit(lambda: repository.game_row(session, game_id), reader,
                               readpolicy.sees_table)
        pos = repository.load(session, svc.states, game_id, row=row)
        names = [s.player.name for s in pos.row.seats]
        events = [(r.seq, r.event) for r in eventstore.load(session, pos.row)]
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
        pos = repository.load(session, svc.states, game_id)
        return {"seq": pos.seq, "mark": freshness.mark(pos.engine, pos.state, seat_row.seat),
                "view": pos.engine.view(pos.state, seat_row.seat)}


def try_moves(svc: Services, game_id: int, player_id: int, text: str,
              seat: int | None = None) -> trying.Tried:
    """`try` through the API: the seat's view after the lines of `text`, tried in the
    position as the seat may know it (service.play.moves.trying); a read, nothing written."""
    with svc.db.reading() as session:
        seat_row = seat_for(session, game_id, player_id, seat)
        pos = repository.load(session, svc.states, game_id)
        return trying.tried(pos.engine, pos.state, seat_row.seat, text.splitlines())
