"""What pages show: a seat's page of a game and its history, read in one short transaction.
Reads only; the adapters never reach into the store themselves.

The history is paged in SQL: a page holds the newest `HISTORY_PAGE` events before a seq (and
the chat messages written meanwhile that the seat may read), so a long game's page stays
short and cheap."""
from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from service.presenting import SeatPage, history, seat_page
from service.store import events as event_store

from . import chat, positions, undo
from .services import Services

HISTORY_PAGE = 50


@dataclass(frozen=True)
class GameRead:
    page: SeatPage
    history: list[dict]          # the page of history as the seat may see it, oldest first
    addresses: list[str]         # the seats' addresses: only the dev outbox page shows them
    older: int | None = None     # `before` of the next older page, None at the start
    bots: list[int] = field(default_factory=list)   # seats played by bots
    undo: dict | None = None     # the request to take back a move waiting for answers


def read_game(svc: Services, game_id: int, seat: int | None, *,
              with_history: bool = True, before: int | None = None) -> GameRead:
    """A seat's page of the game; `with_history=False` for pages that show none (confirm);
    `before`: the history page of the events before that seq."""
    with svc.db.transaction() as session:
        pos = positions.load(session, svc.states, game_id)
        names = [s.player.name for s in pos.row.seats]
        entries, older = (history_page(session, pos, seat, names, before)
                          if with_history else ([], None))
        page = seat_page(pos.engine, game_id, pos.row.kind, pos.state, pos.seq, seat, names,
                         [], every_move=True)
        request = undo.waiting(session, game_id, pos.seq)
        asking = None if request is None else {
            "seat": request.seat, "name": names[request.seat], "mine": request.seat == seat,
            "answered": str(seat) in request.answers}
        return GameRead(page, entries, [s.player.email for s in pos.row.seats], older,
                        [s.seat for s in pos.row.seats if s.bot], asking)


def history_page(session: Session, pos: positions.Position, seat: int | None,
                 names: list[str], before: int | None,
                 limit: int = HISTORY_PAGE) -> tuple[list[dict], int | None]:
    """One page of history, oldest first, each entry with its time (`at`, ISO 8601 UTC), and
    the `before` of the next older page (None when this page reaches the start)."""
    recorded = event_store.newest(session, pos.row, before=before, limit=limit)
    if not recorded:
        return [], None
    first, last = recorded[0].seq, recorded[-1].seq
    at = {r.seq: r.at.isoformat() for r in recorded}
    entries = [dict(h, kind="event", at=at[h["seq"]])
               for h in history(pos.engine, [(r.seq, r.event) for r in recorded], seat, names)]
    # a message belongs to the page whose events it was written among
    after = -1 if first == 1 else first - 1
    upto = None if before is None else last
    entries += [chat.entry(m, names, seat)
                for m in chat.messages(session, pos.row.id, seat, after_seq=after, upto_seq=upto)]
    entries.sort(key=lambda e: (e["seq"], e["kind"] == "chat", e["at"]))
    return entries, (first if first > 1 else None)


def game_kind(svc: Services, game_id: int) -> str:
    with svc.db.transaction() as session:
        return positions.game_row(session, game_id).kind
