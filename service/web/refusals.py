"""A use case's refusal (a PlayError) as the web answers it, in one handler: under /api/ an RFC
9457 problem document, elsewhere a page with the status its kind calls for. A view that answers
otherwise (its form shown again with the words beside it, or another status) says how with
@on_refusal; its try/except is then only for what it genuinely does differently."""
from __future__ import annotations

from collections.abc import Callable

from flask import current_app, g, request

from service import play
from service.play.reads import apireads

from . import openapi, pages, problems
from .ext import services
from .problems import Problem

#: a page's status for each kind; any other PlayError is a conflict
PAGE_STATUS = {play.NoSuchGame: 404, play.NotYourSeat: 403, play.Refused: 422}
CONFLICT = 409

Answer = Callable[..., object]


def init_app(app) -> None:
    app.register_error_handler(play.PlayError, answer)


def on_refusal(answer_with: Answer, unless: tuple[type[play.PlayError], ...] = ()):
    """Mark a view: a PlayError it raises is answered by `answer_with(exc, **view_args)`,
    except the kinds in `unless`, which get the usual page. Put it below the route."""
    def mark(view):
        view.on_refusal = (answer_with, unless)
        return view
    return mark


def problem_page(status: int, **extra) -> Answer:
    """An answer for on_refusal: the problem page with this status for every kind."""
    def answer_with(exc: play.PlayError, **_view_args):
        return pages.problem(exc.title, exc.detail, status, **extra)
    return answer_with


def answer(exc: play.PlayError):
    if problems.for_api():
        return problems.respond(problem_document(exc))
    view = current_app.view_functions.get(request.endpoint or "")
    answer_with, unless = getattr(view, "on_refusal", (None, ()))
    if answer_with is not None and not isinstance(exc, unless):
        return answer_with(exc, **(request.view_args or {}))
    return pages.problem(exc.title, exc.detail, page_status(exc))


def page_status(exc: play.PlayError) -> int:
    return next((PAGE_STATUS[k] for k in type(exc).__mro__ if k in PAGE_STATUS), CONFLICT)


def problem_document(exc: play.PlayError) -> Problem:
    if isinstance(exc, play.NoSuchGame):
        return Problem(404, exc.title, exc.detail)
    if isinstance(exc, play.PositionChanged):
        now = apireads.current(services(), request.view_args["game_id"], g.api_player.player_id)
        return Problem(409, exc.title, exc.detail, openapi.STALE, **now)
    if isinstance(exc, play.Refused):
        return Problem(422, exc.title, exc.detail, openapi.REFUSED, line=exc.text,
                       suggestions=exc.suggestions)
    # a word of a batch refused (service.play.moves.runner names its line)
    line = getattr(exc, "text", "")
    return Problem(409, exc.title, exc.detail, **({"line": line} if line else {}))
