"""`Database.reading()`: a unit of work that only reads. On SQLite (WAL) it neither waits for
a writer's lock nor holds one, and any write inside it is refused at once; the connection then
writes again for the next unit of work. On PostgreSQL it is an ordinary transaction."""
from __future__ import annotations

import threading
from datetime import datetime, timezone

import pytest
from sqlalchemy import func, insert, select, text
from sqlalchemy.exc import OperationalError

from service.store import Database
from service.store.migrate import upgrade
from service.store.models import Player


def players(session) -> int:
    return session.scalar(select(func.count()).select_from(Player))


def add_player(session, n: int) -> None:
    session.execute(insert(Player).values(email=f"p{n}@example.org", name=f"P{n}",
                                          created_at=datetime(2026, 1, 1, tzinfo=timezone.utc)))


def test_a_reader_sees_the_last_commit_while_a_writer_holds_its_lock(db):
    with db.transaction() as s:
        add_player(s, 1)
    writing, done = threading.Event(), threading.Event()

    def writer():
        with db.transaction() as s:
            add_player(s, 2)
            writing.set()
            done.wait(10)          # the write lock held (SQLite: BEGIN IMMEDIATE) meanwhile

    t = threading.Thread(target=writer)
    t.start()
    try:
        assert writing.wait(10)
        with db.reading() as s:    # would wait out busy_timeout (30 s) for the lock, not 0
            assert players(s) == 1
    finally:
        done.set()
        t.join()
    with db.reading() as s:
        assert players(s) == 2


def test_a_write_inside_a_read_is_refused_on_sqlite_and_the_next_unit_of_work_writes(tmp_path):
    url = f"sqlite:///{tmp_path / 'turnpost.db'}"
    upgrade(url)
    db = Database(url)
    with pytest.raises(OperationalError, match="readonly"):
        with db.reading() as s:
            add_player(s, 1)
    with db.transaction() as s:
        add_player(s, 2)
    with db.reading() as s:
        assert players(s) == 1
    db.dispose()


def test_postgresql_plans_our_statements_without_parallel_workers(db):
    """Every statement of ours reads a few rows by an index: starting parallel workers for one
    cost more than they saved (/me's games in progress took twice as long with them)."""
    if db.engine.dialect.name != "postgresql":
        pytest.skip("a PostgreSQL setting")
    with db.reading() as s:
        assert s.scalar(text("SHOW max_parallel_workers_per_gather")) == "0"
    with db.transaction() as s:
        assert s.scalar(text("SHOW max_parallel_workers_per_gather")) == "0"
