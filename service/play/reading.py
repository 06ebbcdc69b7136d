"""What pages show: a seat's page of a game and its history, read in one short transaction.
Reads only; the adapters never reach into the store themselves."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from service.presenting import SeatPage, fill, history, seat_page
from service.store import events as event_store
from service.store.models import SeatChange

from . import positions, timing
from .services import Services
from .submit import check_holder


@dataclass(frozen=True)
class GameRead:
    page: SeatPage
    history: list[dict]          # every event as the seat may see it, oldest first
    addresses: list[str]         # the seats' addresses: only the dev outbox page shows them


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
        return GameRead(page, _history(session, pos, events, timer, seat, names, with_history),
                        [s.player.email for s in pos.row.seats])


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
