"""What a log line says it is about (service.telemetry.logcontext: request, game, seat) is true of the line:
the outbox relay, which loads a group of rows together and then composes and sends them one by
one, labels each row's lines with that row's game and seat; and background work (a Celery
task, a job of the embedded thread) carries nothing of the work before it. Operators filter
the JSON logs by game: a failed email logged under another game's id sends them to the wrong
table."""
from __future__ import annotations

import pytest

from service import play
from service.telemetry import logcontext
from workers.inprocess import InProcessWorker

TABLES = (["anna@example.org", "ben@example.org"], ["cara@example.org", "dan@example.org"])


class LabelTakingTransport:
    """The Maildir, noting what the log context says at each send."""

    def __init__(self, real, broken: str | None = None):
        self.real, self.broken, self.labels = real, broken, {}

    def send(self, msg):
        self.labels[msg["To"].addresses[0].addr_spec] = (logcontext.game_id.get(),
                                                          logcontext.seat.get())
        if msg["To"].addresses[0].addr_spec == self.broken:
            raise OSError("the relay hung up")
        return self.real.send(msg)

    def messages(self):
        return self.real.messages()


@pytest.fixture
def queued(services):
    """Two games' turn emails, queued and not yet sent: {address: (game, seat)}."""
    services.enqueue = play.services.run_nothing
    seats, ids = {}, []
    for people in TABLES:
        started = play.start_game(services, "trees", people, {})
        ids += started.outbox_ids
        seats.update({addr: (started.game_id, n) for n, addr in enumerate(people)})
    return ids, seats


@pytest.mark.parametrize("broken", [None, "anna@example.org"])
def test_each_row_is_sent_under_its_own_game_and_seat(services, queued, broken):
    ids, seats = queued
    services.transport = LabelTakingTransport(services.transport, broken)
    logcontext.bind(game=99, seat_=3)                # what the caller was about
    play.deliver(services, ids)
    labels = services.transport.labels          # the group's last row is the second game's
    assert len(labels) == len(ids) >= 2 and labels == {a: seats[a] for a in labels}
    assert len({game for game, _ in labels.values()}) == 2
    assert (logcontext.game_id.get(), logcontext.seat.get()) == (99, 3)   # and after: as before
    logcontext.clear()


def test_a_failed_email_is_logged_under_its_own_game(services, queued, caplog):
    ids, seats = queued
    services.transport = LabelTakingTransport(services.transport, "anna@example.org")
    seen = []
    handler_filter = logcontext.ContextFilter()

    class Keep:
        def filter(self, record):
            handler_filter.filter(record)
            seen.append(record)
            return True

    caplog.handler.addFilter(Keep())
    play.deliver(services, ids)
    failed = [r for r in seen if "could not be rendered or sent" in r.getMessage()]
    assert failed and {(r.game_id, r.seat) for r in failed} == {seats["anna@example.org"]}


def test_a_celery_task_leaves_no_game_behind_for_the_line_about_its_end(app, monkeypatch):
    task = app.extensions["celery"].tasks["workers.tasks.sweep_timers"]
    monkeypatch.setattr(task, "run", lambda: logcontext.bind(game=7, seat_=1))
    task.push_request(id="task-1", is_eager=False)
    try:
        task()
    finally:
        task.pop_request()
    assert (logcontext.request_id.get(), logcontext.game_id.get(), logcontext.seat.get()) == \
        ("task-1", None, None)
    logcontext.clear()


def test_each_job_of_the_embedded_thread_starts_about_nothing():
    seen: list[tuple] = []

    def run(job, *args):
        seen.append((job, logcontext.game_id.get(), logcontext.seat.get()))
        logcontext.bind(game=5, seat_=0)             # what a use case does (play.submit)

    worker = InProcessWorker(run, sweep_seconds=60)
    worker.enqueue("bots", 5)
    worker.enqueue("bots", 6)
    assert worker.drain(5)
    worker.stop()
    assert seen == [("bots", None, None), ("bots", None, None)]
