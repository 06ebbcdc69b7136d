"""A move's writes, together: its events, its receipt (the idempotency record), its emails'
outbox rows, and the columns of its game and seats that changed.

On PostgreSQL they are one statement: the INSERTs and UPDATEs as data-modifying WITH queries
around the outbox INSERT, which returns the new rows' ids. A move used to send them as five
statements, five round trips and five passes through the driver, the largest share of its
time that was not the rules; the database applies one statement all or nothing, as it did the
five in their transaction. Elsewhere (SQLite has no data-modifying WITH) they are the same
statements one after the other.

Either way, another writer that took these sequence numbers (or the receipt's key) first makes
it raise events.Conflict, and nothing is written.
"""
from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from sqlalchemy import bindparam, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from . import events as event_store
from .models import EventRow, OutboxRow, Submission
from .records import GAMES, SEATS, Tracked

EVENTS, SUBMISSIONS, OUTBOX = EventRow.__table__, Submission.__table__, OutboxRow.__table__
# the outbox rows come back in the order given (one statement for a move's emails)
INSERT_OUTBOX = OUTBOX.insert().returning(OUTBOX.c.id, sort_by_parameter_order=True)


def insert_outbox(session: Session, rows: list[dict[str, Any]]) -> list[int]:
    """Outbox rows inserted at once; their ids in the order given."""
    return list(session.scalars(INSERT_OUTBOX, rows)) if rows else []


def write(session: Session, tracked: Tracked, event_rows: list[dict[str, Any]],
          receipt: Mapping[str, Any] | None, outbox_rows: list[dict[str, Any]]) -> list[int]:
    """Write a move (events.rows, the receipt's values, notify.values of each email, the
    tracked game's changes). Returns the outbox rows' ids in the order given."""
    if session.get_bind().dialect.name != "postgresql" or len(tracked.games) != 1:
        event_store.insert(session, event_rows, receipt)
        ids = insert_outbox(session, outbox_rows)
        tracked.write()
        return ids
    changed_games, changed_seats = tracked.changes()
    (game_id,), game_values = changed_games[0] if changed_games else ((None,), {})
    shape = (len(event_rows), tuple(receipt or ()), len(outbox_rows),
             tuple(outbox_rows[0]) if outbox_rows else (), tuple(game_values),
             _seat_shape(changed_seats))
    params = event_store.numbered(event_rows, "e_") | event_store.numbered(outbox_rows, "o_")
    if receipt is not None:
        params |= {f"r_{k}": v for k, v in receipt.items()}
    params |= {f"g_{k}": v for k, v in game_values.items()} | {"g_id": game_id}
    for (_game, seat), values in changed_seats:
        params |= {f"s_{c}_{seat}": v for c, v in values.items()}
    params["s_game_id"] = game_id
    try:
        # by Message-ID: PostgreSQL does not promise RETURNING in the order of VALUES
        made = dict(session.execute(_statement(shape), params).all())
    except IntegrityError as exc:
        table = getattr(getattr(exc.orig, "diag", None), "table_name", None)
        if table not in (EVENTS.name, SUBMISSIONS.name):
            raise                   # not a race: a bug, told as what it is
        raise event_store.conflict(event_rows) from None
    tracked.expire(changed_games, changed_seats)
    return [made[row["message_id"]] for row in outbox_rows]


def _seat_shape(changed_seats) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Which seats set which column: (column, seats) for each changed column."""
    columns = sorted({c for _ident, values in changed_seats for c in values})
    return tuple((c, tuple(seat for (_g, seat), values in changed_seats if c in values))
                 for c in columns)


@functools.lru_cache(maxsize=128)
def _statement(shape):
    """The one statement of a move of this shape (events, receipt or not, emails, game
    columns, seats' columns), built once. Written as text: SQLAlchemy never caches the
    compiled form of an INSERT with several VALUES rows, and compiling it cost more than the
    round trips saved. Parameters: e_<column>_<n>, r_<column>, o_<column>_<n>, g_<column>,
    g_id, s_<column>_<seat>, s_game_id; each bound with its column's type. Returns the
    emails' (message_id, id)."""
    n_events, receipt_columns, n_outbox, outbox_columns, game_columns, seat_shape = shape
    parts, binds = [], []

    def values(table, columns, prefix, n):
        binds.extend(bindparam(f"{prefix}{c.name}_{i}", type_=c.type)
                     for i in range(n) for c in columns)
        rows = ", ".join("(" + ", ".join(f":{prefix}{c.name}_{i}" for c in columns) + ")"
                         for i in range(n))
        return f"INSERT INTO {table.name} ({', '.join(c.name for c in columns)}) VALUES {rows}"

    parts.append(values(EVENTS, list(EVENTS.c), "e_", n_events))
    if receipt_columns:
        columns = [SUBMISSIONS.c[c] for c in receipt_columns]
        binds.extend(bindparam(f"r_{c.name}", type_=c.type) for c in columns)
        parts.append(f"INSERT INTO {SUBMISSIONS.name} ({', '.join(c.name for c in columns)}) "
                     f"VALUES ({', '.join(f':r_{c.name}' for c in columns)})")
    if game_columns:
        binds.extend(bindparam(f"g_{c}", type_=GAMES.c[c].type) for c in game_columns)
        binds.append(bindparam("g_id", type_=GAMES.c.id.type))
        parts.append(f"UPDATE {GAMES.name} SET "
                     + ", ".join(f"{c} = :g_{c}" for c in game_columns) + " WHERE id = :g_id")
    if seat_shape:
        setting = []
        for c, seats in seat_shape:
            binds.extend(bindparam(f"s_{c}_{s}", type_=SEATS.c[c].type) for s in seats)
            whens = " ".join(f"WHEN {int(s)} THEN :s_{c}_{s}" for s in seats)
            setting.append(f"{c} = CASE seat {whens} ELSE {c} END")
        every = sorted({int(s) for _c, seats in seat_shape for s in seats})
        binds.append(bindparam("s_game_id", type_=SEATS.c.game_id.type))
        parts.append(f"UPDATE {SEATS.name} SET {', '.join(setting)} WHERE game_id = :s_game_id "
                     f"AND seat IN ({', '.join(map(str, every))})")
    main = (values(OUTBOX, [OUTBOX.c[c] for c in outbox_columns], "o_", n_outbox)
            + " RETURNING message_id, id" if n_outbox else "SELECT NULL, NULL WHERE false")
    with_ = ", ".join(f"w{n} AS ({part})" for n, part in enumerate(parts))
    return text(f"WITH {with_} {main}").bindparams(*binds)
