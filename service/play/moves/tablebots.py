"""Bots at the table: a seat whose `bot` names a level ("easy", "normal") is played by the
engine's bot of that level. A bot's move goes through the same use case as a person's
(`submit.apply`, source "bot"), so it is checked, logged and shown like any other move, and
bots are never mailed (notify skips their seats).

`move_bots` is the background job declared by every commit that leaves a bot (or a person's
forced move) to act, whatever made it (service.play.notify.turns_changed): with a broker it
runs after TURNPOST_BOT_DELAY_SECONDS, so a person sees the table think for a moment; on the
embedded default it runs in process at once. Sealed
simultaneous choices (Aristocracy) need nothing special: every bot seat among those to act
makes its choice in turn, one commit each, whether people have chosen yet or not. (An engine's
bot is handed the state; each game's bots.py reads only its own seat's hand and the table.)"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.play import aftercommit, notify
from service.play.errors import GameOver, NoSuchGame, PlayError, PositionChanged
from service.play.repository import load
from service.play.services import Services
from service.store.models import EventRow, GameRow
from service.store.statuses import GameStatus

from .submit import Applied, Intent, apply

log = logging.getLogger(__name__)

#: a game whose bots have not moved this long after a person's move lost its kick
STALLED_AFTER = timedelta(minutes=1)

#: the source of a move played for a person because it was their only one
FORCED = "forced"

#: moves one kick plays at most; a longer run of bot moves kicks the job again
MAX_MOVES_PER_KICK = 200


def move_bots(svc: Services, game_id: int, limit: int = MAX_MOVES_PER_KICK) -> int:
    """Play every bot move that is due, one transaction each (each move's emails follow its
    commit); returns how many were made."""
    made = 0
    try:
        for _ in range(limit):
            try:
                applied = _one_move(svc, game_id)
            except PositionChanged:
                continue                # a person moved at the same moment: look again
            if applied is None:
                break
            made += 1
        else:
            with svc.db.transaction() as session:   # still bots to move: the next job goes on
                aftercommit.bots(session, game_id)
    except (GameOver, NoSuchGame):
        pass        # over, or not dealt yet (a game still forming has no events): nothing due
    except PlayError as exc:
        # a bot that makes an illegal move is a bug: say so, and leave the game as it is
        log.error("bot move refused in game %s: %s", game_id, exc.detail)
    return made


def _one_move(svc: Services, game_id: int) -> Applied | None:
    """The first bot seat to act makes its move, else a person's forced move is played
    (source 'forced', notify.forced_seats); None when there is neither."""
    with svc.db.transaction() as session:
        pos = load(session, svc.states, game_id, lock=True)
        if pos.row.status == GameStatus.ENDED or pos.engine.outcome(pos.state) is not None:
            return None
        acting = pos.engine.to_act(pos.state)
        seat = next((s for s in pos.row.seats if s.bot and s.seat in acting), None)
        if seat is None:
            forced = notify.forced_seats(pos.row, pos.engine, pos.state)
            if not forced:
                return None
            number, move = next(iter(sorted(forced.items())))
            return apply(session, svc, Intent(game_id, number, moves=[move],
                                              expected_seq=pos.seq, source=FORCED))
        move = pos.engine.bots[seat.bot](pos.state, seat.seat, svc.chance)
        return apply(session, svc, Intent(game_id, seat.seat, moves=[move],
                                          expected_seq=pos.seq, source="bot"))


def stalled(session: Session, now: datetime, delay: float = 0, limit: int = 50) -> list[int]:
    """Active games where a bot is to act (`bots_due`) since before the bot delay and a
    minute: their kick was lost (a broker outage), so the periodic sweep kicks them again."""
    since = now - STALLED_AFTER - timedelta(seconds=delay)
    q = (select(GameRow.id).join(EventRow, (EventRow.game_id == GameRow.id)
                                 & (EventRow.seq == GameRow.seq))
         .where(GameRow.status == GameStatus.ACTIVE, GameRow.bots_due.is_(True),
                EventRow.created_at < since)
         .order_by(EventRow.created_at).limit(limit))
    return list(session.scalars(q))
