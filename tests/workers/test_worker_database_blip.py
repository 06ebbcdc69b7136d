"""A real Celery worker on Redis and PostgreSQL: a reply whose backend is terminated while it
waits on a locked game is retried by the worker itself (no beat runs here, and the processing
claim would take two minutes to lapse) and applied once when the lock goes; the worker logs the
outage in one line, not a traceback."""
from __future__ import annotations

import time

import pytest
from sqlalchemy import create_engine, text

from service import play
from service.store.models import InboundMessage
from tests.play.mail.test_replies import events, mover, reply_to
from tests.web.helpers import move_links, start_game
from tests.workers.test_worker import start_worker, wait_for

ADDRS = ["anna@example.org", "ben@example.org"]


def blocked_by(engine, locker_pid: int) -> int | None:
    with engine.connect() as conn:
        return conn.execute(text("SELECT pid FROM pg_stat_activity "
                                 "WHERE :locker = ANY(pg_blocking_pids(pid))"),
                            {"locker": locker_pid}).scalar()


def test_the_worker_retries_a_reply_whose_backend_was_terminated(redis_url, pg_migrated,  # noqa: F811
                                                                  db_url, tmp_path,
                                                                  app_factory):
    if not db_url.startswith("postgresql"):
        pytest.skip("runs once, on PostgreSQL")
    maildir = tmp_path / "worker-outbox"
    worker = start_worker(pg_migrated, redis_url, maildir)
    engine = create_engine(pg_migrated)
    try:
        app = app_factory(TURNPOST_DATABASE_URL=pg_migrated, TURNPOST_BROKER_URL=redis_url,
                          TURNPOST_MAILDIR=str(maildir))
        svc = app.extensions["turnpost"]
        game_id = start_game(app, "trees", ADDRS).game_id
        assert wait_for(lambda: len(svc.transport.messages()) == 2), "the worker sent nothing"
        _, ours = mover(app)
        before = events(app)
        with engine.connect() as locker:
            locker.execute(text("SELECT id FROM games WHERE id = :g FOR UPDATE"),
                           {"g": game_id})
            locker_pid = locker.execute(text("SELECT pg_backend_pid()")).scalar()
            with app.app_context():
                row_id, _ = play.accept_mail(svc, reply_to(ours, move_links(ours)[0][0]), "smtp")
            assert wait_for(lambda: blocked_by(engine, locker_pid)), "the reply never waited"
            with engine.connect() as admin:
                admin.execute(text("SELECT pg_terminate_backend(:pid)"),
                              {"pid": blocked_by(engine, locker_pid)})

            def handed_back():
                with svc.db.transaction() as s:
                    return s.get(InboundMessage, row_id).attempts >= 1
            assert wait_for(handed_back), "the claim was not handed back"
            time.sleep(0.5)
            assert events(app) == before
            locker.rollback()           # the lock goes: the worker's retry applies it

        def applied():
            with svc.db.transaction() as s:
                return s.get(InboundMessage, row_id).status == "applied"
        assert wait_for(applied), "the worker did not retry the reply"
        moved = events(app)
        assert moved > before
        time.sleep(1.0)                 # any second run would show by now
        assert events(app) == moved
    finally:
        engine.dispose()
        worker.terminate()
        out, _ = worker.communicate(timeout=30)
    assert out.count("database is down") == 1, out
    assert "Traceback" not in out, out
    assert "retry" in out
