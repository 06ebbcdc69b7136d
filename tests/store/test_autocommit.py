"""`Database.autocommit()`: a unit of work whose statements each commit as they run. On
PostgreSQL no BEGIN or COMMIT goes to the server (each statement is a transaction of its own),
and the pooled connection goes back to ordinary transactions for the next unit of work; on
SQLite it is `transaction()`. Either way the work declared for after the commit runs once the
unit is over. `Database.line()` runs such statements one after another on one connection
kept for them. Budget: under 2 s."""
from __future__ import annotations

from contextlib import closing
from datetime import datetime, timezone

import pytest
from sqlalchemy import event, func, insert, select, text
from sqlalchemy.exc import DBAPIError

from service.store.models import Player
from tests.store.test_liveness import end_backends


def add_player(session, n: int) -> None:
    session.execute(insert(Player).values(email=f"p{n}@example.org", name=f"P{n}",
                                          created_at=datetime(2026, 1, 1, tzinfo=timezone.utc)))


def players(db) -> int:
    with db.transaction() as s:
        return s.scalar(select(func.count()).select_from(Player))


def test_each_statement_is_a_transaction_of_its_own_on_postgresql(db):
    if db.engine.dialect.name != "postgresql":
        pytest.skip("SQLite: autocommit() is transaction()")
    with db.autocommit() as s:
        s.execute(text("SELECT pg_sleep(0.01)"))
        # no BEGIN was sent: this statement's transaction started with it
        started, now = s.execute(text("SELECT transaction_timestamp(), "
                                      "statement_timestamp()")).one()
    assert started == now
    with db.transaction() as s:
        s.execute(text("SELECT pg_sleep(0.01)"))
        started, now = s.execute(text("SELECT transaction_timestamp(), "
                                      "statement_timestamp()")).one()
    assert started < now                    # the next unit of work is one transaction again


def test_a_statement_before_an_error_stays_done_on_postgresql(db):
    if db.engine.dialect.name != "postgresql":
        pytest.skip("SQLite: autocommit() is transaction(), rolled back as a whole")
    with pytest.raises(RuntimeError), db.autocommit() as s:
        add_player(s, 1)
        raise RuntimeError("after the write")
    assert players(db) == 1
    # the connection went back transactional: this write is rolled back with its unit
    with pytest.raises(RuntimeError), db.transaction() as s:
        add_player(s, 2)
        raise RuntimeError("after the write")
    assert players(db) == 1


def test_the_work_declared_for_after_the_commit_runs_once_it_is_over(db):
    told = []
    db.committed = lambda info: told.append(dict(info))
    with db.autocommit() as s:
        add_player(s, 1)
        s.info["kick"] = ["deliver"]
        assert told == []
    assert told == [{"kick": ["deliver"]}]
    assert players(db) == 1


# -- Database.line(): such statements one after another on one kept connection ---------------

def test_a_line_commits_each_statement_as_it_runs_on_one_connection(db):
    checkouts = []
    event.listen(db.engine, "checkout", lambda *_: checkouts.append(1))
    with closing(db.line()) as line:
        for n in range(3):
            assert line.execute(insert(Player).values(
                email=f"p{n}@example.org", name=f"P{n}",
                created_at=datetime(2026, 1, 1, tzinfo=timezone.utc))) == []
            assert players(db) == n + 1         # seen from another unit of work at once
        rows = line.execute(select(Player.name).order_by(Player.name))
    assert [r.name for r in rows] == ["P0", "P1", "P2"]
    if db.engine.dialect.name == "postgresql":
        # one checkout for the line's statements, one for each count (on SQLite each
        # statement is a unit of work of its own: a kept connection would keep its lock)
        assert len(checkouts) == 1 + 3


def test_a_line_whose_connection_the_server_ended_goes_on_with_a_fresh_one(db):
    if db.engine.dialect.name != "postgresql":
        pytest.skip("SQLite: no server to end a connection")
    with closing(db.line()) as line:
        (first,) = line.execute(text("SELECT pg_backend_pid()"))
        end_backends(db.engine.url.render_as_string(hide_password=False), first[0])
        with pytest.raises(DBAPIError):
            line.execute(text("SELECT pg_backend_pid()"))
        (second,) = line.execute(text("SELECT pg_backend_pid()"))   # the caller's retry
    assert second[0] != first[0]
