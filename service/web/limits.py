"""Abuse limits (Flask-Limiter): sign-in mails, the links of a change of address or an erasure,
game and tournament creation and invitations, each counted per client address and per account
(or per typed address for sign-in and a new address). The counts live in Redis
when there is a broker (every web process shares them) and in memory on the embedded default.

One Limiter per app (apps in one process count apart); the limits are put on the views here,
after the blueprints are registered, so the blueprints stay plain Flask."""
from __future__ import annotations

import hashlib
import math
import time

from flask import Flask, current_app, request, session
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from service.mailwire.outbound.catalogs import N_, _, ngettext
from service.play.community import MAX_INVITEES
from service.play.players import MAX_INVITES, BadAddress, address, is_bot_entry

from . import pages, problems
from .problems import Problem


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
    """An invitation form costs one per address it names (a refill names one); a form naming
    more than a table has seats is refused by the use case with its own words, not here."""
    lines = request.form.get("players", request.form.get("email", ""))
    named = len([ln for ln in lines.replace(",", "\n").splitlines() if ln.strip()])
    return max(1, min(named, MAX_INVITES))


def _entrants_invited() -> int:
    """A tournament form costs one per address it invites (bots are not mailed), at least one
    (the tournament itself)."""
    lines = request.form.get("entrants", "")[:8000].replace(",", "\n").splitlines()
    named = [ln for ln in lines if ln.strip() and not is_bot_entry(ln)]
    return max(1, min(len(named), MAX_INVITEES))


def _sent(response) -> bool:
    """Games and invitations count only when made: a refused form sent nothing."""
    return response.status_code < 400


def init_app(app: Flask) -> Limiter:
    cfg = app.config
    broker = cfg.get("TURNPOST_BROKER_URL") or ""
    limiter = Limiter(get_remote_address, app=app, key_prefix="turnpost",
                      storage_uri=broker if broker.startswith("redis") else "memory://",
                      enabled=cfg.get("TURNPOST_RATE_LIMITS", True),
                      # no limit headers on every response: the extension's Retry-After there
                      # is the window's reset, and it outbid a 503's own (5 s became an hour
                      # for an API client); a 429 says when to come back itself (too_many)
                      headers_enabled=False,
                      # Redis down: count in memory meanwhile rather than fail every request
                      swallow_errors=True, in_memory_fallback_enabled=True)
    # (rate, counted per, cost, counted only when made): every sign-in request counts (each
    # may mail someone); games and invitations count when they were made
    rules = {
        "accounts.sign_in_request": [
            (cfg["TURNPOST_LIMIT_SIGN_IN"], get_remote_address, 1, None),
            (cfg["TURNPOST_LIMIT_SIGN_IN_ADDRESS"], _typed_address, 1, None)],
        "games.create": [(cfg["TURNPOST_LIMIT_GAMES"], _account_or_client, 1, _sent),
                         (cfg["TURNPOST_LIMIT_GAMES"], get_remote_address, 1, _sent),
                         (cfg["TURNPOST_LIMIT_INVITES"], _account_or_client, _invited, _sent),
                         (cfg["TURNPOST_LIMIT_INVITES"], get_remote_address, _invited, _sent)],
        "tournaments.make": [
            (cfg["TURNPOST_LIMIT_GAMES"], _account_or_client, 1, _sent),
            (cfg["TURNPOST_LIMIT_GAMES"], get_remote_address, 1, _sent),
            (cfg["TURNPOST_LIMIT_INVITES"], _account_or_client, _entrants_invited, _sent),
            (cfg["TURNPOST_LIMIT_INVITES"], get_remote_address, _entrants_invited, _sent)],
        # a change of address or an erasure mails a link (and the old address a notice)
        "accounts.change_address": [
            (cfg["TURNPOST_LIMIT_SIGN_IN_ADDRESS"], _account_or_client, 1, None),
            (cfg["TURNPOST_LIMIT_SIGN_IN_ADDRESS"], _typed_address, 1, None)],
        "accounts.erase_request": [
            (cfg["TURNPOST_LIMIT_SIGN_IN_ADDRESS"], _account_or_client, 1, None)],
        "accounts.rematch": [(cfg["TURNPOST_LIMIT_GAMES"], get_remote_address, 1, _sent)],
        "accounts.refill": [(cfg["TURNPOST_LIMIT_INVITES"], _account_or_client, 1, _sent),
                            (cfg["TURNPOST_LIMIT_INVITES"], get_remote_address, 1, _sent)],
        # each makes the service post to an address a player chose (the API's: LIMIT_API)
        "webhooks.add": [(cfg["TURNPOST_LIMIT_WEBHOOKS"], _account_or_client, 1, _sent),
                         (cfg["TURNPOST_LIMIT_WEBHOOKS"], get_remote_address, 1, _sent)],
        "webhooks.test": [(cfg["TURNPOST_LIMIT_WEBHOOKS"], _account_or_client, 1, None),
                          (cfg["TURNPOST_LIMIT_WEBHOOKS"], get_remote_address, 1, None)],
    }
    for endpoint, limits in rules.items():
        view = app.view_functions[endpoint]
        for n, (rate, key, cost, when) in enumerate(limits):
            view = limiter.limit(rate, key_func=key, cost=cost, methods=["POST"],
                                 deduct_when=when, scope=f"{endpoint}.{n}")(view)
        app.view_functions[endpoint] = view
    # the JSON API: every request counts, per token (or per client without one)
    for endpoint in [e for e in app.view_functions if e.startswith("api.")]:
        app.view_functions[endpoint] = limiter.limit(
            cfg["TURNPOST_LIMIT_API"], key_func=_token_or_client, scope="api")(
            app.view_functions[endpoint])
    app.extensions["turnpost.limiter"] = limiter
    app.register_error_handler(429, too_many)
    return limiter


def _token_or_client() -> str:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return "token:" + hashlib.sha256(token.strip().encode()).hexdigest()[:32]
    return "client:" + get_remote_address()


def too_many(exc):
    limiter = current_app.extensions["turnpost.limiter"]
    current = limiter.current_limit
    # never longer than the window itself: the reset time is whole seconds, rounded up
    seconds = max(1, min(current.limit.get_expiry(),
                         math.ceil(current.reset_at - time.time()))) if current else 3600
    if problems.for_api():                     # an API client gets a problem document
        return problems.respond(Problem(429, N_("Too Many Requests"), _(
            "Too many requests (%(limit)s); try again in %(seconds)s s.",
            limit=exc.description, seconds=seconds)), headers={"Retry-After": str(seconds)})
    minutes = math.ceil(seconds / 60)
    when = ngettext("in %(num)s minute", "in %(num)s minutes", minutes) if minutes < 120 \
        else _("in about %(hours)s hours", hours=round(minutes / 60))
    body, status = pages.problem(
        N_("Too many requests"), _("That was done too often from here or for this account "
                                   "(%(limit)s). Please try again %(when)s.",
                                   limit=exc.description, when=when), 429)
    return body, status, {"Retry-After": str(seconds)}
