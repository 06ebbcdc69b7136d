"""The embedded default's worker: background jobs run in one thread of the web process, AFTER
the response, never inside a player's request. With no beat process, the same
thread does beat's periodic work whenever it has been idle for the sweep interval: the clocks
(reminders, timeouts, vacations that ended) and the outbox sweep (due retries, stored mail
whose kick was lost). The thread starts with the app's first request or job, so a server that
was restarted keeps its games' clocks from the first page anyone opens.

One thread, first in first out: on SQLite there is one writer anyway, and a move's emails go
out in the order they were queued. The queue is bounded; a job that does not fit is dropped
with a warning and loses nothing (its rows are in the database; the sweep sends them).

A process finishes its own work before it exits (`flask start-game`, `flask move`, a server
stopped with Ctrl-C): no idle pass begins any more, and the jobs queued, those they queue in
turn and the one running all end, for at most EXIT_SECONDS. This runs among threading's own
exit hooks, before the interpreter stops its threads and before concurrent.futures refuses
new work (the relay marks sent emails on a pool thread): as a plain `atexit` hook it ran
after both, and the email being sent failed half way, its row left `sending`, to be composed
and sent again when its claim lapsed. Work still running after EXIT_SECONDS is the sweep's:
what it did not send is sent once its claims lapse, as after a crash. When the thread stops
(or the process exits), `on_stop` runs: the transport says goodbye to the mail relay instead
of leaving its kept connection to time out.

"After the response" is kept to the letter: a job waits while any request of the process is in
flight (its `request_started`/`request_finished`, called from Flask's request signals by
workers.celery_app). Without the wait it held only while the request kept the interpreter
lock: one that let go of it (a sleep, a slow write, another request of a threaded server) had
emails composed beside it (tests/workers/test_inprocess.py). Under a constant stream of
requests a job waits at most MAX_WAIT_SECONDS, then runs anyway."""
from __future__ import annotations

import atexit
import concurrent.futures.thread  # noqa: F401 - first: its exit hook then runs after ours
import contextvars
import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)
_STOP = object()
MAX_WAIT_SECONDS = 2.0
#: How long an exiting process waits for its background work to end.
EXIT_SECONDS = 60.0


class InProcessWorker:
    def __init__(self, run: Callable[..., Any], sweep_seconds: float, maxsize: int = 1000,
                 on_stop: Callable[[], None] | None = None,
                 idle_jobs: tuple[str, ...] = ("sweep",)):
        self.run = run                          # run(job, *args): one job, in an app context
        self.on_stop = on_stop
        self.sweep_seconds = sweep_seconds
        self.idle_jobs = idle_jobs              # run in turn after sweep_seconds without a job
        self.jobs: queue.Queue = queue.Queue(maxsize)
        self._thread: threading.Thread | None = None
        self._pid = 0
        self._start_lock = threading.Lock()
        self._last_sweep = time.monotonic()
        self._in_flight = 0
        self._requests_lock = threading.Lock()
        self._no_requests = threading.Event()
        self._no_requests.set()
        # a job or an idle pass is running; closing: the process exits, no idle pass begins
        self._state = threading.Condition()
        self._running = False
        self._closing = False
        self._exited = False

    def request_started(self) -> None:
        self._ensure_thread()                   # a served app sweeps from its first request
        with self._requests_lock:
            self._in_flight += 1
            self._no_requests.clear()

    def request_finished(self) -> None:
        with self._requests_lock:
            self._in_flight = max(0, self._in_flight - 1)
            if not self._in_flight:
                self._no_requests.set()

    def enqueue(self, job: str, *args: Any) -> None:
        """The use cases' `enqueue`: returns at once; the job runs after the response."""
        if job == "deliver" and not args[0]:
            return
        self._ensure_thread()
        try:
            self.jobs.put_nowait((job, args))
        except queue.Full:
            log.warning("background queue full: %s%s left to the sweep", job, args)

    def drain(self, timeout: float | None = None) -> bool:
        """Wait until every queued job is done (tests, benchmarks)."""
        with self.jobs.all_tasks_done:
            return self.jobs.all_tasks_done.wait_for(lambda: not self.jobs.unfinished_tasks,
                                                     timeout)

    def finish(self, timeout: float | None = None) -> bool:
        """Wait until every queued job is done and the thread is idle: no job or idle pass
        running (an exiting process)."""
        with self._state:
            return self._state.wait_for(
                lambda: not self.jobs.unfinished_tasks and not self._running, timeout)

    def stop(self) -> None:
        """End the thread once the jobs queued before are done (an app being thrown away)."""
        with self._state:
            self._closing = True
        if self._thread is not None and self._thread.is_alive():
            self.jobs.put((_STOP, ()))
            self._thread.join(10)
        self._exited = True             # nothing left for the exit hook
        self._stopped()

    def _exit(self) -> None:
        """The process exits: its queued jobs, what they queue and the one running end
        first (module docstring)."""
        if self._exited or self._pid != os.getpid():
            return
        self._exited = True
        with self._state:
            self._closing = True
        if not self.finish(EXIT_SECONDS):
            log.warning("background work still running %ss into the exit: the process ends "
                        "without it; the sweep sends what it did not, once its claims "
                        "lapse", EXIT_SECONDS)
        self._stopped()

    def _stopped(self) -> None:
        if self.on_stop is not None:
            try:
                self.on_stop()
            except Exception:  # noqa: BLE001 - a goodbye that fails must not stop the exit
                log.exception("background worker: stopping failed")

    def _ensure_thread(self) -> None:
        # started on first use, and again in a forked child (gunicorn forks after the import)
        if self._thread is not None and self._pid == os.getpid():
            return
        with self._start_lock:
            if self._thread is None or self._pid != os.getpid():
                self._pid = os.getpid()
                self._thread = threading.Thread(target=self._loop, name="turnpost-background",
                                                daemon=True)
                self._thread.start()
                self._exited = False
                _at_exit(self._exit)

    def _loop(self) -> None:
        while True:
            try:
                job, args = self.jobs.get(timeout=self.sweep_seconds)
            except queue.Empty:
                self._sweep()
                continue
            if job is _STOP:
                self.jobs.task_done()
                return
            self._set_running(True)
            try:
                self._call(job, *args)
            finally:
                self.jobs.task_done()
                self._set_running(False)
            if time.monotonic() - self._last_sweep > self.sweep_seconds and self.jobs.empty():
                self._sweep()

    def _set_running(self, running: bool) -> bool:
        """Mark the thread busy or idle; an idle pass may not begin once the process exits
        (returns False then)."""
        with self._state:
            if running and self._closing and not self.jobs.unfinished_tasks:
                return False
            self._running = running
            self._state.notify_all()
            return True

    def _sweep(self) -> None:
        if not self._set_running(True):
            return
        try:
            self._last_sweep = time.monotonic()
            for job in self.idle_jobs:
                self._call(job)
        finally:
            self._set_running(False)

    def _call(self, job: str, *args: Any) -> None:
        self._no_requests.wait(MAX_WAIT_SECONDS)
        try:
            # in a context of its own: a job's log lines carry nothing of the job before
            # (the game and seat a use case was about, service.telemetry.logcontext)
            contextvars.Context().run(self.run, job, *args)
        except Exception:  # noqa: BLE001 - one failed job must not stop the thread
            log.exception("background job %s%s failed; the sweep will retry its rows", job, args)


def _at_exit(hook: Callable[[], None]) -> None:
    """Run `hook` as the process exits, among threading's own exit hooks: before the
    interpreter joins and stops threads, and before concurrent.futures refuses new work
    (module docstring; threading runs them last registered first, and concurrent.futures,
    imported above, registered its own as it was imported). threading._register_atexit is
    CPython's (3.9 on), the one concurrent.futures uses; elsewhere, or once the exit has
    begun, atexit is the fallback."""
    register = getattr(threading, "_register_atexit", None)
    try:
        if register is not None:
            register(hook)
            return
    except RuntimeError:        # the exit has begun: too late for threading's hooks
        pass
    atexit.register(hook)
