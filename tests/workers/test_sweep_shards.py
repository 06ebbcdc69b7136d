"""The clocks' pass in shards with real parts: beat's task sent twice to Celery workers on
Redis and PostgreSQL (two beats), and a worker killed -9 in the middle of a shard, its
reminders committed and its timeouts not; every seat is timed out once and reminded once
(CI runs this against this machine's Redis and PostgreSQL)."""
from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest
from celery import Celery
from sqlalchemy import create_engine, func, select, text

from config import Settings
from service import play
from service.play.clock import ManualClock
from service.store.models import OutboxRow, Seat, Submission
from tests import conftest
from tests.workers.test_worker import start_worker, wait_for

TIMERS = "workers.tasks.sweep_timers"
PLAYERS = ["Anna <anna@example.org>", "Ben <ben@example.org>"]


@pytest.fixture
def pg(pg_migrated, pg_emptier, monkeypatch):
    pg_emptier()
    # the workers' settings: a timeout is a timeout (no vacation day taken instead)
    monkeypatch.setenv("TURNPOST_AUTO_VACATION", "false")
    yield pg_migrated
    # the emails these workers were stopped before sending would be the next test's worker's
    pg_emptier()


def seed(url, tmp_path, timeouts: int, reminders: int) -> tuple[list[int], list[int]]:
    """Games on a 1-day clock, started so that `timeouts` of them are past their deadline
    and `reminders` past their reminder (6 hours before it) but not their deadline."""
    now = datetime.now(timezone.utc)
    svc = play.from_settings(Settings().as_flask() | conftest.test_settings(url, tmp_path),
                             clock=ManualClock(now - timedelta(days=2)), chance=random.Random(5))
    try:
        late = [play.start_game(svc, "trees", PLAYERS, {"clock": "1d"}).game_id
                for _ in range(timeouts)]
        svc.clock.advance(hours=28)     # now 20 hours ago: deadlines 4 hours ahead
        reminded = [play.start_game(svc, "trees", PLAYERS, {"clock": "1d"}).game_id
                    for _ in range(reminders)]
    finally:
        svc.dispose()
    return late, reminded


def beat(redis: str) -> None:
    """What beat does each TURNPOST_SWEEP_SECONDS: send the clocks' task by its name."""
    sender = Celery(broker=redis)
    try:
        sender.send_task(TIMERS)
    finally:
        sender.close()


def counts(url) -> dict:
    now = datetime.now(timezone.utc)
    engine = create_engine(url)
    try:
        with engine.connect() as c:
            return {
                "due": c.scalar(select(func.count()).select_from(Seat).where(
                    (Seat.deadline <= now) | ((Seat.remind_at <= now) & (Seat.deadline > now)))),
                "timeouts": dict(c.execute(select(Submission.game_id, func.count())
                                           .where(Submission.source == "timer")
                                           .group_by(Submission.game_id)).all()),
                "reminders": dict(c.execute(select(OutboxRow.game_id, func.count())
                                            .where(OutboxRow.kind == "reminder")
                                            .group_by(OutboxRow.game_id)).all())}
    finally:
        engine.dispose()


def waiting_on_a_lock(url) -> int:
    """Backends waiting on a lock (read from a transaction of its own: a transaction sees
    pg_stat_activity as it first read it)."""
    engine = create_engine(url)
    try:
        with engine.connect() as c:
            return c.scalar(text("SELECT count(*) FROM pg_stat_activity WHERE "
                                 "wait_event_type = 'Lock' AND datname = current_database()"))
    finally:
        engine.dispose()


def queue_empty(redis: str) -> bool:
    import redis as client
    return client.Redis.from_url(redis).llen("celery") == 0


def stop(worker) -> str:
    worker.terminate()             # a warm shutdown: the task under way finishes
    out, _ = worker.communicate(timeout=60)
    return out


def test_two_beats_hand_out_every_shard_twice_and_double_nothing(pg, redis_url,  # noqa: F811
                                                                 tmp_path, monkeypatch):
    monkeypatch.setenv("TURNPOST_SWEEP_SHARDS", "4")
    late, reminded = seed(pg, tmp_path, timeouts=12, reminders=12)
    shards = {g % 4 for g in late + reminded}
    workers = [start_worker(pg, redis_url, tmp_path / f"out{n}") for n in range(2)]
    outs = []
    try:
        beat(redis_url)
        beat(redis_url)
        assert wait_for(lambda: counts(pg)["due"] == 0 and queue_empty(redis_url), 90), \
            counts(pg)
    finally:
        outs = [stop(w) for w in workers]
    log = "\n".join(outs)
    # both beats' jobs ran, each shard's twice: the second run found nothing left to claim
    assert log.count("workers.tasks.sweep_shard[") >= 2 * len(shards) * 2, log[-3000:]
    found = counts(pg)
    assert found["timeouts"] == {g: 1 for g in late}
    assert found["reminders"] == {g: 1 for g in reminded}


def test_a_worker_killed_mid_shard_leaves_the_rest_to_the_next_beat(pg, redis_url,  # noqa: F811
                                                                   tmp_path, monkeypatch):
    monkeypatch.setenv("TURNPOST_SWEEP_SHARDS", "2")
    late, reminded = seed(pg, tmp_path, timeouts=6, reminders=6)
    held = late[1]
    mine = held % 2
    # a player's move holding one game's row: its shard's timeouts wait on it, after the
    # same shard's reminders committed
    engine = create_engine(pg)
    holder = engine.connect()
    holder.execute(text("SELECT id FROM games WHERE id = :g FOR UPDATE"), {"g": held})
    first = start_worker(pg, redis_url, tmp_path / "out1")
    try:
        beat(redis_url)

        def blocked():
            return waiting_on_a_lock(pg) > 0 and all(counts(pg)["reminders"].get(g) == 1
                                       for g in reminded if g % 2 == mine)
        assert wait_for(blocked, 60), counts(pg)
        assert not any(g % 2 == mine for g in counts(pg)["timeouts"])
        first.kill()                      # -9: its transaction never commits
        first.communicate(timeout=30)
    finally:
        if first.poll() is None:
            first.kill()
        holder.rollback()
        holder.close()
        engine.dispose()
    second = start_worker(pg, redis_url, tmp_path / "out2")
    try:
        beat(redis_url)                   # beat's next pass
        assert wait_for(lambda: counts(pg)["due"] == 0 and queue_empty(redis_url), 90), \
            counts(pg)
    finally:
        stop(second)
    found = counts(pg)
    assert found["timeouts"] == {g: 1 for g in late}
    assert found["reminders"] == {g: 1 for g in reminded}
