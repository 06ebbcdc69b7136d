"""Which database errors are transient (service.store.transient): those that pass with time are
tried again; a constraint, a bad statement or a bug is not."""
from __future__ import annotations

import sqlite3

import psycopg
import pytest
from psycopg import errors as pg
from sqlalchemy import create_engine, text
from sqlalchemy.exc import (
    DBAPIError,
    IntegrityError,
    InterfaceError,
    OperationalError,
    ProgrammingError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeout

from service.store.transient import DatabaseUnavailable, is_transient


def wrapped(kind, orig, invalidated=False):
    return kind("SELECT 1", {}, orig, connection_invalidated=invalidated)


TRANSIENT = {
    "statement cancelled or timed out": wrapped(OperationalError, pg.QueryCanceled("cancel")),
    "lock_timeout": wrapped(OperationalError, pg.LockNotAvailable("lock timeout")),
    "deadlock": wrapped(OperationalError, pg.DeadlockDetected("deadlock detected")),
    "serialization failure": wrapped(OperationalError, pg.SerializationFailure("serialize")),
    "backend terminated": wrapped(OperationalError, pg.AdminShutdown("terminating connection")),
    "server starting": wrapped(OperationalError, pg.CannotConnectNow("starting up")),
    "connection failure (class 08)": wrapped(OperationalError, pg.ConnectionFailure("gone")),
    "old primary now read-only": wrapped(DBAPIError, pg.ReadOnlySqlTransaction("read-only")),
    "connection closed, no SQLSTATE": wrapped(
        OperationalError, psycopg.OperationalError("server closed the connection unexpectedly")),
    "closed connection used": wrapped(InterfaceError, psycopg.InterfaceError("closed")),
    "invalidated by SQLAlchemy": wrapped(DBAPIError, Exception("whatever"), invalidated=True),
    "sqlite busy": wrapped(OperationalError, sqlite3.OperationalError("database is locked")),
    "pool exhausted": PoolTimeout("QueuePool limit of size 5 overflow 10 reached"),
    "already classified": DatabaseUnavailable("inbound message 3 waits"),
}

NOT_TRANSIENT = {
    "unique violation": wrapped(IntegrityError, pg.UniqueViolation("duplicate key")),
    "undefined table": wrapped(ProgrammingError, pg.UndefinedTable("no relation")),
    "disk full": wrapped(OperationalError, pg.DiskFull("no space")),
    "sqlite missing table": wrapped(OperationalError, sqlite3.OperationalError("no such table")),
    "sqlite constraint": wrapped(IntegrityError, sqlite3.IntegrityError("UNIQUE failed")),
    "a bug": ZeroDivisionError("division by zero"),
    "a key error": KeyError("give"),
    "nothing": None,
}


@pytest.mark.parametrize("name", TRANSIENT)
def test_errors_that_pass_with_time_are_transient(name):
    assert is_transient(TRANSIENT[name])


@pytest.mark.parametrize("name", NOT_TRANSIENT)
def test_errors_of_the_work_itself_are_not(name):
    assert not is_transient(NOT_TRANSIENT[name])


def test_an_error_raised_from_a_transient_one_is_transient():
    try:
        try:
            raise TRANSIENT["deadlock"]
        except OperationalError as exc:
            raise RuntimeError("could not apply the move") from exc
    except RuntimeError as outer:
        assert is_transient(outer)


def test_sqlites_error_code_decides_when_it_has_one():
    busy = sqlite3.OperationalError("anything")
    busy.sqlite_errorcode = 5 | (2 << 8)         # SQLITE_BUSY_SNAPSHOT
    assert is_transient(wrapped(OperationalError, busy))
    other = sqlite3.OperationalError("database is locked, says the text")
    other.sqlite_errorcode = 1                   # SQLITE_ERROR
    assert not is_transient(wrapped(OperationalError, other))


def test_real_postgresql_timeouts_are_transient(pg_migrated):
    """What the server really raises for statement_timeout and lock_timeout."""
    engine = create_engine(pg_migrated)
    try:
        with engine.connect() as conn, pytest.raises(DBAPIError) as timed_out:
            conn.execute(text("SET statement_timeout = '20ms'"))
            conn.execute(text("SELECT pg_sleep(2)"))
        assert is_transient(timed_out.value)
        with engine.connect() as holder, engine.connect() as waiter:
            waiter.execute(text("SET lock_timeout = '20ms'"))
            holder.execute(text("LOCK TABLE games IN ACCESS EXCLUSIVE MODE"))
            with pytest.raises(DBAPIError) as not_granted:
                waiter.execute(text("SELECT count(*) FROM games"))
            assert is_transient(not_granted.value)
            holder.rollback()
        with engine.connect() as conn, pytest.raises(DBAPIError) as bad:
            conn.execute(text("SELECT * FROM no_such_table"))
        assert not is_transient(bad.value)
    finally:
        engine.dispose()
