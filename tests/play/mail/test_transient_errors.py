"""A reply stopped by a transient database error (a restart, a failover, a cancelled or timed
out statement, a lock not granted, a deadlock) is tried again and applied once, never parked
as `failed`; `failed` is for a bug, and `flask inbound retry` runs those again."""
from __future__ import annotations

import sqlite3
import threading
import time
from datetime import timedelta

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from service import play
from service.play.clock import ManualClock
from service.play.mail import replies, retry
from service.store.models import InboundMessage
from tests.conftest import T0
from tests.play.mail.test_replies import (
    ADDRS,
    deliver,
    events,
    inbound_status,
    mover,
    reply_to,
    start,
)
from tests.web.helpers import latest_to, mails, move_links


def sqlite_locked() -> OperationalError:
    """What SQLAlchemy raises when SQLite's busy timeout runs out."""
    return OperationalError("UPDATE games SET seq=?", {}, sqlite3.OperationalError(
        "database is locked"))


def row_of(app, row_id) -> InboundMessage:
    with app.extensions["turnpost"].db.transaction() as s:
        return s.get(InboundMessage, row_id)


def due_now(app) -> list[int]:
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        return replies.waiting(s, svc.clock.now())


def test_a_reply_stopped_by_a_locked_database_waits_and_is_applied_once(app_factory,
                                                                        monkeypatch):
    """The inline (embedded, SQLite) path: no Celery to retry, the sweep takes it after its
    backoff."""
    clock = ManualClock(T0)
    app = app_factory(TURNPOST_CLOCK=clock)
    client = app.test_client()
    start(client)
    addr, ours = mover(app)
    real_decide = replies._decide
    monkeypatch.setattr(replies, "_decide", lambda *a, **k: (_ for _ in ()).throw(sqlite_locked()))
    before = events(app)
    row_id, _ = deliver(app, reply_to(ours, move_links(ours)[0][0]))
    row = row_of(app, row_id)
    assert (row.status, row.attempts) == ("retrying", 1)
    assert "database is locked" in row.outcome
    assert row.next_attempt_at == T0 + retry.backoff(1)
    assert events(app) == before
    assert row_id not in due_now(app)            # it backs off

    monkeypatch.setattr(replies, "_decide", real_decide)
    clock.advance(retry.backoff(1))
    assert row_id in due_now(app)
    play.sweep(app.extensions["turnpost"])
    assert inbound_status(app, row_id)[0] == "applied"
    moved = events(app)
    assert moved > before
    other = next(a for a in ADDRS if a != addr)
    assert latest_to(app, other) is not None
    play.sweep(app.extensions["turnpost"])
    assert play.process_inbound(app.extensions["turnpost"], row_id).status == "already processed"
    assert events(app) == moved


def test_each_transient_failure_backs_off_further_and_never_gives_up(client, app, monkeypatch):
    start(client)
    _, ours = mover(app)
    monkeypatch.setattr(replies, "_decide", lambda *a, **k: (_ for _ in ()).throw(sqlite_locked()))
    row_id, _ = deliver(app, reply_to(ours, move_links(ours)[0][0]))
    svc = app.extensions["turnpost"]
    for attempt in range(2, 6):
        with pytest.raises(play.DatabaseUnavailable):
            play.process_inbound(svc, row_id)      # a worker's retry takes it at once
        row = row_of(app, row_id)
        assert (row.status, row.attempts) == ("retrying", attempt)
    assert retry.backoff(1) < retry.backoff(2) < retry.backoff(3)
    assert retry.backoff(1000) == retry.LONGEST_WAIT


def test_a_bug_is_failed_and_flask_inbound_retry_runs_it_again_once(client, app, monkeypatch):
    start(client)
    addr, ours = mover(app)
    real_decide = replies._decide
    monkeypatch.setattr(replies, "_decide", lambda *a, **k: 1 / 0)
    failed_id, _ = deliver(app, reply_to(ours, move_links(ours)[0][0]))
    assert inbound_status(app, failed_id)[0] == "failed"
    monkeypatch.setattr(replies, "_decide", real_decide)
    other = next(a for a in ADDRS if a != addr)
    runner = app.test_cli_runner()
    listed = runner.invoke(args=["inbound"])
    assert listed.exit_code == 0 and f"{failed_id}\t" in listed.output

    before = events(app)
    done = runner.invoke(args=["inbound", "retry", str(failed_id), "99999"])
    assert done.exit_code == 0, done.output
    lines = dict(line.split("\t", 1) for line in done.output.splitlines())
    assert lines[str(failed_id)].startswith("applied")
    assert "no such inbound message" in lines["99999"]
    assert events(app) > before
    assert latest_to(app, other) is not None

    after = events(app)
    again = runner.invoke(args=["inbound", "retry", str(failed_id)])
    assert "not failed (it is applied): left alone" in again.output
    assert events(app) == after
    assert f"{failed_id}\t" not in runner.invoke(args=["inbound"]).output


def test_flask_inbound_retry_wants_an_id(app):
    result = app.test_cli_runner().invoke(args=["inbound", "retry"])
    assert result.exit_code != 0 and "Missing argument" in result.output


# -- PostgreSQL: the game row locked while a reply waits, the waiting backend cancelled or
# terminated (what a statement_timeout, lock_timeout, failover or pooler restart does) -------

@pytest.fixture
def pg_app(app_factory, pg_migrated, db_url):
    if not db_url.startswith("postgresql"):
        pytest.skip("the lock and the backend to cancel are PostgreSQL's")
    clock = ManualClock(T0)
    app = app_factory(TURNPOST_CLOCK=clock)
    app.clock = clock
    return app


def blocked_by(engine, locker_pid: int, seconds: float = 30.0) -> int:
    deadline = time.monotonic() + seconds
    with engine.connect() as conn:
        while time.monotonic() < deadline:
            pid = conn.execute(text("SELECT pid FROM pg_stat_activity "
                                    "WHERE :locker = ANY(pg_blocking_pids(pid))"),
                               {"locker": locker_pid}).scalar()
            if pid:
                return pid
            time.sleep(0.05)
    raise AssertionError("the reply never waited on the locked game row")


@pytest.mark.parametrize("stop", ["pg_cancel_backend", "pg_terminate_backend"])
def test_a_reply_whose_backend_is_stopped_on_a_locked_game_is_applied_once(pg_app, stop):
    app = pg_app
    client = app.test_client()
    game_id = start(client)
    addr, ours = mover(app)
    before, mails_before = events(app), len(mails(app))
    engine = create_engine(app.config["TURNPOST_DATABASE_URL"])
    locker = engine.connect()
    try:
        locker.begin()
        locker.execute(text("SELECT id FROM games WHERE id = :g FOR UPDATE"), {"g": game_id})
        locker_pid = locker.execute(text("SELECT pg_backend_pid()")).scalar()
        done = {}
        sender = threading.Thread(target=lambda: done.update(
            row=deliver(app, reply_to(ours, move_links(ours)[0][0]))))
        sender.start()
        waiting_pid = blocked_by(engine, locker_pid)
        with engine.connect() as admin:
            assert admin.execute(text(f"SELECT {stop}(:pid)"), {"pid": waiting_pid}).scalar()
        sender.join(60)
        assert not sender.is_alive()
        row_id = done["row"][0]
        row = row_of(app, row_id)
        assert (row.status, row.attempts) == ("retrying", 1), row.outcome
        assert events(app) == before
    finally:
        locker.rollback()           # the lock is released
        locker.close()
        engine.dispose()

    svc = app.extensions["turnpost"]
    if stop == "pg_cancel_backend":
        # a worker's retry seconds later: the claim was handed back, nothing to wait for
        assert play.process_inbound(svc, row_id).status == "applied"
    else:
        assert row_id not in due_now(app)
        app.clock.advance(retry.backoff(1))
        play.sweep(svc)
        assert inbound_status(app, row_id)[0] == "applied"
    moved = events(app)
    assert moved > before and len(mails(app)) > mails_before
    # no double: every later pass finds it done
    play.sweep(svc)
    app.clock.advance(timedelta(minutes=5))
    play.sweep(svc)
    assert play.process_inbound(svc, row_id).status == "already processed"
    assert events(app) == moved
    assert inbound_status(app, row_id)[0] == "applied"


def test_a_message_the_database_stops_before_it_is_taken_stays_to_be_taken(client, app,
                                                                           monkeypatch):
    start(client)
    _, ours = mover(app)
    svc = app.extensions["turnpost"]
    with monkeypatch.context() as patched:
        patched.setattr(svc, "kick", lambda *a: None)       # stored, its kick lost
        row_id, _ = deliver(app, reply_to(ours, move_links(ours)[0][0]))
        # the claim's unit of work (Database.autocommit: its statement commits as it runs)
        patched.setattr(svc.db, "autocommit", raising_n(svc.db.autocommit, sqlite_locked(), 1))
        with pytest.raises(play.DatabaseUnavailable):
            play.process_inbound(svc, row_id)
    assert inbound_status(app, row_id)[0] == "received"
    assert play.process_inbound(svc, row_id).status == "applied"


def test_the_claim_is_handed_back_through_a_short_restart(services, monkeypatch):
    """The database still away just after the error: tried again after pauses, and handed
    back once it answers; away through every pause, the claim is left to lapse."""
    monkeypatch.setattr(retry.time, "sleep", lambda _s: None)
    done = []
    flaky = raising_n(services.db.transaction, sqlite_locked(), 3)
    monkeypatch.setattr(services.db, "transaction", flaky)
    assert retry.through_blips(services, lambda session: done.append(1))
    assert done == [1]
    assert "database" in services.outages.down()

    gone = raising_n(services.db.transaction, sqlite_locked(), 1000)
    monkeypatch.setattr(services.db, "transaction", gone)
    assert not retry.through_blips(services, lambda session: done.append(2))
    assert done == [1]

    monkeypatch.setattr(services.db, "transaction", raising_n(gone, ZeroDivisionError(), 1))
    with pytest.raises(ZeroDivisionError):          # a bug is not a blip
        retry.through_blips(services, lambda session: None)


def raising_n(real, exc, n):
    calls = []

    def transaction():
        calls.append(1)
        if len(calls) <= n:
            raise exc
        return real()
    return transaction


def test_a_workers_retry_takes_back_the_claim_it_could_not_hand_back(client, app, monkeypatch):
    """The database away for longer than the hand-back tries: the claim stays, and only the
    same task's retry (its id is the claimant) takes it back, without waiting for it to lapse."""
    start(client)
    _, ours = mover(app)
    svc = app.extensions["turnpost"]
    with monkeypatch.context() as patched:
        patched.setattr(svc, "kick", lambda *a: None)
        row_id, _ = deliver(app, reply_to(ours, move_links(ours)[0][0]))
        patched.setattr(replies, "_decide",
                        lambda *a, **k: (_ for _ in ()).throw(sqlite_locked()))
        patched.setattr(retry, "release", lambda *a: False)
        with pytest.raises(play.DatabaseUnavailable):
            play.process_inbound(svc, row_id, claimant="task-1")
    assert inbound_status(app, row_id)[0] == "processing"
    before = events(app)
    assert play.process_inbound(svc, row_id).status == "already processed"
    assert play.process_inbound(svc, row_id, claimant="task-2").status == "already processed"
    assert play.process_inbound(svc, row_id, claimant="task-1").status == "applied"
    assert events(app) > before


def test_a_reply_whose_run_died_after_its_move_ends_applied_when_run_again(client, app,
                                                                          monkeypatch):
    """A worker killed (or the database gone) between the move's commit and writing down the
    message's outcome: the claim lapses, the sweep runs the message again, finds its move made
    by its own key, and records it `applied` (not `duplicate`: nothing else made that move),
    with the move in the log once. (A reply with a word acting in transactions of its own,
    `vacation`, which runs after the batch commits: the outcome of any other reply is
    written in its batch's own transaction, as the test below shows for a move alone.)"""
    start(client)
    addr, ours = mover(app)
    svc = app.extensions["turnpost"]
    before = events(app)
    with monkeypatch.context() as patched:
        patched.setattr(svc, "kick", lambda *a: None)
        row_id, _ = deliver(app, reply_to(ours, move_links(ours)[0][0] + "\nvacation 2"))
        patched.setattr(retry, "through_blips", lambda *a: False)
        with pytest.raises(play.DatabaseUnavailable):
            play.process_inbound(svc, row_id, claimant="task-1")
    moved = events(app)
    assert moved > before
    assert inbound_status(app, row_id)[0] == "processing"

    assert play.process_inbound(svc, row_id, claimant="task-1").status == "applied"
    assert inbound_status(app, row_id)[0] == "applied"
    assert "earlier attempt" in row_of(app, row_id).outcome
    assert events(app) == moved
    other = next(a for a in ADDRS if a != addr)
    assert latest_to(app, other) is not None


def test_a_reply_of_a_move_alone_is_recorded_applied_with_its_move(client, app, monkeypatch):
    """Its outcome is written in the move's own transaction: the database gone right after
    that commit (or the worker killed) leaves nothing to run again, the move made once."""
    start(client)
    _, ours = mover(app)
    svc = app.extensions["turnpost"]
    before = events(app)
    with monkeypatch.context() as patched:
        patched.setattr(svc, "kick", lambda *a: None)
        row_id, _ = deliver(app, reply_to(ours, move_links(ours)[0][0]))
        patched.setattr(retry, "through_blips", lambda *a: False)
        assert play.process_inbound(svc, row_id, claimant="task-1").status == "applied"
    assert inbound_status(app, row_id)[0] == "applied"
    assert events(app) > before
    moved = events(app)
    assert play.process_inbound(svc, row_id, claimant="task-1").status == "already processed"
    assert events(app) == moved
