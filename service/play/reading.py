"""What pages show: a seat's page of a game and its history, read in one short transaction.
Reads only; the adapters never reach into the store themselves."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from service.games import registry
from service.presenting import SeatPage, history, seat_page
from service.store import events as event_store
from service.store.models import GameRow, Invitation

from . import positions
from .errors import NoSuchGame
from .services import Services


@dataclass(frozen=True)
class GameRead:
    page: SeatPage
    history: list[dict]          # every event as the seat may see it, oldest first
    bounced: tuple[str, ...] = ()   # players whose mail bounced: they are mailed nothing


def read_game(svc: Services, game_id: int, seat: int | None, *,
              with_history: bool = True) -> GameRead:
    """A seat's page of the game; `with_history=False` for pages that show none (confirm)."""
    with svc.db.transaction() as session:
        pos = positions.load(session, svc.states, game_id)
        names = [s.player.name for s in pos.row.seats]
        events = [(r.seq, r.event) for r in event_store.load(session, pos.row)] \
            if with_history else []
        page = seat_page(pos.engine, game_id, pos.row.kind, pos.state, pos.seq, seat, names,
                         [], every_move=True)
        bounced = tuple(s.player.name for s in pos.row.seats if s.player.bounced_at)
        return GameRead(page, history(pos.engine, events, seat, names), bounced)


def game_kind(svc: Services, game_id: int) -> str:
    with svc.db.transaction() as session:
        return positions.game_row(session, game_id).kind


@dataclass(frozen=True)
class PublicGame:
    game_id: int
    status: str              # forming | active | ended
    title: str
    seats: list[tuple[str, str]]   # forming: (display name or "an invited player", status)


def public_game(svc: Services, public_id: str) -> PublicGame:
    """The game behind a public page's unguessable id; a game whose page is off, or an id that
    names nothing, is "no such game" alike."""
    with svc.db.transaction() as session:
        row = session.scalars(select(GameRow).where(GameRow.public_id == public_id[:40])).first()
        if row is None or not row.public:
            raise NoSuchGame("There is no such game page (or its players keep it private).")
        seats = []
        if row.status == "forming":
            for inv in session.scalars(select(Invitation).where(
                    Invitation.game_id == row.id, Invitation.status != "replaced")
                    .order_by(Invitation.seat)):
                who = inv.player.name if inv.player is not None else (
                    "an open seat" if inv.status == "open" else "an invited player")
                seats.append((who, inv.status))
        return PublicGame(row.id, row.status, registry.get(row.kind).title, seats)
