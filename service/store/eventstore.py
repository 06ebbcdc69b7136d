"""The event store: the one place that appends to a game's log and reads it back.

`events` has PRIMARY KEY (game_id, seq). Appending at `seq+1..` while another writer appends at
the same numbers makes one of the two fail on the key (`Conflict`): the loser never overwrites,
it is told the position changed. Reading applies the upcaster: logs older than rules versions
have no `"rules"` in their first event, and get the version their game row records.
"""
from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, bindparam, or_, select, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from service.games.contract import Event

from . import multirow
from .models import EventRow, GameRow, Submission

EVENTS, SUBMISSIONS = EventRow.__table__, Submission.__table__
# a move's statements, built once
_INSERT_EVENT, _INSERT_RECEIPT = EVENTS.insert(), SUBMISSIONS.insert()


class Conflict(Exception):
    """Another writer appended at these sequence numbers first."""


@dataclass(frozen=True)
class Recorded:
    seq: int
    event: Event
    seat: int | None
    source: str
    at: datetime


def append(session: Session, game: GameRow, events: Sequence[Event], *, seat: int | None,
           source: str, now: datetime, receipt: Mapping[str, Any] | None = None) -> tuple[int, int]:
    """Append `events` after the game's last one, with `receipt` (the values of a submissions
    row: the move's idempotency record) in the same transaction. Returns (first seq, last
    seq); raises Conflict if another writer won.

    The rows go straight into the tables (Core INSERTs, not ORM objects nor the ORM's bulk
    insert, which costs a move twice as much): a move is the hottest write there is, and
    nothing reads these rows back as objects in the same session."""
    first = game.seq + 1
    event_rows = rows(game, events, seat=seat, source=source, now=now)
    try:
        insert(session, event_rows, receipt)
    except Conflict:
        game.seq = first - 1            # nothing was appended
        raise
    return first, game.seq


def rows(game, events: Sequence[Event], *, seat: int | None, source: str,
         now: datetime) -> list[dict[str, Any]]:
    """The rows of `events` after the game's last one; the game's `seq` moves on to the
    last of them (written back with the game by the caller)."""
    game_id, first = game.id, game.seq + 1
    out = [{"game_id": game_id, "seq": first + n, "type": ev.type, "data": dict(ev.data),
            "seat": seat, "source": source, "created_at": now} for n, ev in enumerate(events)]
    game.seq = first + len(out) - 1
    return out


def insert(session: Session, event_rows: list[dict[str, Any]],
           receipt: Mapping[str, Any] | None = None) -> None:
    """INSERT the rows (`rows`) and the receipt; Conflict if another writer took one of
    these sequence numbers (or the receipt's key) first."""
    try:
        # one statement, not an executemany (store.multirow says why)
        if len(event_rows) == 1:
            session.execute(_INSERT_EVENT, event_rows[0])
        else:
            session.execute(_insert_rows(len(event_rows)), multirow.numbered(event_rows))
        if receipt is not None:
            session.execute(_INSERT_RECEIPT, dict(receipt))
    except IntegrityError:
        raise conflict(event_rows) from None


def conflict(event_rows: list[dict[str, Any]]) -> Conflict:
    first = event_rows[0]
    return Conflict(f"game {first['game_id']}: events from {first['seq']} were appended by "
                    "another writer")


@functools.lru_cache(maxsize=16)
def _insert_rows(n: int):
    """An INSERT of `n` events in one statement, built once per `n` (store.multirow)."""
    sql, binds = multirow.insert_sql(EVENTS, list(EVENTS.c), n)
    return text(sql).bindparams(*binds)


# every email and every page reads a game's events: the query is built once (built per call,
# with its ORM entity, it cost more than running it); `upto` past the end means "all"
_AFTER = (select(EVENTS.c.seq, EVENTS.c.type, EVENTS.c.data, EVENTS.c.seat, EVENTS.c.source,
                 EVENTS.c.created_at)
          .where(EVENTS.c.game_id == bindparam("game_id"), EVENTS.c.seq > bindparam("after"),
                 EVENTS.c.seq <= bindparam("upto"))
          .order_by(EVENTS.c.seq))
_END = 2**31 - 1


def load(session: Session, game: GameRow, after: int = 0,
         upto: int | None = None) -> list[Recorded]:
    """The game's events after `after` up to `upto` (default: all), oldest first."""
    rows = session.execute(_AFTER, {"game_id": game.id, "after": after,
                                    "upto": _END if upto is None else upto})
    return [Recorded(seq, upcast(Event(type_, data), seq, game.rules_version), seat, source, at)
            for seq, type_, data, seat, source, at in rows]


def load_ranges(session: Session, ranges: Mapping[int, tuple[GameRow, int, int]]
                ) -> dict[int, list[Recorded]]:
    """Several games' events as `load` reads one game's, in one query: {game_id: (game row,
    after, upto)} to each game's events after `after` up to `upto`, oldest first (a batch of
    emails reads its news at once: service.play.mail.relay)."""
    if not ranges:
        return {}
    q = (select(EVENTS.c.game_id, *_AFTER.selected_columns)
         .where(or_(*(and_(EVENTS.c.game_id == game_id, EVENTS.c.seq > after,
                           EVENTS.c.seq <= upto)
                      for game_id, (_, after, upto) in ranges.items())))
         .order_by(EVENTS.c.game_id, EVENTS.c.seq))
    out: dict[int, list[Recorded]] = {game_id: [] for game_id in ranges}
    for game_id, seq, type_, data, seat, source, at in session.execute(q):
        version = ranges[game_id][0].rules_version
        out[game_id].append(Recorded(seq, upcast(Event(type_, data), seq, version), seat,
                                     source, at))
    return out


def load_many(session: Session,
              games: dict[int, tuple[GameRow, int]]) -> dict[int, list[tuple[int, Event]]]:
    """Many games' events in one query, for folding: {game_id: (game row, after)} to each
    game's (seq, event) after `after`, oldest first (a batch of the clock sweep folds them
    all at once). Only what a fold reads: the seat, source and time of each event would cost
    more to read than the fold itself."""
    by_after: dict[int, list[int]] = {}
    for game_id, (_, after) in games.items():
        by_after.setdefault(after, []).append(game_id)
    if not by_after:
        return {}
    params = {}
    for n, (after, ids) in enumerate(by_after.items()):
        params[f"ids_{n}"], params[f"after_{n}"] = ids, after
    out: dict[int, list[tuple[int, Event]]] = {}
    for game_id, seq, type_, data in session.execute(_after_each(len(by_after)), params):
        event = upcast(Event(type_, data), seq, games[game_id][0].rules_version)
        out.setdefault(game_id, []).append((seq, event))
    return out


@functools.lru_cache(maxsize=16)
def _after_each(groups: int):
    """The events of `groups` groups of games, each after its own seq (parameters `ids_<n>`
    and `after_<n>`): built once per number of groups, on the table's own columns (built per
    call on the model's, with the ORM's row handling, it cost a sweep's batch more than
    its rows' fetching)."""
    return (select(EVENTS.c.game_id, EVENTS.c.seq, EVENTS.c.type, EVENTS.c.data)
            .where(or_(*(and_(EVENTS.c.game_id.in_(bindparam(f"ids_{n}", expanding=True)),
                              EVENTS.c.seq > bindparam(f"after_{n}"))
                         for n in range(groups))))
            .order_by(EVENTS.c.game_id, EVENTS.c.seq))


def newest(session: Session | Connection, game: GameRow, *, before: int | None = None,
           limit: int = 50) -> list[Recorded]:
    """The game's last `limit` events before seq `before` (default: the very last ones),
    oldest first: one page of a long history, read without loading the whole log."""
    rows = session.execute(_NEWEST, {"game_id": game.id, "before": _END if before is None
                                     else before, "limit": limit}).all()
    return [Recorded(seq, upcast(Event(type_, data), seq, game.rules_version), seat, source, at)
            for seq, type_, data, seat, source, at in reversed(rows)]


# a page's history, built once like _AFTER (as ORM objects, built per call, it cost a cold
# game page more than twice as much); `before` past the end means "the newest"
_NEWEST = (select(*_AFTER.selected_columns)
           .where(EVENTS.c.game_id == bindparam("game_id"), EVENTS.c.seq < bindparam("before"))
           .order_by(EVENTS.c.seq.desc()).limit(bindparam("limit")))


def upcast(event: Event, seq: int, rules_version: int) -> Event:
    """Old events in today's shape. The first event of a game names the rules version it was
    started under; logs written before versions existed lack it."""
    if seq == 1 and "rules" not in event.data:
        return Event(event.type, {**event.data, "rules": rules_version})
    return event
