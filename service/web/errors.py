"""What a person sees when something goes wrong: never a bare 500.

* A link that does not work (damaged, expired, made for something else): 400 with what
  happened and what to do, for every view that reads a token.
* Any unexpected exception: a friendly page with an incident id, and one log line with the
  same id and the traceback, so a player's email can be matched to it.
* The database is unreachable (a restart, a failover): 503 with Retry-After; a page that was
  only being read reloads itself a few seconds later. The pool pings connections before use
  (pool_pre_ping), so once the database is back the next request works.
"""
from __future__ import annotations

import secrets

from flask import current_app, request
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from werkzeug.exceptions import InternalServerError

from service.links import TokenError

from . import pages

RETRY_AFTER = 5


def init_app(app) -> None:
    app.register_error_handler(TokenError, token_error)
    app.register_error_handler(DBAPIError, database_error)
    app.register_error_handler(InternalServerError, server_error)


def token_error(exc: TokenError):
    """A damaged, expired or wrong-purpose link, wherever it was opened: what happened, and
    what to do instead (each TokenError says both)."""
    return pages.problem(exc.title, exc.detail, 400)


def is_disconnect(exc: BaseException | None) -> bool:
    return isinstance(exc, (OperationalError, InterfaceError)) or bool(
        isinstance(exc, DBAPIError) and exc.connection_invalidated)


def database_error(exc: DBAPIError):
    if not is_disconnect(exc):
        return incident_page(exc)
    current_app.logger.warning("database unavailable (%s %s): %s", request.method,
                               request.path, str(exc).splitlines()[0][:200])
    body, status = pages.problem(
        "Back in a moment", "The game store is briefly unavailable (a restart, most likely). "
        + ("This page will try again by itself in a few seconds." if request.method == "GET"
           else "Please try again in a few seconds; if you were making a move, open the game "
           "page first to see whether it was made."),
        503, kind="fault", refresh=RETRY_AFTER if request.method == "GET" else None)
    return body, status, {"Retry-After": str(RETRY_AFTER)}


def server_error(exc: InternalServerError):
    original = exc.original_exception
    if is_disconnect(original):
        return database_error(original)
    return incident_page(original or exc)


def incident_page(exc: BaseException):
    incident = secrets.token_hex(4)
    current_app.logger.error("incident %s: %s %s failed", incident, request.method,
                             request.path, exc_info=exc)
    return pages.problem("Something went wrong on our side",
                         "We have logged the problem and will look into it. Please try again "
                         "in a little while.", 500, kind="fault", incident=incident)
