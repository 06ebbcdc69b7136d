"""What pages show: a seat's page of a game and its history, read in one short transaction.
Reads only; the adapters never reach into the store themselves."""
from __future__ import annotations

from dataclasses import dataclass, field

from service.presenting import SeatPage, history, seat_page
from service.store import events as event_store

from . import positions, replies
from .services import Services


@dataclass(frozen=True)
class GameRead:
    page: SeatPage
    history: list[dict]          # every event as the seat may see it, oldest first
    addresses: list[str]         # the seats' addresses: only the dev outbox page shows them
    # mail for this seat from other addresses (when, from whom), newest first: nothing was
    # done with it, and the owner should know someone tried
    attempts: list[tuple[str, str]] = field(default_factory=list)


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
        tried = [] if seat is None else [
            (m.received_at.strftime("%Y-%m-%d %H:%M UTC"), m.parsed.get("sender", "?")
             if m.parsed else "?") for m in replies.attempts(session, game_id, seat)]
        return GameRead(page, history(pos.engine, events, seat, names),
                        [s.player.email for s in pos.row.seats], tried)


def game_kind(svc: Services, game_id: int) -> str:
    with svc.db.transaction() as session:
        return positions.game_row(session, game_id).kind
