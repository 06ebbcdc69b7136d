"""Abuse limits (Flask-Limiter): sign-in mails, game creation and invitations, each counted per
client address and per account (or per typed address for sign-in). The counts live in Redis
when there is a broker (every web process shares them) and in memory on the embedded default.

One Limiter per app (apps in one process count apart); the limits are put on the views here,
after the blueprints are registered, so the blueprints stay plain Flask."""
from __future__ import annotations

import math
import time

from flask import Flask, current_app, request, session
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from service.play.addresses import BadAddress, address

from . import pages


def _account_or_client() -> str:
    player = session.get("player")
    return f"player:{player}" if player else f"client:{get_remote_address()}"


def _typed_address() -> str:
    typed = request.form.get("email", "")[:400]
    try:
        return "to:" + address(typed)
    except BadAddress:
        return "to:?"          # refused anyway; counted with the other bad ones


def _invited() -> int:
    """An invitation form costs one per address it names (a refill names one)."""
    lines = request.form.get("players", request.form.get("email", ""))
    return max(1, len([ln for ln in lines.replace(",", "\n").splitlines() if ln.strip()]))


def init_app(app: Flask) -> Limiter:
    cfg = app.config
    broker = cfg.get("TURNPOST_BROKER_URL") or ""
    limiter = Limiter(get_remote_address, app=app, key_prefix="turnpost",
                      storage_uri=broker if broker.startswith("redis") else "memory://",
                      enabled=cfg.get("TURNPOST_RATE_LIMITS", True), headers_enabled=True)
    rules = {
        "accounts.sign_in_request": [(cfg["TURNPOST_LIMIT_SIGN_IN"], get_remote_address, 1),
                                     (cfg["TURNPOST_LIMIT_SIGN_IN_ADDRESS"], _typed_address, 1)],
        "games.create": [(cfg["TURNPOST_LIMIT_GAMES"], _account_or_client, 1),
                         (cfg["TURNPOST_LIMIT_GAMES"], get_remote_address, 1),
                         (cfg["TURNPOST_LIMIT_INVITES"], _account_or_client, _invited),
                         (cfg["TURNPOST_LIMIT_INVITES"], get_remote_address, _invited)],
        "accounts.rematch": [(cfg["TURNPOST_LIMIT_GAMES"], get_remote_address, 1)],
        "accounts.refill": [(cfg["TURNPOST_LIMIT_INVITES"], _account_or_client, 1),
                            (cfg["TURNPOST_LIMIT_INVITES"], get_remote_address, 1)],
    }
    for endpoint, limits in rules.items():
        view = app.view_functions[endpoint]
        for n, (rate, key, cost) in enumerate(limits):
            view = limiter.limit(rate, key_func=key, cost=cost, methods=["POST"],
                                 scope=f"{endpoint}.{n}")(view)
        app.view_functions[endpoint] = view
    app.extensions["turnpost.limiter"] = limiter
    app.register_error_handler(429, too_many)
    return limiter


def too_many(exc):
    limiter = current_app.extensions["turnpost.limiter"]
    current = limiter.current_limit
    wait = max(1, math.ceil((current.reset_at - time.time()) / 60)) if current else 60
    when = f"in {wait} minute{'s' if wait != 1 else ''}" if wait < 120 \
        else f"in about {round(wait / 60)} hours"
    body, status = pages.problem(
        "Too many requests", f"That was done too often from here or for this account "
        f"({exc.description}). Please try again {when}.", 429)
    return body, status, {"Retry-After": str(wait * 60)}
