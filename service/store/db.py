"""The database handle: an unbound extension (Flask's `init_app` pattern) that also works
without Flask, for workers, the CLI, benchmarks and tests."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker


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
            event.listen(self.engine, "begin", _sqlite_begin_immediate)
        else:
            self.engine = create_engine(url, pool_pre_ping=True)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """One unit of work: commit on success, roll back on any exception."""
        with self.sessions() as session:
            with session.begin():
                yield session
            if self.committed is not None and session.info:
                self.committed(session.info)

    def session(self) -> Session:
        return self.sessions()

    def dispose(self) -> None:
        if self.engine is not None:
            self.engine.dispose()


def _sqlite_pragmas(dbapi_conn, _record):
    # Let pysqlite leave transactions to us (see _sqlite_begin_immediate), use WAL so readers
    # never block the writer, and enforce foreign keys as PostgreSQL does.
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()


def _sqlite_begin_immediate(conn):
    # BEGIN IMMEDIATE takes the write lock up front, so two writers queue instead of both
    # reading and one failing late with "database is locked" on upgrade to a write lock.
    conn.exec_driver_sql("BEGIN IMMEDIATE")
