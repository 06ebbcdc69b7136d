"""A pooled PostgreSQL connection is pinged at checkout only when it may be dead
(service.store.liveness): one used a moment ago goes straight to work, one the server ended is
replaced without the unit of work seeing an error. PostgreSQL only: SQLite has no server to
end a connection. Budget: under 3 s."""
from __future__ import annotations

import time

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from service.store import Database, liveness


@pytest.fixture
def db(pg_migrated):
    database = Database(pg_migrated)
    yield database
    database.dispose()


@pytest.fixture
def pings(db, monkeypatch):
    """The pings the pool sends, counted."""
    sent = []
    real = db.engine.dialect.do_ping

    def ping(dbapi_conn):
        sent.append(dbapi_conn)
        return real(dbapi_conn)

    monkeypatch.setattr(db.engine.dialect, "do_ping", ping)
    return sent


def backend(db) -> int:
    with db.transaction() as session:
        return session.scalar(text("SELECT pg_backend_pid()"))


def end_backends(url: str, *pids: int) -> None:
    admin = create_engine(url, poolclass=NullPool)
    try:
        with admin.begin() as conn:
            for pid in pids:
                conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    finally:
        admin.dispose()


def wait_until_told(db, seconds: float = 5.0) -> None:
    """Until every pooled connection's socket has the server's farewell to read."""
    deadline = time.monotonic() + seconds
    records = list(db.engine.pool._pool.queue)
    while time.monotonic() < deadline:
        if all(liveness.has_news(r.dbapi_connection) for r in records):
            return
        time.sleep(0.01)
    raise AssertionError("the ended connections' sockets never became readable")


def test_a_connection_used_a_moment_ago_goes_to_work_without_a_ping(db, pings):
    first = backend(db)
    for _ in range(5):
        assert backend(db) == first         # the same pooled connection each time
    assert pings == []


def test_a_live_idle_connection_has_nothing_to_read(db):
    backend(db)
    (record,) = db.engine.pool._pool.queue
    assert not liveness.has_news(record.dbapi_connection)


def test_a_connection_the_server_ended_is_replaced_without_an_error(db, pings, pg_migrated):
    ended = backend(db)
    end_backends(pg_migrated, ended)
    wait_until_told(db)
    assert backend(db) != ended             # no OperationalError: a new connection did it
    assert len(pings) == 1                  # the readable socket was asked, and failed


def test_after_a_restart_every_pooled_connection_is_replaced(db, pg_migrated):
    # two connections in the pool, both ended at once, as a restart ends them
    with db.transaction() as a, db.transaction() as b:
        ended = {a.scalar(text("SELECT pg_backend_pid()")),
                 b.scalar(text("SELECT pg_backend_pid()"))}
    assert len(ended) == 2
    end_backends(pg_migrated, *ended)
    wait_until_told(db)
    with db.transaction() as a, db.transaction() as b:
        now = {a.scalar(text("SELECT pg_backend_pid()")),
               b.scalar(text("SELECT pg_backend_pid()"))}
    assert not now & ended


def test_a_connection_idle_past_the_limit_is_pinged(db, pings, monkeypatch):
    backend(db)
    monkeypatch.setattr(liveness, "PING_AFTER_IDLE", 0.0)
    backend(db)
    assert len(pings) == 1
