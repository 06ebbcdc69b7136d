"""A move's writes, together: its events, its receipt (the idempotency record), its emails'
outbox rows, and the columns of its game and seats that changed.

On PostgreSQL they are one statement: the INSERTs and UPDATEs as data-modifying WITH queries
around the outbox INSERT, which returns the new rows' ids: one round trip and one pass through
the driver rather than five, which would be the largest share of a move's time that is not
the rules; the database applies one statement all or nothing, as it would the five in their
transaction. Elsewhere (SQLite has no data-modifying WITH) they are the same
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

from . import eventstore, multirow
from .models import EventRow, OutboxRow, Submission
from .records import GAMES, SEATS, Tracked, seat_shape

EVENTS, SUBMISSIONS, OUTBOX = EventRow.__table__, Submission.__table__, OutboxRow.__table__
# the outbox rows come back in the order given (one statement for a move's emails)
INSERT_OUTBOX = OUTBOX.insert().returning(OUTBOX.c.id, sort_by_parameter_order=True)


def insert_outbox(session: Session, rows: list[dict[str, Any]]) -> list[int]:
    """Outbox rows inserted at once; their ids in the order given."""
    return list(session.scalars(INSERT_OUTBOX, rows)) if rows else []


def write(session: Session, tracked: Tracked | None, event_rows: list[dict[str, Any]],
          receipt: Mapping[str, Any] | None, outbox_rows: list[dict[str, Any]]) -> list[int]:
    """Write a move (events.rows, the receipt's values, notify.values of each email, and the
    changes of the one game `tracked` holds, if given: without it, as for the clock's
    per-game timeouts (play.timeouts), the caller writes the game). Returns the outbox rows'
    ids in the order given."""
    if (tracked is None or len(tracked.games) != 1
            or session.get_bind().dialect.name != "postgresql"):
        eventstore.insert(session, event_rows, receipt)
        ids = insert_outbox(session, outbox_rows)
        if tracked is not None:
            tracked.write()
        return ids
    (game_id,) = tracked.games
    changed_games, changed_seats = tracked.changes()
    game_values = changed_games[0][1] if changed_games else {}
    receipts = [dict(receipt)] if receipt is not None else []
    shape = (len(event_rows), tuple(receipts[0]) if receipts else (), len(outbox_rows),
             tuple(outbox_rows[0]) if outbox_rows else (), tuple(game_values),
             seat_shape(changed_seats))
    params = (multirow.numbered(event_rows, "e_") | multirow.numbered(receipts, "r_")
              | multirow.numbered(outbox_rows, "o_")
              | {f"g_{k}": v for k, v in game_values.items()}
              | {"game_id": game_id})
    for (_game, seat), values in changed_seats:
        params |= {f"s_{c}_{seat}": v for c, v in values.items()}
    try:
        # by Message-ID: PostgreSQL does not promise RETURNING in the order of VALUES
        made = dict(session.execute(_statement(shape), params).all())
    except IntegrityError as exc:
        table = getattr(getattr(exc.orig, "diag", None), "table_name", None)
        if table not in (EVENTS.name, SUBMISSIONS.name):
            raise                   # not a race: a bug, told as what it is
        raise eventstore.conflict(event_rows) from None
    tracked.expire(changed_games, changed_seats)
    return [made[row["message_id"]] for row in outbox_rows]


@functools.lru_cache(maxsize=128)
def _statement(shape):
    """The one statement of a move of this shape (events, receipt columns, emails and their
    columns, game columns, seats' columns: records.seat_shape), built once, as text
    (store.multirow says why). Parameters: e_<column>_<n>, r_<column>_0, o_<column>_<n>,
    g_<column>, s_<column>_<seat> and game_id; each typed as its column. Returns the emails'
    (message_id, id)."""
    n_events, receipt_columns, n_outbox, outbox_columns, game_columns, seats = shape
    inserts = [multirow.insert_sql(EVENTS, list(EVENTS.c), n_events, "e_")]
    if receipt_columns:
        inserts.append(multirow.insert_sql(SUBMISSIONS, [SUBMISSIONS.c[c] for c in receipt_columns],
                                           1, "r_"))
    parts = [sql for sql, _ in inserts]
    binds = [b for _, bs in inserts for b in bs]
    if game_columns or seats:
        binds.append(bindparam("game_id", type_=GAMES.c.id.type))
    if game_columns:
        binds += [bindparam(f"g_{c}", type_=GAMES.c[c].type) for c in game_columns]
        parts.append(f"UPDATE {GAMES.name} SET "
                     + ", ".join(f"{c} = :g_{c}" for c in game_columns) + " WHERE id = :game_id")
    if seats:
        setting = []
        for c, which in seats:
            binds += [bindparam(f"s_{c}_{s}", type_=SEATS.c[c].type) for s in which]
            whens = " ".join(f"WHEN {int(s)} THEN :s_{c}_{s}" for s in which)
            setting.append(f"{c} = CASE seat {whens} ELSE {c} END")
        every = sorted({int(s) for _c, which in seats for s in which})
        parts.append(f"UPDATE {SEATS.name} SET {', '.join(setting)} WHERE game_id = :game_id "
                     f"AND seat IN ({', '.join(map(str, every))})")
    if n_outbox:
        main, more = multirow.insert_sql(OUTBOX, [OUTBOX.c[c] for c in outbox_columns], n_outbox,
                                         "o_")
        main, binds = main + " RETURNING message_id, id", binds + more
    else:
        main = "SELECT NULL, NULL WHERE false"
    with_ = ", ".join(f"w{n} AS ({part})" for n, part in enumerate(parts))
    return text(f"WITH {with_} {main}").bindparams(*binds)
