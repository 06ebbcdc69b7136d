"""The database handle: an unbound extension (Flask's `init_app` pattern) that also works
without Flask, for workers, the CLI, benchmarks and tests."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from sqlalchemy import Executable, create_engine, event
from sqlalchemy.engine import Connection, Engine, Result, Row
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker

from . import liveness


class Database:
    def __init__(self, url: str | None = None):
        self.engine: Engine | None = None
        self.sessions: sessionmaker | None = None
        # told a unit of work's session.info once it commits (Services sends its kicks)
        self.committed: Callable[[dict], None] | None = None
        if url:
            self.connect(url)

    def init_app(self, app) -> None:
        self.connect(app.config["TURNPOST_DATABASE_URL"])
        app.extensions["turnpost.db"] = self

    def connect(self, url: str) -> None:
        if url.startswith("sqlite"):
            self.engine = create_engine(url, connect_args={"timeout": 30})
            event.listen(self.engine, "connect", _sqlite_pragmas)
            event.listen(self.engine, "begin", _sqlite_begin)
            event.listen(self.engine, "commit", _sqlite_end)
            event.listen(self.engine, "rollback", _sqlite_end)
        else:
            # pinged at checkout only when it may be dead (liveness: no round trip before
            # each unit of work)
            self.engine = create_engine(url, connect_args=SERIAL_PLANS)
            liveness.watch(self.engine)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """One unit of work: commit on success, roll back on any exception."""
        with self.sessions() as session:
            with session.begin():
                yield session
            if self.committed is not None and session.info:
                self.committed(session.info)

    @contextmanager
    def autocommit(self) -> Iterator[Session]:
        """A unit of work whose statements each commit as they run: for one statement, or
        for statements that need no transaction together (a claim, then reads about what it
        claimed). On PostgreSQL no BEGIN or COMMIT goes to the server: two of the three round
        trips of a one-statement transaction (issue 53). A statement run before an error
        stays done, so use it only where that is what the caller wants. The work declared
        for after the commit (session.info) runs after the last statement, as with
        `transaction()`. On SQLite, whose transactions cost no round trip, it is
        `transaction()`."""
        if self.engine.dialect.name == "sqlite":
            with self.transaction() as session:
                yield session
            return
        with self.sessions() as session:
            with session.begin():
                session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
                yield session
            if self.committed is not None and session.info:
                self.committed(session.info)

    def line(self) -> StatementLine:
        """Statements each committed as it runs, as `autocommit()` runs them, one after
        another on one connection kept until the line is closed (contextlib.closing)."""
        return StatementLine(self)

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A unit of work that only reads (a page, a feed, the API's GETs). On SQLite it
        neither takes nor waits for the write lock (WAL lets a reader see the last commit
        while a move is written), and the connection refuses any write meanwhile
        (query_only), so a read path that starts writing fails its tests at once rather
        than upgrading its lock late, under load, with "database is locked". PostgreSQL
        readers never block writers anyway: there it is `transaction()`."""
        with self.sessions() as session:
            with session.begin():
                session.connection(execution_options={READING: True})
                yield session

    def session(self) -> Session:
        return self.sessions()

    def dispose(self) -> None:
        if self.engine is not None:
            self.engine.dispose()


class StatementLine:
    """Statements that each commit as they run, one after another, over one connection kept
    for the line's life rather than checked out of the pool and back for each (a session, a
    checkout, its events and a reset a statement): a batch's marks of emails sent, each its
    own commit, cost the marking thread 0.9 ms of CPU an email that way and 0.4 ms on one
    connection (issue 53). A database error drops the connection, and the next statement
    takes a fresh one from the pool, so a caller that tries again after a restart is not
    handed the broken one. On SQLite each statement is `autocommit()`'s own unit of work:
    a connection kept there would keep its write lock."""

    def __init__(self, db: Database):
        self._db = db
        self._conn: Connection | None = None

    def execute(self, statement: Executable, params: dict | None = None) -> list[Row]:
        """Run one statement and commit it; the rows it returned (none for a write without
        RETURNING)."""
        if self._db.engine.dialect.name == "sqlite":
            with self._db.autocommit() as session:
                return _rows(session.connection().execute(statement, params))
        if self._conn is None:
            self._conn = self._db.engine.connect().execution_options(
                isolation_level="AUTOCOMMIT")
        try:
            return _rows(self._conn.execute(statement, params))
        except DBAPIError:
            self.close()
            raise

    def close(self) -> None:
        """Return the connection to the pool (a broken one is discarded)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()


def _rows(result: Result) -> list[Row]:
    return result.all() if result.returns_rows else []


#: PostgreSQL plans each of our statements without parallel workers: every one reads a few rows
#: by an index, where starting workers costs more than it saves. /me's games in progress (a
#: player's 1,000 seats joined to their games) took 7.8-9.1 ms with two workers and 3.8-5.3 ms
#: without on bench-scale's million games (EXPLAIN ANALYZE, 2026-12-06, a shared 2-core machine)
SERIAL_PLANS = {"options": "-c max_parallel_workers_per_gather=0"}


def _sqlite_pragmas(dbapi_conn, _record):
    # Let pysqlite leave transactions to us (see _sqlite_begin_immediate), use WAL so readers
    # never block the writer, and enforce foreign keys as PostgreSQL does.
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()


#: the execution option that marks a connection `Database.reading` opened
READING = "turnpost_reading"


def _sqlite_begin(conn):
    if conn.get_execution_options().get(READING):
        conn.exec_driver_sql("PRAGMA query_only = ON")
        conn.exec_driver_sql("BEGIN")
        return
    # BEGIN IMMEDIATE takes the write lock up front, so two writers queue instead of both
    # reading and one failing late with "database is locked" on upgrade to a write lock.
    conn.exec_driver_sql("BEGIN IMMEDIATE")


def _sqlite_end(conn):
    # the pooled connection goes back able to write, for the next unit of work
    if conn.get_execution_options().get(READING):
        conn.exec_driver_sql("PRAGMA query_only = OFF")
