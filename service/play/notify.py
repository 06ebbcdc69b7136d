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
    if before is None:
        return [queue(session, game, s.seat, "turn", seq, now) for s in game.seats
                if s.bot is None]
    acting_before, acting_after = engine.to_act(before), engine.to_act(after)
    ended = engine.outcome(after) is not None
    new_actors = bool(acting_after - acting_before)
    rows = []
    for seat_row in game.seats:
        seat = seat_row.seat
        if seat_row.bot is not None:
            continue                           # bots are never mailed
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
            rows.append(queue(session, game, seat, "turn", seq, now))
    return rows


def bot_to_act(game: GameRow, engine: Game, state: Any) -> bool:
    """Whether a bot seat has a move to make now (the bots' worker is then kicked)."""
    if engine.outcome(state) is not None:
        return False
    acting = engine.to_act(state)
    return any(s.bot is not None and s.seat in acting for s in game.seats)


def new_message_id() -> str:
    return "tp." + secrets.token_hex(12)


def queue(session: Session, game: GameRow, seat: int, kind: str, seq: int, now: datetime,
          payload: dict | None = None) -> OutboxRow:
    seat_row = next(s for s in game.seats if s.seat == seat)
    since = session.scalar(select(func.max(OutboxRow.seq)).where(
        OutboxRow.game_id == game.id, OutboxRow.seat == seat, OutboxRow.kind == "turn")) or 0
    row = OutboxRow(game_id=game.id, seat=seat, to_addr=seat_row.player.email, kind=kind,
                    message_id=new_message_id(),
                    seq=seq, since_seq=since, payload=payload or {},
                    # bots are never mailed; a muted seat gets no turn emails
                    status="skipped" if seat_row.bot is not None
                    or (seat_row.muted and kind == "turn") else "pending",
                    attempts=0, next_try=now, created_at=now)
    session.add(row)
    return row
