"""Celery bound to the Flask app, as Flask's own Celery guide does it: every task runs inside an
app context, so tasks reach the use cases' services through `current_app` and never import the
app themselves.

With no broker configured (the embedded default) tasks run in process, in a background thread
after the response (workers.inprocess); with TURNPOST_BROKER_URL=redis://... they go to real
worker processes."""
from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from celery import Celery, Task
from flask import appcontext_popped, request_started

from service.telemetry import logcontext

# the task modules register their shared tasks with every Celery app made after this import
from . import imap_tasks, tasks  # noqa: F401
from .broker_wait import Publisher
from .delivergate import DeliverGate
from .inprocess import InProcessWorker

# the use cases' background jobs, by the names they ask for (service.play.services.Enqueue)
PRUNE_SECONDS = 24 * 3600.0
JOBS = {"deliver": "workers.tasks.deliver_outbox",
        "process_inbound": "workers.tasks.process_inbound",
        "sweep": "workers.tasks.sweep_outbox",
        "timers": "workers.tasks.sweep_timers",
        "timers_shard": "workers.tasks.sweep_shard",
        "prune": "workers.tasks.prune_old_rows",
        "bots": "workers.tasks.move_bots",
        "tournament": "workers.tasks.advance_tournament"}


#: True while a worker runs a task whose own emails are sent where it runs (a task class with
#: `sends_own_emails`): its commit's `deliver` kick is then done in the same process instead
#: of being published as a second task (enqueue_for)
_sending_here: ContextVar[bool] = ContextVar("turnpost_sending_here", default=False)


def celery_init_app(app) -> Celery:
    class FlaskTask(Task):
        #: send the emails this task's work queues in this task (issue 53: a reply costs
        #: the workers one task, not two; a second task's publish, dispatch and consume
        #: were a fifth of a reply's CPU)
        sends_own_emails = False

        def __call__(self, *args, **kwargs):
            # a worker's log lines name the task as their request (service.telemetry.logcontext), and carry
            # nothing of the last task; run eagerly, a task is part of the caller's request
            if self.request.is_eager:
                with app.app_context():
                    return self.run(*args, **kwargs)
            logcontext.clear()
            logcontext.request_id.set(self.request.id)
            sending = _sending_here.set(self.sends_own_emails)
            try:
                with app.app_context():
                    return self.run(*args, **kwargs)
            finally:
                _sending_here.reset(sending)
                # Celery's own line about the task's end follows: the task, not the last
                # game one of its use cases worked on
                logcontext.game_id.set(None)
                logcontext.seat.set(None)

    broker = app.config["TURNPOST_BROKER_URL"]
    celery_app = Celery(app.name, task_cls=FlaskTask)
    celery_app.config_from_object({
        "broker_url": broker or "memory://",
        "task_always_eager": not broker,
        "task_eager_propagates": False,
        "task_ignore_result": True,
        "task_acks_late": True,              # a worker that dies mid-task leaves it queued
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        "broker_connection_retry_on_startup": True,
        # JSON logs (TURNPOST_LOG_FORMAT=json): keep the app's handler instead of Celery's
        "worker_hijack_root_logger": app.config.get("TURNPOST_LOG_FORMAT") != "json",
        # a request must not hang on a dead broker: the sweep sends what the kick could not
        "task_publish_retry_policy": {"max_retries": 1, "interval_start": 0.2},
        "broker_transport_options": {"socket_connect_timeout": 2, "socket_timeout": 5},
        "beat_schedule": {"sweep-outbox": {"task": JOBS["sweep"],
                                           "schedule": float(app.config["TURNPOST_SWEEP_SECONDS"])},
                          # the clocks' pass: reminders and timeouts, never inside a request
                          "sweep-timers": {"task": JOBS["timers"],
                                           "schedule": float(app.config["TURNPOST_SWEEP_SECONDS"])},
                          # sent emails' rows and receipts past their retention, once a day
                          "prune": {"task": JOBS["prune"], "schedule": PRUNE_SECONDS}},
        "imports": ("workers.tasks", "workers.imap_tasks"),
    })
    if app.config.get("TURNPOST_IMAP_HOST"):
        celery_app.conf.beat_schedule["poll-imap"] = {
            "task": "workers.imap_tasks.poll_imap",
            "schedule": float(app.config.get("TURNPOST_IMAP_POLL_SECONDS", 60))}
    celery_app.set_default()
    app.extensions["celery"] = celery_app
    return celery_app


def enqueue_for(app, celery_app: Celery):
    """The use cases' `enqueue`, sending to THIS Celery app's tasks (so two Flask apps in one
    process each run their own work in their own app context).

    With a broker, tasks go to the workers; bots move TURNPOST_BOT_DELAY_SECONDS after they
    are kicked (a person sees the table think). On the embedded default they run in this
    process after the response (workers.inprocess; `app.extensions["turnpost.background"]`
    can be drained), or, with TURNPOST_BACKGROUND=inline (the tests), right where they are
    called."""
    def run(job: str, *args: Any) -> None:
        celery_app.tasks[JOBS[job]].apply(args=args)     # here and now, in an app context

    if app.config["TURNPOST_BROKER_URL"]:
        return _to_the_broker(app, celery_app, run)
    if app.config["TURNPOST_BACKGROUND"] == "inline":
        def inline(job: str, *args: Any) -> None:
            if job == "deliver" and not args[0]:
                return
            run(job, *args)
            if job == "deliver":
                # no beat process: retries that fell due go out now (tests move the clock)
                run("sweep")
        return inline
    # no beat beside it: when idle, the thread runs beat's two passes, the clocks first (a
    # timeout's emails then go out in the same round)
    worker = InProcessWorker(run, float(app.config["TURNPOST_SWEEP_SECONDS"]),
                             on_stop=lambda: close_relay(app), idle_jobs=("timers", "sweep"))
    app.extensions["turnpost.background"] = worker
    _hold_during_requests(app, worker)
    return worker.enqueue


def _to_the_broker(app, celery_app: Celery, run):
    """`enqueue` with a broker: tasks published for the workers (a deliver kick left out while
    one waits: workers.delivergate), or run here when this task sends its own emails and no
    task waits behind it."""
    bot_delay = float(app.config["TURNPOST_BOT_DELAY_SECONDS"])
    publisher = Publisher(celery_app)
    gate = app.extensions["turnpost.delivergate"] = DeliverGate(
        app.config["TURNPOST_BROKER_URL"])
    queue = celery_app.conf.task_default_queue

    def enqueue(job: str, *args: Any) -> None:
        if job == "deliver" and not args[0]:
            return
        if job == "deliver" and _sending_here.get() and not gate.work_waiting(queue):
            # the workers keep up: the rows are committed, sent here, now, by the delivery
            # task run in place (its failure is the sweep's to mend, as a lost kick's); this
            # worker dying first leaves them pending for the sweep, its task redelivered
            # finds its reply processed (acks_late, the claim), so nothing is lost or
            # applied twice
            run(job, *args)
            return
        # otherwise (tasks wait behind this one) its emails join the batch a deliver task
        # makes of everything due: one task, one claim and one connection for the emails of
        # many replies (workers.delivergate)
        if job == "deliver":
            next_delivery(args[0])
            return
        # a broker that does not answer gives up in a tenth of a second (the sweep
        # sends what it could not queue): the caller may be a web worker
        countdown = bot_delay if job == "bots" and bot_delay else None
        publisher.publish(celery_app.tasks[JOBS[job]], args, countdown=countdown)

    def next_delivery(row_ids: list[int] | None = None) -> None:
        """A deliver task for these rows and whatever else is due, left out while one waits
        (a kick's; a delivery whose claim took a whole batch asks for its next one here too,
        with no rows of its own: workers.tasks.deliver_outbox), on the bounded connection of
        every kick."""
        gate.publish_unless_waiting(
            lambda: publisher.publish(celery_app.tasks[JOBS["deliver"]], (row_ids or [],)))

    app.extensions["turnpost.next_delivery"] = next_delivery
    return enqueue


def _hold_during_requests(app, worker: InProcessWorker) -> None:
    """The in-process jobs wait while this app answers a request (workers.inprocess): counted
    from the request's start to its app context's end, the very last of the request's work
    (the context variable pairs each end with its start, in the thread that answered)."""
    def started(_sender, **_) -> None:
        if not _counted.get():
            _counted.set(True)
            worker.request_started()

    def ended(_sender, **_) -> None:
        if _counted.get():
            _counted.set(False)
            worker.request_finished()

    request_started.connect(started, app, weak=False)
    appcontext_popped.connect(ended, app, weak=False)


_counted: ContextVar[bool] = ContextVar("turnpost_request_counted", default=False)


def close_relay(app) -> None:
    """A stopping worker says goodbye to the mail relay (the transport's kept connection)."""
    close = getattr(app.extensions["turnpost"].transport, "close", None)
    if close is not None:
        close()
