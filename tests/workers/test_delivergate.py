"""Deliver kicks behind a waiting task are left out (workers.delivergate, issue 53), on this
machine's Redis and PostgreSQL with a real worker process: a burst of moves publishes one
delivery task, and every email of the burst is sent all the same, a whole batch's task asking
for the next itself; replies processed while tasks wait behind them leave their emails to one
delivery task. Budget: about 40 s (three worker processes started)."""
from __future__ import annotations

import pytest
import redis
from sqlalchemy import select

from service.play.mail import relay
from service.store.models import InboundMessage, OutboxRow
from tests.web.helpers import start_game
from tests.workers.test_worker import (
    INBOUND_SECRET,
    RECEIVED,
    reply_with_a_move,
    start_worker,
    wait_for,
)
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


def test_a_publish_is_left_out_while_a_task_waits_and_a_failed_one_reopens(gate):
    """The kicks and a whole batch's ask for the next task go through one door: published
    once until the task starts; a publish that fails leaves no task waiting, so the next
    one publishes."""
    gate.reopen()
    published = []
    gate.publish_unless_waiting(lambda: published.append("task"))
    gate.publish_unless_waiting(lambda: published.append("task"))
    assert published == ["task"]
    gate.reopen()                                       # the waiting task starts

    def broker_away() -> None:
        raise ConnectionError("the broker is away")
    with pytest.raises(ConnectionError):
        gate.publish_unless_waiting(broker_away)
    gate.publish_unless_waiting(lambda: published.append("task"))
    assert published == ["task", "task"]
    gate.reopen()


def test_a_broker_other_than_redis_publishes_every_kick():
    gate = delivergate.DeliverGate("amqp://guest@127.0.0.1//")
    assert gate.should_publish() and gate.should_publish()
    gate.reopen()                                       # nothing to clear, and no error


def test_work_waiting_is_the_length_of_the_queue_left_to_take(gate, redis_url):
    client = redis.Redis.from_url(redis_url)
    client.delete("gate-test-queue")
    assert gate.work_waiting("gate-test-queue") is False
    client.rpush("gate-test-queue", b"a task")
    assert gate.work_waiting("gate-test-queue") is True
    client.delete("gate-test-queue")
    # no Redis to ask, or a broker away: taken for idle (a reply's emails go from its task)
    assert delivergate.DeliverGate("amqp://guest@127.0.0.1//").work_waiting("celery") is False
    assert delivergate.DeliverGate("redis://127.0.0.1:9/0").work_waiting("celery") is False


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


def test_replies_with_tasks_behind_them_leave_their_emails_to_one_delivery(
        redis_url, pg_migrated, tmp_path, app_factory):
    """Three replies wait in the queue when the worker starts. The first two each see tasks
    behind them, so their emails are not sent where they run: the first's publish a delivery
    task, the second's is left out behind it, and the third (only that delivery task behind
    it now) leaves its emails to it too. The delivery then sends all of them as one batch.
    A reply with nothing behind it sends its own (tests/workers/test_worker.py)."""
    maildir = tmp_path / "worker-outbox"
    app = app_factory(TURNPOST_DATABASE_URL=pg_migrated, TURNPOST_BROKER_URL=redis_url,
                      TURNPOST_MAILDIR=str(maildir), TURNPOST_INBOUND_SECRET=INBOUND_SECRET)
    games = [start_game(app, "trees", [f"r{k}@example.org", f"s{k}@example.org"]).game_id
             for k in range(3)]
    db = app.extensions["turnpost"].db
    client = app.test_client()
    for game_id in games:
        raw = reply_with_a_move(app, game_id).replace(
            b"<one-task@phone.example>", f"<behind-{game_id}@phone.example>".encode())
        posted = client.post("/inbound/raw", data=raw, headers={
            "Authorization": f"Bearer {INBOUND_SECRET}", "Content-Type": "message/rfc822"})
        posted.close()      # the kick goes once the response is sent
        assert posted.status_code == 200, posted.text
    # the games' first emails' delivery, then the three replies
    assert redis.Redis.from_url(redis_url).llen("celery") == 4

    def done() -> tuple:
        with db.transaction() as s:
            replies = set(s.scalars(select(InboundMessage.status).where(
                InboundMessage.message_id.contains("behind-"))))
        return replies, set(_ours(db, games))
    worker = start_worker(pg_migrated, redis_url, maildir)
    try:
        assert wait_for(lambda: done() == ({"applied"}, {"sent"})), done()
    finally:
        worker.terminate()
        out, _ = worker.communicate(timeout=30)
    assert RECEIVED.findall(out) == (["workers.tasks.deliver_outbox"]
                                     + ["workers.tasks.process_inbound"] * 3
                                     + ["workers.tasks.deliver_outbox"]), out
    assert len(app.extensions["turnpost"].transport.messages()) == len(_ours(db, games))
