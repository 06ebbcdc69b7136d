"""The count behind the cap on answers a seat gets by mail (service.play.mail.replies: so many an
hour, then one that says it is the last, then silence). Replies are processed concurrently
(worker processes, the sweep), so the count is taken under a lock on the game's row, held
until the answer's own row is committed: a second reply for the same game waits for the
first's answer and counts it. Without it, two replies could both see the last free place and
both answer (or both say they will stop)."""
from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from service.store.models import GameRow, OutboxRow

#: The outbox kinds that are answers to a seat's mail.
ANSWER_KINDS = ("refusal", "answer")

# FOR NO KEY UPDATE, not FOR UPDATE: the answer's transaction may already hold the row's key
# share lock (a `say` line's rows refer to the game), and two of those each asking FOR UPDATE
# would deadlock. It still queues behind a move's FOR UPDATE and behind another answer.
# SQLite has no row locks: its BEGIN IMMEDIATE already holds the whole file.
_LOCK_GAME = (select(GameRow.id).where(GameRow.id == bindparam("game_id"))
              .with_for_update(key_share=True))
_ANSWERS = select(func.count()).select_from(OutboxRow).where(
    OutboxRow.game_id == bindparam("game_id"), OutboxRow.seat == bindparam("seat"),
    OutboxRow.kind.in_(ANSWER_KINDS), OutboxRow.created_at >= bindparam("since"))


def lock_game(session: Session, game_id: int) -> None:
    """Hold the game's row until the caller's transaction ends: counts taken after it (answers,
    the table messages of `say`) cannot be overtaken by a concurrent reply's."""
    session.execute(_LOCK_GAME, {"game_id": game_id})


def answers_in_the_last_hour(session: Session, game_id: int, seat: int, now: datetime) -> int:
    """Answers this seat had in the hour before `now`, counted under the game row's lock."""
    lock_game(session, game_id)
    return session.scalar(_ANSWERS, {"game_id": game_id, "seat": seat,
                                     "since": now - timedelta(hours=1)}) or 0
