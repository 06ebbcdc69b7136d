"""Logs and error reports: TURNPOST_LOG_FORMAT=json makes every log line one JSON object with
the request id, game id and seat (service.telemetry.logcontext); each request gets an id (the proxy's
X-Request-ID, or a new one) echoed in the response. SENTRY_DSN turns on Sentry when the
`sentry` extra is installed."""
from __future__ import annotations

import logging
import secrets
import sys

from flask import g, request

from service.telemetry import logcontext

log = logging.getLogger(__name__)


def configure_logging(fmt: str) -> None:
    """Root logging for this process (once: a second app in the process changes nothing)."""
    root = logging.getLogger()
    if any(getattr(h, "turnpost", False) for h in root.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.turnpost = True
    handler.addFilter(logcontext.ContextFilter())
    handler.setFormatter(logcontext.JsonFormatter() if fmt == "json" else logging.Formatter(
        "%(asctime)s %(levelname)s %(name)s [req %(request_id)s game %(game_id)s "
        "seat %(seat)s] %(message)s"))
    root.addHandler(handler)
    if root.level > logging.INFO or root.level == logging.NOTSET:
        root.setLevel(logging.INFO)


def init_sentry(dsn: str) -> bool:
    if not dsn:
        return False
    try:
        import sentry_sdk  # an optional extra: pip install 'turnpost[sentry]'
    except ImportError:
        log.warning("SENTRY_DSN is set but sentry-sdk is not installed: "
                    "pip install 'turnpost[sentry]'")
        return False
    sentry_sdk.init(dsn=dsn, send_default_pii=False)
    return True


def init_app(app) -> None:
    if not app.testing:
        configure_logging(app.config["TURNPOST_LOG_FORMAT"])
    init_sentry(app.config.get("TURNPOST_SENTRY_DSN", ""))

    @app.before_request
    def bind_request():
        logcontext.clear()
        rid = request.headers.get("X-Request-ID", "")[:64] or secrets.token_hex(8)
        g.request_id = rid
        logcontext.request_id.set(rid)
        game = (request.view_args or {}).get("game_id")
        if isinstance(game, int):
            logcontext.bind(game=game)

    @app.after_request
    def echo_request_id(response):
        if "request_id" in g:
            response.headers["X-Request-ID"] = g.request_id
        return response
