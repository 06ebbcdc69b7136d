"""What a person sees when something goes wrong: never a bare 500.

* A link that does not work (damaged, expired, made for something else): 400 with what
  happened and what to do, for every view that reads a token.
* Any unexpected exception: a friendly page with an incident id, and one log line with the
  same id and the traceback, so a player's email can be matched to it.
* The database is unreachable (a restart, a failover): 503 with Retry-After; a page that was
  only being read reloads itself a few seconds later. A pooled connection the restart ended
  is replaced before use (service.store.liveness), so once the database is back the next
  request works.
* An address with nothing at it: a page saying where to go instead.
* Under /api/ each of these is a problem document (service.web.problems) with the same
  status and words, never an HTML page: a client reads JSON whatever went wrong.
"""
from __future__ import annotations

import secrets

from flask import current_app, request, url_for
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from werkzeug.exceptions import InternalServerError, MethodNotAllowed, NotFound

from service.linking.signer import Expired, TokenError
from service.mailwire.outbound.catalogs import N_, _

from . import pages, problems, refusals
from .problems import Problem

RETRY_AFTER = 5


def init_app(app) -> None:
    refusals.init_app(app)
    app.register_error_handler(TokenError, token_error)
    app.register_error_handler(DBAPIError, database_error)
    app.register_error_handler(InternalServerError, server_error)
    # routing misses are the app's to answer (a blueprint's handlers never see them); these
    # take a 404 or 405 raised inside a view too
    app.register_error_handler(NotFound, not_found)
    app.register_error_handler(MethodNotAllowed, method_not_allowed)


def not_found(exc: NotFound):
    if problems.for_api():
        return problems.respond(Problem(404, N_("Not found"), _(
            "There is nothing at %(path)s. The API's operations are listed at "
            "/api/v1/openapi.json.", path=request.path)))
    return pages.problem(N_("Nothing here"), N_("There is no page at this address. Your games are "
                                                "on My games; a new game starts from the front "
                                                "page."), 404)


def method_not_allowed(exc: MethodNotAllowed):
    allowed = ", ".join(exc.valid_methods or ())
    if problems.for_api():
        return problems.respond(Problem(405, N_("Method not allowed"), _(
            "%(path)s takes %(allowed)s, not %(method)s.", path=request.path,
            allowed=allowed or _("other methods"), method=request.method)),
                                headers={"Allow": allowed} if allowed else None)
    return exc


def token_error(exc: TokenError):
    """A damaged, expired or wrong-purpose link, wherever it was opened: what happened, and
    what to do instead (each TokenError says both). An expired link to a game offers what
    still works: signing in, which leads to that game's page, or a reply `view`. The words
    are the reader's language's (the error's `detail`; the page translates its title)."""
    if isinstance(exc, Expired) and exc.game is not None:
        return pages.problem(
            exc.title, exc.detail + " " + _("Sign in to go to the game, or reply “view” to "
                                            "any email of this game for a fresh copy with new "
                                            "links."), 400,
            links=[(url_for("accounts.sign_in_form", next=f"/me/games/{exc.game}"),
                    _("Sign in and go to the game"))])
    if isinstance(exc, Expired):
        return pages.problem(exc.title, exc.detail + " " + _(
            "Sign in to see your games, or reply “view” to the game's email for fresh links."),
            400, links=[(url_for("accounts.sign_in_form"), _("Sign in"))])
    return pages.problem(exc.title, exc.detail, 400)


def is_disconnect(exc: BaseException | None) -> bool:
    return isinstance(exc, (OperationalError, InterfaceError)) or bool(
        isinstance(exc, DBAPIError) and exc.connection_invalidated)


def database_error(exc: DBAPIError):
    if not is_disconnect(exc):
        return incident_page(exc)
    current_app.logger.warning("database unavailable (%s %s): %s", request.method,
                               request.path, str(exc).splitlines()[0][:200])
    if problems.for_api():
        return problems.respond(Problem(
            503, "Back in a moment", "The game store is briefly unavailable (a restart, most "
            f"likely). Try again in {RETRY_AFTER} seconds; after a move, read the game first "
            "to see whether it was made (or send it again with the same Idempotency-Key)."),
            headers={"Retry-After": str(RETRY_AFTER)})
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
    if problems.for_api():
        return problems.respond(Problem(500, "Something went wrong on our side", "We have "
                                        "logged the problem; please try again in a little "
                                        "while, and quote the incident id if you write to us.",
                                        incident=incident))
    return pages.problem(N_("Something went wrong on our side"),
                         N_("We have logged the problem and will look into it. Please try "
                            "again in a little while."), 500, kind="fault", incident=incident)
