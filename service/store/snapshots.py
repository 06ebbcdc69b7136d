"""Snapshots: a game's state after some event, stored beside its log so that rebuilding a
state replays only the events after the newest snapshot (DESIGN.md step 3), whatever the
length of the game.

A snapshot is a cache: it is written by whoever folded the state anyway, it is read only in
the exact `format` (rules version + engine code) it was written in, and one that cannot be
read back is ignored — the log stays the truth. States are pickled: they are the engines'
own immutable values, and the database that holds them is the one that holds the log."""
from __future__ import annotations

import logging
import pickle
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from .models import Snapshot

log = logging.getLogger(__name__)


def latest(session: Session, game_id: int, fmt: str, after: int,
           upto: int) -> tuple[int, Any] | None:
    """The newest readable snapshot in `fmt` with after < seq <= upto, as (seq, state)."""
    found = session.execute(
        select(Snapshot.seq, Snapshot.state)
        .where(Snapshot.game_id == game_id, Snapshot.format == fmt,
               Snapshot.seq > after, Snapshot.seq <= upto)
        .order_by(Snapshot.seq.desc()).limit(1)).first()
    if found is None:
        return None
    try:
        return found.seq, pickle.loads(found.state)  # noqa: S301 - our own database's bytes
    except Exception:  # noqa: BLE001 - an unreadable cache entry: replay the log instead
        log.warning("snapshot of game %s at %s unreadable; replaying", game_id, found.seq)
        return None


def save(session: Session, game_id: int, seq: int, fmt: str, state: Any) -> None:
    """Keep the state after event `seq`; a snapshot already there (another writer) stays."""
    values = dict(game_id=game_id, seq=seq, format=fmt,
                  state=pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        stmt = postgresql.insert(Snapshot).values(**values).on_conflict_do_nothing()
    elif dialect == "sqlite":
        stmt = sqlite.insert(Snapshot).values(**values).on_conflict_do_nothing()
    else:   # pragma: no cover - the two databases we run on are above
        if session.get(Snapshot, (game_id, seq)) is not None:
            return
        stmt = Snapshot.__table__.insert().values(**values)
    session.execute(stmt)
