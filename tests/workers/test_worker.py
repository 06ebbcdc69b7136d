"""Background delivery with real parts: a Celery worker process on Redis sends the emails a
move queued (CI runs this against this machine's Redis and PostgreSQL), and a dead broker
loses nothing."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import select

from service.store.models import OutboxRow
from tests.conftest import REDIS_URL, TEST_SECRET
from tests.web.helpers import start_game

ROOT = Path(__file__).resolve().parents[2]


def wait_for(predicate, seconds=45.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


@pytest.fixture
def redis_url():
    if not REDIS_URL:
        pytest.skip("TURNPOST_TEST_REDIS_URL not set")
    import redis
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3)
    client.ping()       # unreachable Redis fails the test: CI must prove the real stack
    client.flushdb()
    return REDIS_URL


def start_worker(database_url: str, redis_url: str, maildir) -> subprocess.Popen:
    """A real Celery worker process on Redis, with the settings a production process checks
    (a secret long enough), its output piped for the test to read."""
    env = dict(os.environ, TURNPOST_DATABASE_URL=database_url, TURNPOST_BROKER_URL=redis_url,
               TURNPOST_MAILDIR=str(maildir), TURNPOST_SECRET_KEY=TEST_SECRET,
               TURNPOST_BASE_URL="http://turnpost.test", TURNPOST_MAIL_DOMAIN="turnpost.test")
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "workers.worker", "worker", "--pool=solo",
         "--concurrency=1", "--loglevel=INFO", "--without-gossip", "--without-mingle"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def test_a_real_worker_on_redis_sends_the_emails(redis_url, pg_migrated, tmp_path, app_factory):
    maildir = tmp_path / "worker-outbox"
    worker = start_worker(pg_migrated, redis_url, maildir)
    try:
        app = app_factory(TURNPOST_DATABASE_URL=pg_migrated, TURNPOST_BROKER_URL=redis_url,
                          TURNPOST_MAILDIR=str(maildir))
        started = start_game(app, "trees", ["anna@example.org", "ben@example.org"])
        transport = app.extensions["turnpost"].transport
        assert wait_for(lambda: len(transport.messages()) == 2), "the worker sent nothing"
        db = app.extensions["turnpost"].db
        with db.transaction() as s:     # this game's rows (the database is shared by the run)
            assert {r.status for r in s.scalars(select(OutboxRow).where(
                OutboxRow.game_id == started.game_id))} == {"sent"}
    finally:
        worker.terminate()
        out, _ = worker.communicate(timeout=30)
    assert "deliver_outbox" in out


def test_a_dead_broker_loses_nothing(app_factory):
    """The move commits although the kick cannot reach the broker; the sweep sends it later."""
    app = app_factory(TURNPOST_BROKER_URL="redis://127.0.0.1:9/0")   # nothing listens on 9
    t0 = time.monotonic()
    start_game(app, "trees", ["anna@example.org", "ben@example.org"])
    assert time.monotonic() - t0 < 30
    db = app.extensions["turnpost"].db
    with db.transaction() as s:
        assert {r.status for r in s.scalars(select(OutboxRow))} == {"pending"}
    from service import play
    results = play.sweep(app.extensions["turnpost"])
    assert sorted(results.values()) == ["sent", "sent"]
    assert len(app.extensions["turnpost"].transport.messages()) == 2
