"""Celery bound to the Flask app, as Flask's own Celery guide does it: every task runs inside an
app context, so tasks reach the database and mailer through `current_app` and never import
the app themselves.

With no broker configured (the embedded default) tasks run in process, eagerly, right where
they are called; with TURNPOST_BROKER_URL=redis://... they go to real worker processes."""
from __future__ import annotations

from celery import Celery, Task


def celery_init_app(app) -> Celery:
    class FlaskTask(Task):
        def __call__(self, *args, **kwargs):
            with app.app_context():
                return self.run(*args, **kwargs)

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
        # a request must not hang on a dead broker: the sweep sends what the kick could not
        "task_publish_retry_policy": {"max_retries": 1, "interval_start": 0.2},
        "broker_transport_options": {"socket_connect_timeout": 2, "socket_timeout": 5},
        "beat_schedule": {"sweep-outbox": {"task": "workers.tasks.sweep_outbox",
                                           "schedule": float(app.config["TURNPOST_SWEEP_SECONDS"])}},
        "imports": ("workers.tasks", "workers.imap_tasks"),
    })
    if app.config.get("TURNPOST_IMAP_HOST"):
        celery_app.conf.beat_schedule["poll-imap"] = {
            "task": "workers.imap_tasks.poll_imap",
            "schedule": float(app.config.get("TURNPOST_IMAP_POLL_SECONDS", 60))}
    celery_app.set_default()
    app.extensions["celery"] = celery_app
    return celery_app
