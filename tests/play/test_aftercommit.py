"""The one seam after a commit (service/play/aftercommit.py): the work a unit of work declares
runs once it commits, never when it rolls back; the emails first, in one job, each other job
once; and the use cases declare what they call for in their own units of work, so no caller
has to remember a kick."""
from __future__ import annotations

import random

import pytest

from service import play
from service.play import aftercommit, notify
from service.store.models import GameRow

ANNA, BEN = "anna@example.org", "ben@example.org"


@pytest.fixture
def jobs(services):
    """The jobs the seam hands to `enqueue`, in order (nothing runs them)."""
    asked: list = []
    services.enqueue = lambda job, *args: asked.append((job, args))
    return asked


def test_a_unit_of_work_that_rolls_back_runs_nothing(services, jobs):
    with pytest.raises(RuntimeError):
        with services.db.transaction() as session:
            aftercommit.bots(session, 7)
            aftercommit.deliver(session, [1, 2])
            raise RuntimeError("a refusal")
    assert jobs == []


def test_the_emails_go_first_in_one_job_and_every_other_job_once(services, jobs):
    with services.db.transaction() as session:
        aftercommit.bots(session, 7)
        aftercommit.deliver(session, [3, 1])
        aftercommit.tournament(session, 2)
        aftercommit.bots(session, 7)
        aftercommit.deliver(session, [1, 5])
    assert jobs == [("deliver", ([3, 1, 5],)), ("bots", (7,)), ("tournament", (2,))]


def test_a_row_of_the_orm_is_sent_by_the_id_its_flush_gave_it(services, jobs):
    game = play.start_game(services, "trees", [ANNA, BEN], {}).game_id
    jobs.clear()
    with services.db.transaction() as session:
        row = notify.queue(session, session.get(GameRow, game), 0, "reminder", 1,
                           services.clock.now())
    assert jobs == [("deliver", ([row.id],))]


def test_a_start_with_a_bot_to_open_declares_its_emails_and_the_bots_job(services, jobs):
    """`start_game` kicks nothing itself: what it wrote declared the work."""
    opened = []
    for seed in range(8):
        services.chance = random.Random(seed)       # who opens is dealt
        jobs.clear()
        started = play.start_game(services, "trees", [ANNA, "bot"], {})
        names = [job for job, _ in jobs]
        assert ("deliver" in names) == bool(started.outbox_ids), seed
        assert ("bots" in names) == started.bots_next, seed
        opened.append(started.bots_next)
    assert True in opened and False in opened       # the bot opened some of the deals
