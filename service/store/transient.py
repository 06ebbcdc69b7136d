"""Which database errors are worth trying again: the ones that say nothing about the work
itself. A connection lost (a restart, a failover, a pooler restart), a statement cancelled or
timed out, a lock not granted in time, a deadlock or serialization failure, a standby not yet
promoted, SQLite's "database is locked". The same work run again later succeeds; anything else
(a constraint, a bad statement, a bug) fails the same way every time.

Classified by the SQLAlchemy exception and the driver's SQLSTATE (psycopg's `sqlstate`,
psycopg2's `pgcode`), or SQLite's error code."""
from __future__ import annotations

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

# PostgreSQL's SQLSTATEs (Appendix A of its manual) that pass with time
TRANSIENT_SQLSTATES = frozenset({
    "40001",    # serialization_failure
    "40P01",    # deadlock_detected
    "40003",    # statement_completion_unknown
    "55P03",    # lock_not_available (lock_timeout, NOWAIT)
    "57014",    # query_canceled (statement_timeout, pg_cancel_backend)
    "57P01",    # admin_shutdown (pg_terminate_backend, a fast shutdown)
    "57P02",    # crash_shutdown
    "57P03",    # cannot_connect_now (starting up, or in recovery)
    "57P05",    # idle_session_timeout
    "25P03",    # idle_in_transaction_session_timeout
    "25006",    # read_only_sql_transaction (a failover's old primary, now a standby)
    "53300",    # too_many_connections (a pooler restarting)
})
# class 08: connection exceptions of every kind
TRANSIENT_SQLSTATE_CLASSES = frozenset({"08"})
# SQLite's primary result codes SQLITE_BUSY and SQLITE_LOCKED ("database is locked")
_SQLITE_BUSY_CODES = frozenset({5, 6})
_SQLITE_BUSY_WORDS = ("database is locked", "database table is locked", "database is busy")


class DatabaseUnavailable(Exception):
    """Work stopped by a transient database error; it is to be run again later, not given up.
    The original error is its __cause__."""


def is_transient(exc: BaseException | None) -> bool:
    """True when `exc` (or what it was raised from) is a database error that passes with time."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, (DatabaseUnavailable, PoolTimeout)):
            return True
        if isinstance(exc, DBAPIError):
            return _transient_dbapi(exc)
        exc, seen = exc.__cause__, seen + 1
    return False


def _transient_dbapi(exc: DBAPIError) -> bool:
    if exc.connection_invalidated:           # SQLAlchemy saw the connection go
        return True
    orig = exc.orig
    if _is_sqlite(orig):
        return _sqlite_busy(orig)
    state = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
    if state:
        return state in TRANSIENT_SQLSTATES or state[:2] in TRANSIENT_SQLSTATE_CLASSES
    # a driver error with no SQLSTATE at all: the server never answered (connection closed,
    # "server closed the connection unexpectedly", "consuming input failed")
    return isinstance(exc, (OperationalError, InterfaceError))


def _is_sqlite(orig: BaseException | None) -> bool:
    return orig is not None and type(orig).__module__.startswith("sqlite3")


def _sqlite_busy(orig: BaseException) -> bool:
    code = getattr(orig, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in _SQLITE_BUSY_CODES     # extended codes keep the primary low byte
    return any(words in str(orig).lower() for words in _SQLITE_BUSY_WORDS)


def why(exc: BaseException) -> str:
    """One line about the error, for a log line or an inbound row's outcome."""
    first = (str(exc).strip().splitlines() or [""])[0][:200]
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__
