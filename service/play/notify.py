"""Which emails a change of position calls for, queued as outbox rows in the same transaction
as the events (DESIGN.md step 4): if the events commit, so do their emails; if not, neither."""
from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from service import marks
from service.games.contract import Game
from service.store.models import GameRow, OutboxRow


def queue_changed_views(session: Session, game: GameRow, engine: Game, before: Any, after: Any,
                        seq: int, now: datetime) -> list[OutboxRow]:
    """One email per seat whose view changed (all seats when the game starts: `before` is
    None), but no chatter: a seat watching someone part-way through a turn of several actions
    hears once, when new seats must act, with all of the turn's news; a seat still to choose
    in a sealed round is not mailed because another seat chose (its links stay good: the
    change is outside its freshness view, service.marks)."""
    wanted_seats = changed_seats(game, engine, before, after)
    since = last_turn_emails(session, game.id) if wanted_seats else {}
    return [queue(session, game, seat, "turn", seq, now, since=since.get(seat, 0))
            for seat in wanted_seats]


def changed_seats(game: GameRow, engine: Game, before: Any, after: Any) -> list[int]:
    """The seats queue_changed_views mails (the rules are in its docstring)."""
    if before is None:
        return [s.seat for s in game.seats]
    acting_before, acting_after = engine.to_act(before), engine.to_act(after)
    ended = engine.outcome(after) is not None
    new_actors = bool(acting_after - acting_before)
    wanted_seats = []
    for seat_row in game.seats:
        seat = seat_row.seat
        if engine.view(before, seat) == engine.view(after, seat):
            continue
        was, now_acts = seat in acting_before, seat in acting_after
        if ended or now_acts != was:
            wanted = True                      # its turn began or its part is done
        elif now_acts:                         # still acting: new links if its position moved
            wanted = marks.mark(engine, before, seat) != marks.mark(engine, after, seat)
        else:
            wanted = new_actors                # watching: once, when the turn passes
        if wanted:
            wanted_seats.append(seat)
    return wanted_seats


def last_turn_emails(session: Session, game_id: int) -> dict[int, int]:
    """Each seat's last turn email's position, in one query (a move mails several seats)."""
    return dict(session.execute(
        select(OutboxRow.seat, func.max(OutboxRow.seq))
        .where(OutboxRow.game_id == game_id, OutboxRow.kind == "turn")
        .group_by(OutboxRow.seat)).all())


def new_message_id() -> str:
    return "tp." + secrets.token_hex(12)


def queue(session: Session, game: GameRow, seat: int, kind: str, seq: int, now: datetime,
          payload: dict | None = None, since: int | None = None) -> OutboxRow:
    """`since`: the seat's last turn email's position (news after it), looked up if not given."""
    seat_row = next(s for s in game.seats if s.seat == seat)
    if since is None:
        since = last_turn_emails(session, game.id).get(seat, 0)
    row = OutboxRow(game_id=game.id, seat=seat, to_addr=seat_row.player.email, kind=kind,
                    message_id=new_message_id(),
                    seq=seq, since_seq=since, payload=payload or {},
                    status="skipped" if seat_row.muted and kind == "turn" else "pending",
                    attempts=0, next_try=now, created_at=now)
    session.add(row)
    return row
