"""Chat at the table: a line said by one seat, mailed to every other seat of the game (a reply
email's `say ...`, the JSON API's chat)."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from service.store.models import GameRow, OutboxRow

from . import notify

MAX_SAID = 2000


def say(session: Session, game: GameRow, seat: int, text: str, seq: int,
        now: datetime) -> list[OutboxRow]:
    """One "message" email per other seat, in the caller's transaction."""
    name = next(s.player.name for s in game.seats if s.seat == seat)
    said = {"said": {"name": name, "text": text.strip()[:MAX_SAID]}}
    return [notify.queue(session, game, s.seat, "message", seq, now, said)
            for s in game.seats if s.seat != seat]
