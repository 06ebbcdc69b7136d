"""What every use case is given: its collaborators, explicitly. Adapters (the Flask app, the
Celery worker, the SMTP receiver, the CLI, benchmarks, tests) build one `Services` and hand it
to the use cases; the use cases know no Flask, Celery, HTTP or SMTP."""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any, Protocol

from jinja2 import Environment

from config import Settings
from service.games.contract import Chance
from service.store.db import Database
from service.urls import Urls

from .positions import StateCache

log = logging.getLogger(__name__)


class Outages:
    """One log line per change of state of what we depend on (the broker, the mail relay,
    the database), not a traceback per failed attempt: a minute without Redis is two lines."""

    def __init__(self) -> None:
        self._down: dict[str, str] = {}
        self._lock = threading.Lock()

    def failed(self, what: str, why: str) -> None:
        with self._lock:
            if what in self._down:
                return
            self._down[what] = why
        log.warning("%s is down: %s", what, why)

    def ok(self, what: str) -> None:
        with self._lock:
            if self._down.pop(what, None) is None:
                return
        log.warning("%s is back", what)

    def down(self) -> dict[str, str]:
        with self._lock:
            return dict(self._down)


class Clock(Protocol):
    """Where the use cases read the time (service.clock has the system's and the tests')."""

    def now(self) -> datetime:
        """The current time, aware, in UTC."""
        ...


class Enqueue(Protocol):
    """Hand background work to whoever runs it: `enqueue("deliver", [ids])`,
    `enqueue("process_inbound", id)`, `enqueue("sweep")`. With a broker, workers run it;
    on the embedded default, it runs in process."""

    def __call__(self, job: str, *args: Any) -> None: ...


def run_nothing(job: str, *args: Any) -> None:
    """For tools that leave background work to the sweep (benchmarks, one-off scripts)."""


def run_now(work: Callable[[], None]) -> None:
    """The default of `Services.later`: a kick is sent as soon as its change commits."""
    work()


class Observer(Protocol):
    """Told what happened, for metrics: `observe("move", outcome="applied", source="api")`,
    `observe("email", event="sent")`, `observe("inbound", event="stored")`,
    `observe("sweep")`. The web app's observer counts them for /metrics (service/web/metrics.py);
    the use cases never know how."""

    def __call__(self, what: str, **labels: str) -> None: ...


def observe_nothing(what: str, **labels: str) -> None:
    """The default: nobody is counting."""


@dataclass
class Services:
    db: Database
    clock: Clock
    chance: Chance
    urls: Urls
    transport: Any                        # .send(EmailMessage); Maildir also .messages()
    templates: Environment                # the email templates
    from_name: str = "Turnpost"
    retry_schedule: tuple[int, ...] = (60, 300, 1800, 7200, 21600)
    enqueue: Enqueue = run_nothing
    states: StateCache = field(default_factory=StateCache)
    settings: Settings = field(default_factory=Settings)
    observe: Observer = observe_nothing
    outages: Outages = field(default_factory=Outages)
    # when a kick is sent: now, or (the web app with a broker) once the player has the
    # response, which then does not wait on the broker (service.web.kicks)
    later: Callable[[Callable[[], None]], None] = run_now

    def note(self, what: str, **labels: str) -> None:
        """Tell the observer; counting must never fail a use case."""
        try:
            self.observe(what, **labels)
        except Exception:  # noqa: BLE001
            log.exception("observer failed on %s %s", what, labels)

    def kick(self, job: str, *args: Any) -> None:
        """Ask for background work after a commit. A broker that cannot be reached loses
        nothing: the rows are in the database and the periodic sweep picks them up."""
        if job == "deliver":
            for _ in args[0]:
                self.note("email", event="queued")
        self.later(partial(self._enqueue, job, *args))

    def _enqueue(self, job: str, *args: Any) -> None:
        try:
            self.enqueue(job, *args)
        except Exception as exc:  # noqa: BLE001 - broker trouble must not fail committed work
            self.outages.failed("broker", f"{type(exc).__name__}: {exc} (the sweep will send "
                                "what could not be queued)")
            return
        self.outages.ok("broker")

    @property
    def embedded(self) -> bool:
        """No broker: background work runs in the web process (workers.inprocess)."""
        return not self.settings.BROKER_URL

    def dispose(self) -> None:
        self.db.dispose()

