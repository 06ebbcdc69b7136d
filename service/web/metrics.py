"""/metrics in Prometheus's format, and the observer that counts for it.

The use cases tell `Services.observe` what happened (a move applied or refused, an email
queued, sent, retried or parked, inbound mail stored or acted on, a sweep); this module counts
it with prometheus_client. Every process made by the app factory (gunicorn workers, Celery
workers, beat, the CLI) counts into the same metrics; with PROMETHEUS_MULTIPROC_DIR set they
share them through files (prometheus_client's multiprocess mode), so /metrics on any web worker
shows them all. The outbox's ages are read from the database when /metrics is asked.

/metrics answers only clients in TURNPOST_METRICS_ALLOW and never a request that came through
a proxy (X-Forwarded-For): behind a TLS proxy every request looks local."""
from __future__ import annotations

import ipaddress
import os
import time

from flask import Blueprint, Response, current_app, g, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily

from service.play.reads import admin

from .ext import services


def _multiprocess_folder() -> None:
    """prometheus_client's multiprocess mode (PROMETHEUS_MULTIPROC_DIR) opens this process's
    file in that folder as the first metric below is made: a folder named before it exists
    (an environment file read by every process, `flask init-db` first) is made here, as
    `make prod` makes var/metrics, instead of each process stopping on FileNotFoundError."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not folder:
        return
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise SystemExit(f"turnpost: PROMETHEUS_MULTIPROC_DIR is {folder!r}, a folder that "
                         f"cannot be made ({exc.strerror}); make it, or unset the variable"
                         ) from None


_multiprocess_folder()
# process-wide by nature (one set of counters per process, like the process itself)
REGISTRY = CollectorRegistry()
MOVES = Counter("turnpost_moves_total", "Moves by outcome (applied, refused, duplicate) "
                "and source (link, web, email, api, cli, bot, timer)",
                ["outcome", "source"], registry=REGISTRY)
EMAILS = Counter("turnpost_emails_total", "Outgoing emails: queued, sent, retried, parked",
                 ["event"], registry=REGISTRY)
INBOUND = Counter("turnpost_inbound_total", "Inbound mail: stored, duplicate, and what "
                  "processing made of it (applied, refused, answered, ignored, failed...)",
                  ["event"], registry=REGISTRY)
RELAY_REFUSALS = Counter("turnpost_relay_refusals_total", "Emails the mail relay refused "
                         "for good, by whose trouble it was: about=address (5.1.x to one "
                         "recipient: parked, evidence against the address) or about=relay "
                         "(a policy refusal, a 5xx without a code, every recipient at once: "
                         "the email waits and is tried again, nobody is muted)",
                         ["about"], registry=REGISTRY)
SWEEP = Gauge("turnpost_sweep_last_run_timestamp_seconds", "When the last sweep finished",
              registry=REGISTRY, multiprocess_mode="max")
LATENCY = Histogram("turnpost_request_seconds", "Web request latency",
                    ["method", "endpoint", "status"], registry=REGISTRY)

bp = Blueprint("metrics", __name__)


def observe(what: str, **labels: str) -> None:
    """The use cases' observer (Services.observe)."""
    if what == "move":
        MOVES.labels(labels.get("outcome", "?"), labels.get("source", "?")).inc()
    elif what == "email":
        EMAILS.labels(labels.get("event", "?")).inc()
    elif what == "inbound":
        INBOUND.labels(labels.get("event", "?")).inc()
    elif what == "relay_refusal":
        RELAY_REFUSALS.labels(labels.get("about", "?")).inc()
    elif what == "sweep":
        SWEEP.set(time.time())


class OutboxCollector:
    """Read at scrape time: how old the oldest unsent email is, and how long the oldest due one
    has waited for a sweep or worker (the sweep's lag)."""

    def __init__(self, svc):
        self.svc = svc

    def collect(self):
        ages = admin.outbox_ages(self.svc)
        yield GaugeMetricFamily("turnpost_outbox_oldest_unsent_seconds",
                                "Age of the oldest email not yet sent", value=ages.oldest_unsent)
        yield GaugeMetricFamily("turnpost_outbox_due_lag_seconds",
                                "How long the oldest email due for sending has waited",
                                value=ages.due_lag)


def allowed(remote: str | None, networks: str) -> bool:
    try:
        addr = ipaddress.ip_address(remote or "")
    except ValueError:
        return False
    nets = [ipaddress.ip_network(n.strip(), strict=False) for n in networks.split(",")
            if n.strip()]
    return any(addr in net for net in nets)


@bp.get("/metrics")
def metrics():
    if request.headers.get("X-Forwarded-For") or \
            not allowed(request.remote_addr, current_app.config["TURNPOST_METRICS_ALLOW"]):
        return Response("not for you\n", 404, mimetype="text/plain")
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = CollectorRegistry()
        registry.register(_Forward(REGISTRY))
    registry.register(OutboxCollector(services()))
    return Response(generate_latest(registry), mimetype=CONTENT_TYPE_LATEST)


class _Forward:
    """This process's own metrics, in a registry of one scrape."""

    def __init__(self, source: CollectorRegistry):
        self.source = source

    def collect(self):
        return self.source.collect()


def init_app(app) -> None:
    app.extensions["turnpost"].observe = observe
    app.register_blueprint(bp)

    @app.before_request
    def start_timer():
        g.turnpost_started = time.perf_counter()

    @app.after_request
    def record_latency(response):
        started = g.pop("turnpost_started", None)
        if started is not None and request.endpoint != "metrics.metrics":
            LATENCY.labels(request.method, request.endpoint or "none",
                           str(response.status_code)).observe(time.perf_counter() - started)
        return response
