"""The clocks' pass split in shards (TURNPOST_SWEEP_SHARDS): beat hands out one job per shard
with something due, each shard takes only its games, and a shard run twice (two beats, a job
redelivered) still times out each seat once and reminds it once. On PostgreSQL too when
TURNPOST_TEST_DATABASE_URL is set; tests/workers/test_sweep_shards.py does it with real
workers."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select

from service import play
from service.play.time.sweep.shards import Shard
from service.store.models import OutboxRow, Submission
from tests.play.time.helpers import start
from tests.play.time.test_race import run_together


@pytest.fixture
def kicked(services):
    jobs: list[tuple] = []
    services.enqueue = lambda job, *args: jobs.append((job, *args))
    return jobs


def shard_jobs(kicked):
    return [args for job, *args in kicked if job == "timers_shard"]


def timer_receipts(svc) -> dict[int, int]:
    with svc.db.transaction() as s:
        return dict(s.execute(select(Submission.game_id, func.count())
                              .where(Submission.source == "timer")
                              .group_by(Submission.game_id)).all())


def reminders(svc) -> dict[int, int]:
    with svc.db.transaction() as s:
        return dict(s.execute(select(OutboxRow.game_id, func.count())
                              .where(OutboxRow.kind == "reminder")
                              .group_by(OutboxRow.game_id)).all())


def games(svc, n):
    return [start(svc, clock="1d", seed=20 + i).game_id for i in range(n)]


def test_beat_hands_out_only_the_shards_with_something_due(services, kicked):
    ids = games(services, 5)
    services.clock.advance(days=1, hours=1)
    report = play.timers(services, shards=3)
    assert report.timed_out == 0 and timer_receipts(services) == {}   # beat itself times out none
    assert report.shards == sorted({g % 3 for g in ids})
    assert shard_jobs(kicked) == [[part, 3] for part in report.shards]


def test_each_shard_times_out_its_own_games_only(services, kicked):
    ids = games(services, 6)
    services.clock.advance(days=1, hours=1)
    for part in range(3):
        report = play.timers_shard(services, part, 3)
        mine = [g for g in ids if g % 3 == part]
        assert report.timed_out == len(mine)
        assert sorted(timer_receipts(services)) == sorted(g for g in ids if g % 3 <= part)


def test_two_beats_time_out_and_remind_each_seat_once(services, kicked):
    ids = games(services, 6)
    services.clock.advance(hours=19)             # a 1-day clock reminds 6 hours before
    for _ in range(2):
        play.timers(services, shards=4)
    jobs = shard_jobs(kicked)
    assert len(jobs) == 2 * len({g % 4 for g in ids})
    reports = run_together(*[lambda a=a: play.timers_shard(services, *a) for a in jobs])
    assert sum(r.reminded for r in reports) == len(ids)
    assert reminders(services) == {g: 1 for g in ids}
    kicked.clear()
    services.clock.advance(hours=6, minutes=1)   # past every deadline
    play.timers(services, shards=4)
    play.timers(services, shards=4)
    reports = run_together(*[lambda a=a: play.timers_shard(services, *a)
                             for a in shard_jobs(kicked)])
    assert sum(r.timed_out for r in reports) == len(ids)
    assert timer_receipts(services) == {g: 1 for g in ids}


def test_a_shard_run_again_after_its_pass_finds_nothing(services, kicked):
    ids = games(services, 4)
    services.clock.advance(days=1, hours=1)
    first = [play.timers_shard(services, part, 2) for part in range(2)]
    again = [play.timers_shard(services, part, 2) for part in range(2)]
    assert sum(r.timed_out for r in first) == len(ids)
    assert sum(r.timed_out for r in again) == 0
    assert timer_receipts(services) == {g: 1 for g in ids}


def test_one_shard_is_the_whole_pass_here(services, kicked):
    ids = games(services, 3)
    services.clock.advance(days=1, hours=1)
    assert services.embedded and services.settings.SWEEP_SHARDS > 1
    report = play.timers(services)        # the embedded default: no jobs handed out
    assert report.timed_out == len(ids) and report.shards == []
    assert shard_jobs(kicked) == []


@pytest.mark.parametrize("shard,of", [(3, 3), (-1, 2), (0, 0)])
def test_a_shard_that_does_not_exist_is_refused(shard, of):
    with pytest.raises(ValueError):
        Shard(shard, of)
