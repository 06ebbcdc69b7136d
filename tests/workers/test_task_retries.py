"""A task stopped by a transient database error is retried by Celery with backoff (its
autoretry_for/retry_backoff), not left to the sweep; a bug is not retried; and an outage is
one log line when it starts and one when it ends, not a traceback per task."""
from __future__ import annotations

import logging

import pytest
from celery.exceptions import Retry
from psycopg import errors as pg
from sqlalchemy.exc import OperationalError

from service import play
from service.play.mail.replies import Result

TASK = "workers.tasks.process_inbound"


def terminated() -> OperationalError:
    return OperationalError("SELECT 1", {}, pg.AdminShutdown("terminating connection due to "
                                                             "administrator command"))


def raising(exc):
    def run(*_args, **_kwargs):
        raise exc
    return run


def database_lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("database is")]


@pytest.fixture
def task(app):
    return app.extensions["celery"].tasks[TASK]


def test_a_transient_error_is_retried_by_celery_with_backoff(app, task, monkeypatch):
    monkeypatch.setattr(play, "process_inbound", raising(terminated()))
    asked = []

    def retry(exc=None, countdown=None, **_kwargs):
        asked.append((exc, countdown))
        return Retry(exc=exc, when=countdown)

    monkeypatch.setattr(task, "retry", retry)
    task.push_request(retries=3, is_eager=False, called_directly=False)
    try:
        with app.app_context(), pytest.raises(Retry):
            task.run(7)
    finally:
        task.pop_request()
    (exc, countdown), = asked
    assert isinstance(exc, play.DatabaseUnavailable)
    assert isinstance(exc.__cause__, OperationalError)
    assert 0 <= countdown <= 2 ** 3                  # exponential, with jitter
    assert task.max_retries and task.retry_backoff_max == 60


def test_a_bug_is_not_retried(app, task, monkeypatch):
    monkeypatch.setattr(play, "process_inbound", raising(ZeroDivisionError("a bug")))
    monkeypatch.setattr(task, "retry", raising(AssertionError("a bug was retried")))
    task.push_request(retries=0, is_eager=False, called_directly=False)
    try:
        with app.app_context(), pytest.raises(ZeroDivisionError):
            task.run(7)
    finally:
        task.pop_request()


@pytest.mark.parametrize("name", ["workers.tasks.process_inbound",
                                  "workers.tasks.deliver_outbox", "workers.tasks.move_bots"])
def test_the_work_tasks_retry_on_a_stopped_database(app, name):
    made = app.extensions["celery"].tasks[name]
    assert play.DatabaseUnavailable in made.autoretry_for and made.retry_backoff


def test_an_outage_is_one_line_when_it_starts_and_one_when_it_ends(app, task, monkeypatch,
                                                                   caplog):
    """Run eagerly, as the embedded default does: nothing raises, the sweep takes the work."""
    caplog.set_level(logging.INFO)
    monkeypatch.setattr(play, "process_inbound", raising(terminated()))
    for row_id in range(1, 6):
        assert task.apply(args=(row_id,)).result == "retrying"
    sweep = app.extensions["celery"].tasks["workers.tasks.sweep_outbox"]
    monkeypatch.setattr(play, "sweep", raising(terminated()))
    sweep.apply()
    assert database_lines(caplog) == ["database is down: OperationalError: (psycopg.errors."
                                      "AdminShutdown) terminating connection due to "
                                      "administrator command"]
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]

    monkeypatch.setattr(play, "process_inbound", lambda *_a, **_k: Result("applied"))
    for row_id in range(6, 9):
        assert task.apply(args=(row_id,)).result == "applied"
    assert database_lines(caplog)[1:] == ["database is back"]
