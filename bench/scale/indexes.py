"""The indexes the seed builds once its rows are in rather than keeping them up to date row
by row: every index and primary or unique key of the tables a game fills (seats, events,
snapshots, receipts, outbox), none of them the target of a foreign key. Their definitions are
read from the migrated schema itself (so what is built again is what `flask init-db` makes,
names included) and kept in the seed's own table, so a run that finds them dropped knows what
to build."""
from __future__ import annotations

import json
import time

TABLES = ("seats", "events", "snapshots", "submissions", "outbox")


def definitions(conn) -> list[list[str]]:
    """[name, table, the statement that drops it, the statement that builds it]."""
    out = []
    keys = conn.execute(
        "SELECT c.conname, c.conrelid::regclass::text, pg_get_constraintdef(c.oid) "
        "FROM pg_constraint c WHERE c.contype IN ('p', 'u') "
        "AND c.conrelid::regclass::text = ANY(%s) AND NOT EXISTS (SELECT 1 FROM pg_constraint f "
        "WHERE f.contype = 'f' AND f.conindid = c.conindid) ORDER BY 2, 1",
        (list(TABLES),)).fetchall()
    for name, table, definition in keys:
        out.append([name, table, f"ALTER TABLE {table} DROP CONSTRAINT IF EXISTS {name}",
                    f"ALTER TABLE {table} ADD CONSTRAINT {name} {definition}"])
    taken = {k[0] for k in keys}
    for name, table, definition in conn.execute(
            "SELECT indexname, tablename, indexdef FROM pg_indexes WHERE schemaname = 'public' "
            "AND tablename = ANY(%s) ORDER BY 2, 1", (list(TABLES),)).fetchall():
        if name not in taken:
            out.append([name, table, f"DROP INDEX IF EXISTS {name}", definition])
    return out


def dump(defs: list[list[str]]) -> str:
    return json.dumps(defs)


def load(text: str) -> list[list[str]]:
    return json.loads(text)


def drop(conn, defs: list[list[str]]) -> None:
    for _, _, dropping, _ in defs:
        conn.execute(dropping)


def missing(conn, defs: list[list[str]]) -> list[list[str]]:
    return [d for d in defs
            if conn.execute("SELECT to_regclass(%s)", (d[0],)).fetchone()[0] is None]


def build(conn, defs: list[list[str]], say=print) -> float:
    """Build those of `defs` that are not there (each committed as it is made); seconds."""
    t0 = time.perf_counter()
    # a big sort in memory, with the parallel workers PostgreSQL allows (this session only)
    conn.execute("SET maintenance_work_mem = '1GB'")
    for name, table, _, building in missing(conn, defs):
        t = time.perf_counter()
        conn.execute(building)
        conn.commit()
        say(f"scale seed: {table} {name} built in {time.perf_counter() - t:.1f} s")
    return time.perf_counter() - t0
