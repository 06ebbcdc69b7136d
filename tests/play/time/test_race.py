"""A move in the second of the deadline against a sweeper, and two sweepers at once: exactly
one outcome, never both (threads; on PostgreSQL too when TURNPOST_TEST_DATABASE_URL is set)."""
from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import select

from service import play
from service.linking import freshness
from service.play.time.sweep import timeouts
from service.store.models import EventRow, Submission
from tests.play.time.helpers import position, start, to_act


def sources(svc, game_id):
    with svc.db.transaction() as s:
        return [r.source for r in s.scalars(select(EventRow).where(EventRow.game_id == game_id)
                                            .order_by(EventRow.seq))]


def run_together(*jobs):
    barrier = threading.Barrier(len(jobs))
    results: list = [None] * len(jobs)

    def runner(i, job):
        barrier.wait()
        try:
            results[i] = job()
        except Exception as exc:      # noqa: BLE001 - the outcome is what we check
            results[i] = exc
    threads = [threading.Thread(target=runner, args=(i, j)) for i, j in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def test_move_against_sweeper_at_the_deadline_gives_one_outcome(services):
    for round_ in range(4):
        g = start(services, clock="1d", seed=10 + round_)
        pos = position(services, g.game_id)
        seat = to_act(services, g.game_id)[0]
        m = pos.engine.legal_moves(pos.state, seat)[-1]
        seen = freshness.mark(pos.engine, pos.state, seat)
        services.clock.advance(days=1)          # exactly the deadline
        intent = play.Intent(g.game_id, seat, moves=[m], expected=seen, source="link",
                             key=f"race{round_}")
        results = run_together(lambda i=intent: play.submit(services, i),
                               lambda: play.timers(services))
        after = sources(services, g.game_id)
        moved = isinstance(results[0], play.Applied)
        timed = "timer" in after
        assert moved != timed, (results, after)
        if not moved:
            assert isinstance(results[0], play.PlayError)
        assert to_act(services, g.game_id) == [1 - seat]


def test_two_sweepers_time_out_a_seat_once(services):
    g = start(services, clock="1d")
    services.clock.advance(days=1, hours=1)
    reports = run_together(lambda: play.timers(services), lambda: play.timers(services))
    assert sum(r.timed_out for r in reports) == 1
    with services.db.transaction() as s:
        keys = s.scalars(select(Submission.key).where(Submission.game_id == g.game_id)).all()
    assert len(keys) == 1 and "timer:" in keys[0]


@pytest.mark.parametrize("bulk", [True, False], ids=["batched", "per-game"])
def test_a_sweep_down_for_days_catches_up_in_deadline_order(services, bulk):
    early = start(services, clock="1d")
    services.clock.advance(hours=5)
    late = start(services, clock="1d", seed=7)
    services.clock.advance(days=3)
    handled = []
    real = timeouts.judge

    # both paths decide each seat through `judge`, in the order they handle them
    def spy(out, svc, pos, seat, deadline, now):
        handled.append((deadline, pos.row.id))
        return real(out, svc, pos, seat, deadline, now)
    timeouts.judge = spy
    try:
        report = timeouts.run(services, bulk=bulk)
    finally:
        timeouts.judge = real
    assert [g for _, g in handled] == [early.game_id, late.game_id]
    assert report.timed_out == 2
    assert handled[0][0] + timedelta(hours=5) == handled[1][0]
