"""The map of a player's data (personaldata.MAP) run against the tables: the rows that name a
player, listed for an export, moved to a new address, or deleted and made anonymous for an
erasure. Each runs in its caller's transaction; what is particular to a table (the players row,
games in progress, the ladders) is the use cases' own (readdress, erasure, community)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import Table, delete, false, or_, select, tuple_, update
from sqlalchemy.orm import Session

from service.store import search
from service.store.models import AccountChange, Base, Player, Seat

from .personaldata import (
    ADDRESS,
    ERASED,
    ID,
    MAP,
    MENTIONS,
    RATER,
    SEAT,
    Anonymous,
    Delete,
    Follow,
    Forget,
    Holding,
    Rows,
)


@dataclass(frozen=True)
class Who:
    """A player as the map finds them: their id, every address that was theirs (lower case),
    and the seats they hold, as (game, seat)."""
    player_id: int
    addresses: tuple[str, ...]
    seats: tuple[tuple[int, int], ...]


def who(session: Session, player_id: int) -> Who:
    """The player as the map finds them: their address now, and every address they moved
    away from (a confirmed change of address: those were theirs too)."""
    current = session.scalar(select(Player.email).where(Player.id == player_id))
    former = session.scalars(select(AccountChange.old_email).where(
        AccountChange.player_id == player_id, AccountChange.kind == "readdress",
        AccountChange.used_at.is_not(None)))
    seats = session.execute(select(Seat.game_id, Seat.seat)
                            .where(Seat.player_id == player_id)
                            .order_by(Seat.game_id)).all()
    addresses = [a.lower() for a in [current, *former] if a]
    return Who(player_id, tuple(dict.fromkeys(addresses)), tuple((g, s) for g, s in seats))


def table_of(holding: Holding) -> Table:
    return Base.metadata.tables[holding.table]


def naming(session: Session, holding: Holding, person: Who, by: tuple[str, ...] = ()):
    """The condition on the table's rows that name the person (by the columns `by`, or all)."""
    table = table_of(holding)
    dialect = session.get_bind().dialect.name
    found = []
    for name, kind in holding.names.items():
        if by and name not in by:
            continue
        column = table.c[name]
        if kind == ID:
            found.append(column == person.player_id)
        elif kind == RATER:
            found.append(column == f"player:{person.player_id}")
        elif kind == ADDRESS and person.addresses:
            found.append(column.in_(person.addresses))
        elif kind == SEAT and person.seats:
            found.append(tuple_(table.c.game_id, column).in_(person.seats))
        elif kind == MENTIONS:
            found += [search.mentions(column, a, dialect) for a in person.addresses]
    return or_(*found) if found else false()


# -- export ---------------------------------------------------------------------------------

def records(session: Session, person: Who) -> dict[str, list[dict[str, Any]]]:
    """Every table the map exports as rows: its rows naming the person, JSON-safe."""
    out = {}
    for holding in MAP:
        if not isinstance(holding.export, Rows):
            continue
        table = table_of(holding)
        columns = [table.c[c] for c in holding.export.columns] if holding.export.columns \
            else list(table.c)
        rows = session.execute(select(*columns)
                               .where(naming(session, holding, person, holding.export.by))
                               .order_by(*table.primary_key.columns)).mappings()
        out[holding.table] = [{k: plain(v) for k, v in row.items()} for row in rows]
    return out


def plain(value: Any) -> Any:
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, bytes):
        return None
    return value


# -- change of address ------------------------------------------------------------------------

def readdress(session: Session, old: str, new: str) -> dict[str, int]:
    """Every address column the map holds: the old address followed to the new one, or its
    rows forgotten, as each table's entry says. Returns the rows changed per table."""
    changed = {}
    for holding in MAP:
        action = holding.readdress
        if not isinstance(action, (Follow, Forget)):
            continue
        table = table_of(holding)
        for name, kind in holding.names.items():
            if kind != ADDRESS:
                continue
            column = table.c[name]
            if isinstance(action, Forget):
                done = session.execute(delete(table).where(column == old))
            else:
                where = [column == old] + ([action.when(table)] if action.when else [])
                done = session.execute(update(table).where(*where).values({name: new}))
            changed[holding.table] = changed.get(holding.table, 0) + done.rowcount
    return changed


# -- erasure --------------------------------------------------------------------------------

def erase(session: Session, person: Who, anonymous_address: str) -> dict[str, int]:
    """Every table but those a step of the erasure handles: the rows naming the person deleted
    or made anonymous, then the address scrubbed from the free text of every row kept.
    Returns the rows touched per table."""
    touched: dict[str, int] = {}
    for holding in MAP:
        table = table_of(holding)
        action = holding.erase
        if isinstance(action, Delete):
            done = session.execute(delete(table).where(
                naming(session, holding, person, action.by)))
            touched[holding.table] = done.rowcount
        elif isinstance(action, Anonymous):
            for name, kind in holding.names.items():
                if kind == ADDRESS and person.addresses:
                    done = session.execute(update(table).where(
                        table.c[name].in_(person.addresses)).values({name: anonymous_address}))
                    touched[holding.table] = touched.get(holding.table, 0) + done.rowcount
        for name in holding.free_text:
            n = scrub(session, table, name, person.addresses)
            if n:
                touched[holding.table] = touched.get(holding.table, 0) + n
    return touched


def scrub(session: Session, table: Table, column_name: str, addresses: tuple[str, ...]) -> int:
    """Replace each address wherever it is written in the column (text or JSON)."""
    if not addresses:
        return 0
    dialect = session.get_bind().dialect.name
    column = table.c[column_name]
    keys = list(table.primary_key.columns)
    rows = session.execute(select(*keys, column).where(
        or_(*[search.mentions(column, a, dialect) for a in addresses]))).all()
    pattern = re.compile("|".join(re.escape(a) for a in addresses), re.IGNORECASE)
    for row in rows:
        *key, value = row
        session.execute(update(table).where(*[k == v for k, v in zip(keys, key)])
                        .values({column_name: _replaced(value, pattern)}))
    return len(rows)


def _replaced(value: Any, pattern: re.Pattern) -> Any:
    if isinstance(value, str):
        return pattern.sub(ERASED, value)
    if isinstance(value, dict):
        return {_replaced(k, pattern): _replaced(v, pattern) for k, v in value.items()}
    if isinstance(value, list):
        return [_replaced(v, pattern) for v in value]
    return value

