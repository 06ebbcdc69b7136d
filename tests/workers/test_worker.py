"""Background delivery with real parts: a Celery worker process on Redis sends the emails a
move queued (CI runs this against this machine's Redis and PostgreSQL), and a dead broker
loses nothing."""
from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import time
from email.message import EmailMessage
from pathlib import Path

from sqlalchemy import select

from service.play import repository
from service.store.models import InboundMessage, OutboxRow
from tests.conftest import TEST_SECRET
from tests.web.helpers import start_game

ROOT = Path(__file__).resolve().parents[2]


def wait_for(predicate, seconds=45.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


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


INBOUND_SECRET = "inbound-secret-for-the-worker-test"
RECEIVED = re.compile(r"Task (workers\.tasks\.\w+)\[[0-9a-f-]+\] received")


def reply_with_a_move(app, game_id: int) -> bytes:
    """A reply email from the seat to act, with the easy bot's move in words."""
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        pos = repository.load(s, svc.states, game_id)
        seat = min(pos.engine.to_act(pos.state))
        move = pos.engine.bots["easy"](pos.state, seat, random.Random(3))
        address = next(x.player.email for x in pos.row.seats if x.seat == seat)
    reply = EmailMessage()
    reply["From"], reply["To"] = address, svc.urls.reply_address(game_id, seat)
    reply["Subject"], reply["Message-ID"] = "Re: your turn", "<one-task@phone.example>"
    reply.set_content(pos.engine.describe(move) + "\n")
    return reply.as_bytes()


def test_a_reply_is_one_task_that_sends_its_own_emails(redis_url, pg_migrated, tmp_path,
                                                        app_factory):
    """The worker applies a reply and sends the emails it queued in the same task: no
    delivery task is published for them (issue 53), and they are all sent."""
    maildir = tmp_path / "worker-outbox"
    worker = start_worker(pg_migrated, redis_url, maildir)
    try:
        app = app_factory(TURNPOST_DATABASE_URL=pg_migrated, TURNPOST_BROKER_URL=redis_url,
                          TURNPOST_MAILDIR=str(maildir), TURNPOST_INBOUND_SECRET=INBOUND_SECRET)
        started = start_game(app, "trees", ["anna@example.org", "ben@example.org"])
        transport, db = app.extensions["turnpost"].transport, app.extensions["turnpost"].db
        assert wait_for(lambda: len(transport.messages()) == 2), "the worker sent nothing"
        posted = app.test_client().post(
            "/inbound/raw", data=reply_with_a_move(app, started.game_id),
            headers={"Authorization": f"Bearer {INBOUND_SECRET}",
                     "Content-Type": "message/rfc822"})
        posted.close()          # the kick goes once the response is sent (service.web.kicks)
        assert posted.status_code == 200, posted.text

        def seen() -> tuple:
            with db.transaction() as s:
                reply = s.scalar(select(InboundMessage.status).where(
                    InboundMessage.message_id.contains("one-task@phone.example")))
                return reply, set(s.scalars(select(OutboxRow.status).where(
                    OutboxRow.game_id == started.game_id)))
        assert wait_for(lambda: seen() == ("applied", {"sent"})), seen()
        assert len(transport.messages()) > 2
    finally:
        worker.terminate()
        out, _ = worker.communicate(timeout=30)
    received = RECEIVED.findall(out)
    # the game's start published its delivery; the reply, one task and nothing after it
    assert received == ["workers.tasks.deliver_outbox", "workers.tasks.process_inbound"], out
