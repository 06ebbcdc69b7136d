"""What every use case is given: its collaborators, explicitly. Adapters (the Flask app, the
Celery worker, the SMTP receiver, the CLI, benchmarks, tests) build one `Services`, from the
TURNPOST_* settings by `from_settings`, and hand it to the use cases, which read the typed
`config.Settings` (one default per setting, the one documented in config/) and know no Flask,
Celery, HTTP or SMTP."""
from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from datetime import datetime
from functools import partial
from typing import Any, Protocol

from jinja2 import Environment

from config import Settings, key_list, variable
from service.games.contract import Chance
from service.linking.signer import Signer
from service.linking.urls import Urls
from service.mailwire.outbound import transports
from service.mailwire.outbound.templating import make_env
from service.store.db import Database

from . import aftercommit
from .clock import SystemClock
from .repository import StateCache

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
    """Where the use cases read the time (service.play.clock has the system's and the tests')."""

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

    def __post_init__(self) -> None:
        self.db.committed = self.committed

    def committed(self, info: dict) -> None:
        """The seam after a commit: the work the unit of work declared (service.play.
        aftercommit: its emails, the bots' turn, a tournament's next round ...) is kicked,
        here and nowhere else."""
        for job, args in aftercommit.due(info):
            self.kick(job, *args)

    def note(self, what: str, **labels: str) -> None:
        """Tell the observer; counting must never fail a use case."""
        try:
            self.observe(what, **labels)
        except Exception:  # noqa: BLE001
            log.exception("observer failed on %s %s", what, labels)

    def kick(self, job: str, *args: Any) -> None:
        """Hand background work to `enqueue`: the seam's (`committed`) one way out. A broker
        that cannot be reached loses nothing: the rows are in the database and the periodic
        sweep picks them up."""
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


def typed(cfg: Mapping[str, Any]) -> Settings:
    """The settings as given (by the environment, the app's config, a test's overrides), each
    missing one at its documented default; a value given as text ("false", "5") is read as
    the environment's would be."""
    given = {f.name: _read(f, cfg[variable(f)]) for f in fields(Settings) if variable(f) in cfg}
    return Settings(**given)


def _read(f, value: Any) -> Any:
    return Settings.parse(f, value) if isinstance(value, str) and str(f.type) != "str" \
        else value


def from_settings(cfg: Mapping[str, Any], enqueue: Enqueue = run_nothing, *,
                  clock: Clock | None = None, chance: Chance | None = None,
                  templates: Environment | None = None) -> Services:
    """Build the services from TURNPOST_* settings (config.Settings().as_flask())."""
    settings = typed(cfg)
    signer = Signer(settings.SECRET_KEY, settings.LINK_MAX_AGE_DAYS,
                    key_list(settings.SECRET_KEY_FALLBACKS))
    return Services(
        db=Database(settings.DATABASE_URL),
        clock=clock or SystemClock(),
        # the service's chance is a CSPRNG; tests hand in a seeded Random
        chance=chance or cfg.get("TURNPOST_CHANCE") or random.SystemRandom(),
        urls=Urls(signer, settings.BASE_URL, settings.MAIL_DOMAIN),
        transport=transports.from_settings(cfg),
        templates=templates or make_env(),
        from_name=settings.MAIL_FROM_NAME,
        retry_schedule=tuple(settings.RETRY_SCHEDULE),
        enqueue=enqueue,
        settings=settings,
    )
