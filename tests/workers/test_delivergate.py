"""Deliver kicks behind a waiting task are left out (workers.delivergate, issue 53), on this
machine's Redis and PostgreSQL with a real worker process: a burst of moves publishes one
delivery task, and every email of the burst is sent all the same, a whole batch's task asking
for the next itself. Budget: about 25 s (two worker processes started)."""
from __future__ import annotations

import pytest
import redis
from sqlalchemy import select

from service.play.mail import relay
from service.store.models import OutboxRow
from tests.web.helpers import start_game
from tests.workers.test_worker import RECEIVED, start_worker, wait_for
from workers import delivergate


@pytest.fixture
def gate(redis_url):
    return delivergate.DeliverGate(redis_url)


def test_one_kick_publishes_until_its_task_starts(gate, redis_url):
    client = redis.Redis.from_url(redis_url)
    assert gate.should_publish() is True
    assert gate.should_publish() is False and gate.should_publish() is False
    assert 0 < client.pttl(delivergate.WAITING) <= delivergate.EXPIRY_MS   # it cannot stick
    gate.reopen()                                       # the waiting task starts
    assert gate.should_publish() is True


def test_a_broker_other_than_redis_publishes_every_kick():
    gate = delivergate.DeliverGate("amqp://guest@127.0.0.1//")
    assert gate.should_publish() and gate.should_publish()
    gate.reopen()                                       # nothing to clear, and no error


def test_a_hung_or_absent_broker_costs_a_kick_one_short_wait(app_factory):
    """The gate asks the broker with the kick's own bound and no retry: the move commits and
    its rows wait for the sweep, as a publish that fails leaves them."""
    gate = delivergate.DeliverGate("redis://127.0.0.1:9/0")    # nothing listens on 9
    with pytest.raises(redis.ConnectionError):
        gate.should_publish()
    gate.reopen()                                       # never raises


def _ours(db, game_ids: list[int]) -> list[str]:
    with db.transaction() as s:
        return list(s.scalars(select(OutboxRow.status).where(OutboxRow.game_id.in_(game_ids))))


def test_a_burst_publishes_one_task_and_every_email_is_sent(redis_url, pg_migrated, tmp_path,
                                                            app_factory):
    """More games started than a batch holds, while no worker runs: one delivery task is
    queued for them all. A worker then takes it, fills a whole batch, and asks for the next
    itself (no beat runs here, so no sweep would send what it left)."""
    maildir = tmp_path / "worker-outbox"
    app = app_factory(TURNPOST_DATABASE_URL=pg_migrated, TURNPOST_BROKER_URL=redis_url,
                      TURNPOST_MAILDIR=str(maildir))
    games = [start_game(app, "trees", [f"p{k}@example.org", f"q{k}@example.org"]).game_id
             for k in range(relay.BATCH // 2 + 5)]          # two emails a game: 60 rows
    db = app.extensions["turnpost"].db
    assert len(_ours(db, games)) > relay.BATCH
    assert redis.Redis.from_url(redis_url).llen("celery") == 1     # one task for the burst
    worker = start_worker(pg_migrated, redis_url, maildir)
    try:
        assert wait_for(lambda: set(_ours(db, games)) == {"sent"}), _ours(db, games)
    finally:
        worker.terminate()
        out, _ = worker.communicate(timeout=30)
    assert RECEIVED.findall(out) == ["workers.tasks.deliver_outbox"] * 2, out
    assert len(app.extensions["turnpost"].transport.messages()) == len(_ours(db, games))
