"""Several rows in one INSERT, for the hottest writes (a move's events, store.movewrites).

Written as SQL text with typed parameters rather than `insert().values([...])`: SQLAlchemy
never caches the compiled form of an INSERT with several VALUES rows (its cache key is None),
and compiling it again on every move is costly. Callers build each shape once
(lru_cache). An executemany is no substitute: psycopg runs it as a pipeline, whose opening and
closing cost more round trips than the rows themselves."""
from __future__ import annotations

from typing import Any

from sqlalchemy import Column, Table, bindparam
from sqlalchemy.sql.elements import BindParameter


def insert_sql(table: Table, columns: list[Column], n: int,
               prefix: str = "") -> tuple[str, list[BindParameter]]:
    """`INSERT INTO <table> (<columns>) VALUES (...), ...` for `n` rows, and its parameters
    `<prefix><column>_<row>`, each typed as its column (JSON, UTC time)."""
    binds = [bindparam(f"{prefix}{c.name}_{i}", type_=c.type) for i in range(n) for c in columns]
    rows = ", ".join("(" + ", ".join(f":{prefix}{c.name}_{i}" for c in columns) + ")"
                     for i in range(n))
    return (f"INSERT INTO {table.name} ({', '.join(c.name for c in columns)}) VALUES {rows}",
            binds)


def numbered(many: list[dict[str, Any]], prefix: str = "") -> dict[str, Any]:
    """Rows as the parameters of an `insert_sql` statement: `<prefix><column>_<row>`."""
    return {f"{prefix}{k}_{n}": v for n, row in enumerate(many) for k, v in row.items()}
