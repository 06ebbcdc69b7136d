"""Snapshots: a game's state after some event, stored beside its log so that rebuilding a
state replays only the events after the newest snapshot (docs/architecture.md step 3), whatever the
length of the game.

A snapshot is a cache: it is written by whoever folded the state anyway, it is read only in
the exact `format` (rules version + engine code) it was written in, and one that cannot be
read back is ignored — the log stays the truth. States are pickled: they are the engines'
own immutable values, and the database that holds them is the one that holds the log."""
from __future__ import annotations

import logging
import pickle
from collections.abc import Mapping
from typing import Any

from sqlalchemy import and_, bindparam, func, or_, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from .models import Snapshot

log = logging.getLogger(__name__)


# built once: every load that misses the state cache asks it
_LATEST = (select(Snapshot.seq, Snapshot.state)
           .where(Snapshot.game_id == bindparam("game_id"), Snapshot.format == bindparam("fmt"),
                  Snapshot.seq > bindparam("after"), Snapshot.seq <= bindparam("upto"))
           .order_by(Snapshot.seq.desc()).limit(1))


def latest(session: Session, game_id: int, fmt: str, after: int,
           upto: int) -> tuple[int, Any] | None:
    """The newest readable snapshot in `fmt` with after < seq <= upto, as (seq, state)."""
    found = session.execute(_LATEST, {"game_id": game_id, "fmt": fmt, "after": after,
                                      "upto": upto}).first()
    if found is None:
        return None
    try:
        return found.seq, pickle.loads(found.state)  # noqa: S301 - our own database's bytes
    except Exception:  # noqa: BLE001 - an unreadable cache entry: replay the log instead
        log.warning("snapshot of game %s at %s unreadable; replaying", game_id, found.seq)
        return None


def latest_many(session: Session, wanted: Mapping[int, tuple[str, int, int]],
                ends: Mapping[int, int] | None = None) -> dict[int, tuple[int, Any]]:
    """`latest` for many games in one statement: {game_id: (fmt, after, upto)} to the newest
    readable snapshot of each game that has one in its range, as {game_id: (seq, state)}.

    `ends`: each game's last seq, where the caller knows it. A game asked for at its end has
    no snapshot past the position, so it is read by its key alone (a sweep's batch of games
    at their last event: a term for each game cost a batch of 200 twice the wall time and
    four times the client's CPU, bench/snapshot_reads.py); the others (an email of a game that moved on since),
    each within its own range. Should a snapshot have been written past a game's end since
    the caller read it, that game is read again within its range."""
    if not wanted:
        return {}
    ends = ends or {}
    at_end = {g for g, (_, _, upto) in wanted.items() if upto >= ends.get(g, upto + 1)}
    ranged = {g: w for g, w in wanted.items() if g not in at_end}
    out = _read(session, wanted, sorted(at_end), ranged)
    past = {g: wanted[g] for g, (seq, _) in out.items() if seq > wanted[g][2]}
    if past:                # (written since the caller read its game rows)
        for g in past:
            del out[g]
        out.update(_read(session, wanted, [], past))
    return out


def _read(session: Session, wanted: Mapping[int, tuple[str, int, int]], by_key: list[int],
          ranged: Mapping[int, tuple[str, int, int]]) -> dict[int, tuple[int, Any]]:
    """The newest snapshot of the games `by_key` and of each game of `ranged` within its
    range, in the format `wanted` says and newer than its `after`."""
    picks = [_BY_KEY] if by_key else []
    picks += [and_(Snapshot.game_id == game_id, Snapshot.seq > after, Snapshot.seq <= upto)
              for game_id, (_, after, upto) in ranged.items()]
    newest = (select(Snapshot.game_id, Snapshot.format, func.max(Snapshot.seq).label("seq"))
              .where(or_(*picks), Snapshot.format.in_({fmt for fmt, _, _ in wanted.values()}))
              .group_by(Snapshot.game_id, Snapshot.format).subquery())
    found = session.execute(
        select(Snapshot.game_id, Snapshot.format, Snapshot.seq, Snapshot.state)
        .join(newest, and_(Snapshot.game_id == newest.c.game_id,
                           Snapshot.format == newest.c.format, Snapshot.seq == newest.c.seq)),
        {"by_key": by_key})
    out = {}
    for row in found:
        fmt, after, _ = wanted[row.game_id]
        if row.format != fmt or row.seq <= after:
            continue        # another format, or none newer than what the caller has
        try:
            out[row.game_id] = row.seq, pickle.loads(row.state)  # noqa: S301 - our own bytes
        except Exception:  # noqa: BLE001 - an unreadable cache entry: replay the log instead
            log.warning("snapshot of game %s at %s unreadable; replaying", row.game_id, row.seq)
    return out


_BY_KEY = Snapshot.game_id.in_(bindparam("by_key", expanding=True))


def save_many(session: Session, rows: list[tuple[int, int, str, Any]]) -> None:
    """`save` for many (game_id, seq, fmt, state) in one statement."""
    if not rows:
        return
    values = [dict(game_id=g, seq=seq, format=fmt,
                   state=pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
              for g, seq, fmt, state in rows]
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        session.execute(postgresql.insert(Snapshot).on_conflict_do_nothing(), values)
    elif dialect == "sqlite":
        session.execute(sqlite.insert(Snapshot).on_conflict_do_nothing(), values)
    else:   # pragma: no cover - the two databases we run on are above
        for g, seq, fmt, state in rows:
            save(session, g, seq, fmt, state)


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
