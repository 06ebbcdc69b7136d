"""What pages show: a seat's page of a game and its history, read in one short transaction.
Reads only; the adapters never reach into the store themselves."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from service.games import registry
from service.presenting import SeatPage, fill, history, seat_page
from service.store import events as event_store
from service.store.models import GameRow, Invitation, SeatChange

from . import positions, timing
from .errors import NoSuchGame
from .services import Services
from .submit import check_holder


@dataclass(frozen=True)
class GameRead:
    page: SeatPage
    history: list[dict]          # every event as the seat may see it, oldest first
    bounced: tuple[str, ...] = ()   # players whose mail bounced: they are mailed nothing


def read_game(svc: Services, game_id: int, seat: int | None, *,
              with_history: bool = True, holder: int | None = None) -> GameRead:
    """A seat's page of the game; `with_history=False` for pages that show none (confirm)."""
    with svc.db.transaction() as session:
        pos = positions.load(session, svc.states, game_id)
        check_holder(pos.row, seat, holder)
        names = [s.player.name for s in pos.row.seats]
        recorded = event_store.load(session, pos.row) if with_history else []
        events = [(r.seq, r.event) for r in recorded]
        timer = {r.seq for r in recorded if r.source == "timer"}
        page = seat_page(pos.engine, game_id, pos.row.kind, pos.state, pos.seq, seat, names,
                         [], every_move=True)
        timing.dress(page, pos.row, svc.clock.now())
        bounced = tuple(s.player.name for s in pos.row.seats if s.player.bounced_at)
        return GameRead(page, _history(session, pos, events, timer, seat, names, with_history),
                        bounced)


def _history(session, pos, events, timer: set[int], seat, names, wanted: bool) -> list[dict]:
    """The engine's history as the seat may see it, with the timer's moves said as such and
    the seat changes (resign, forfeit, absent, handover) in their place."""
    if not wanted:
        return []
    out = []
    for h in history(pos.engine, events, seat, names):
        if h["seq"] in timer:
            h = dict(h, text=h["text"] + " (played by the clock: out of time)")
        out.append(h)
    changes = session.scalars(select(SeatChange).where(SeatChange.game_id == pos.row.id)
                              .order_by(SeatChange.id)).all()
    for c in changes:
        out.append({"seq": c.seq, "text": fill(c.text, names, seat), "type": c.kind})
    out.sort(key=lambda h: h["seq"])       # stable: a change follows the events before it
    return out


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
