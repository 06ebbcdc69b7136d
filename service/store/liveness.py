"""Whether a pooled PostgreSQL connection is still alive when it is handed out, told without a
round trip where that can be told.

SQLAlchemy's `pool_pre_ping` asks the server at every checkout: a round trip before each unit
of work, which was one in five of a reply's round trips in the workers (issue 53: a reply and
its two emails were six units of work). A connection the server has ended is known here
without asking: a restart, `pg_terminate_backend`, an idle timeout or a crash each leave the
idle connection's socket readable (the server's farewell, or the end of the stream), while a
live idle connection has nothing to read (no LISTEN is used). So a connection is pinged only
when its socket has something to say, or when it has sat idle for PING_AFTER_IDLE (a path
that drops a connection without a word, as some firewalls do, is caught within that long).
A ping that fails invalidates the whole pool, as `pool_pre_ping` does: after a restart every
connection of the pool is stale."""
from __future__ import annotations

import select
import time

from sqlalchemy import event, exc
from sqlalchemy.engine import Engine

#: seconds a connection may sit in the pool before it is pinged however quiet its socket
PING_AFTER_IDLE = 30.0
_IDLE_SINCE = "turnpost_idle_since"


def watch(engine: Engine) -> None:
    """Ping the engine's pooled connections at checkout only when they may be dead."""
    dialect = engine.dialect

    @event.listens_for(engine, "checkin")
    def checked_in(_dbapi_conn, record) -> None:
        record.info[_IDLE_SINCE] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def checked_out(dbapi_conn, record, _proxy) -> None:
        idle_since = record.info.pop(_IDLE_SINCE, None)
        if idle_since is None:
            return                      # a connection just made: nothing to ask yet
        if time.monotonic() - idle_since < PING_AFTER_IDLE and not has_news(dbapi_conn):
            return
        try:
            dialect.do_ping(dbapi_conn)
        except dialect.loaded_dbapi.Error as err:
            if dialect.is_disconnect(err, dbapi_conn, None):
                # the pool takes a new connection, and every other as old is stale
                raise exc.InvalidatePoolError() from err
            raise


def has_news(dbapi_conn) -> bool:
    """Whether an idle connection's socket has anything to read (the server ended it, or
    said something before doing so); a connection with no socket counts as having news."""
    try:
        fd = dbapi_conn.fileno()
    except Exception:   # noqa: BLE001 - closed or broken: let the ping tell
        return True
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLPRI)
    return bool(poller.poll(0))
