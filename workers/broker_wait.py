"""How long a process waits on the broker when it only tells it something: a kick (its rows
are committed, so a broker that does not answer only delays the work until the sweep) and
/healthz's probe. Redis stopped but still accepting (SIGSTOP, a full disk, a hung host) would
otherwise hold a web worker for Celery's default socket timeout, retried.

A worker's own consuming connection keeps the Celery app's settings: its blocking reads must
outlast these bounds."""
from __future__ import annotations

import os
import threading
from typing import Any

from celery import Celery, Task
from kombu import Connection

#: A kick's wait on the broker, connecting and answering each; then it gives up.
KICK_WAIT_SECONDS = 0.1
#: /healthz's wait on the broker before it says the broker is down.
PROBE_WAIT_SECONDS = 1.0


def waiting_at_most(seconds: float) -> dict[str, Any]:
    """Transport options: each socket operation bounded, and no reconnecting loop (kombu's
    max_retries), so one attempt is all a caller pays."""
    return {"socket_connect_timeout": seconds, "socket_timeout": seconds, "max_retries": 0}


class Publisher:
    """Queues tasks on a connection of its own that waits at most KICK_WAIT_SECONDS per
    operation, never retried: `publish` raises if the broker does not answer in time. The
    connection is kept between kicks (one per process: a forked child makes its own) and
    dropped after a failure, so the next kick connects afresh."""

    def __init__(self, celery_app: Celery):
        self.celery_app = celery_app
        self._connection: Connection | None = None
        self._pid = 0
        self._lock = threading.Lock()

    def publish(self, task: Task, args: tuple, countdown: float | None = None) -> None:
        with self._lock:
            if self._connection is None or self._pid != os.getpid():
                self._connection = self.celery_app.connection_for_write(
                    transport_options=waiting_at_most(KICK_WAIT_SECONDS))
                self._pid = os.getpid()
            try:
                task.apply_async(args, countdown=countdown, connection=self._connection,
                                 retry=False)
            except Exception:
                self._connection.release()
                self._connection = None
                raise


def broker_down(celery_app: Celery) -> str | None:
    """None when the broker answers within PROBE_WAIT_SECONDS; else what went wrong."""
    try:
        with celery_app.connection_for_write(
                transport_options=waiting_at_most(PROBE_WAIT_SECONDS)) as conn:
            conn.ensure_connection(max_retries=0, timeout=PROBE_WAIT_SECONDS)
        return None
    except Exception as exc:  # noqa: BLE001 - any failure means down; say which
        return f"{type(exc).__name__}: {str(exc)[:200]}"
