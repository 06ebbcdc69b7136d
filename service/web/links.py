"""Moves by signed link. GET (and HEAD) only show the move and a button: mail scanners and link
previews follow links, so nothing changes until a person presses the button, which POSTs."""
from __future__ import annotations

import hashlib
import secrets

from flask import Blueprint, current_app, flash, redirect, render_template, request

from service import play
from service.display.seatview import waiting_for
from service.games import registry
from service.linking.signer import Claims
from service.mailwire.outbound.catalogs import _
from service.mailwire.outbound.templating import game_partial

from . import pages
from .ext import services

bp = Blueprint("links", __name__)


def _claims(token: str) -> Claims:
    return services().urls.signer.loads("move", token)


def _game_link(claims: Claims) -> str:
    return services().urls.game_path(claims.game, claims.seat, claims.holder)


@bp.get("/m/<token>")
def confirm(token: str):
    claims = _claims(token)
    read = play.read_game(services(), claims.game, pages.seat_reader(claims),
                          with_history=False)
    page = read.page
    engine_text = _describe(page.kind, claims.move)
    stale = page.mark != claims.mark
    # the link's button was pressed already: its move's idempotency record says so (None,
    # "done": the position is still the one it made, "moved on": it changed since)
    made = play.made_already(services(), claims.game, claims.seat, link_key(token))
    return render_template("web/confirm.html", page=page, view=page.view, names=page.names,
                           me=page.me, move_text=engine_text, token=token, stale=stale,
                           made=made, game_link=_game_link(claims),
                           elsewhere=pages.someone_elses_seat(read),
                           partial_html=game_partial(current_app.jinja_env, page.kind, "html"))


@bp.post("/m/<token>")
def act(token: str):
    claims = _claims(token)
    # the token itself is the idempotency key: a double click applies the move once
    key = link_key(token)
    from_page = request.form.get("then") == "game"   # a button on the game page
    # a link from an email is one whole turn (M9); the page's buttons compose one step by step
    intent = play.Intent(claims.game, claims.seat, moves=[claims.move], expected=claims.mark,
                         source="link", key=key, whole_turn=not from_page,
                         holder=claims.holder)
    game_link = _game_link(claims)
    upnext = None
    # each refusal has its own page here: done, the position as it is now, or a way back
    try:
        if from_page:
            applied = play.submit(services(), intent)
        else:
            # the game waiting on this player longest, offered once this one waits on others
            # (issue 50): read in the move's transaction, before its writes
            applied, upnext = play.submit_then_next(services(), intent)
    except play.AlreadyDone as exc:
        return pages.problem(exc.title, exc.detail, 200, game_link, kind="done")
    except play.PositionChanged as exc:
        # "here is the position as it is now": the seat's game page, with the answer on top
        return _as_it_is_now(claims, exc)
    except play.NotYourSeat as exc:
        return pages.problem(exc.title, exc.detail, 403)
    except play.Refused as exc:
        return pages.problem(exc.title, exc.detail, 422, game_link)
    except play.PlayError as exc:
        return pages.problem(exc.title, exc.detail, 409, game_link)
    move_text = _describe(applied.kind, claims.move)
    if from_page:
        flash(_("Done: %(move)s.", move=move_text))
        return redirect(game_link)
    return render_template("web/done.html", applied=applied, game_link=game_link,
                           next_game=None if claims.seat in applied.to_act else upnext,
                           move_text=move_text, your_turn=claims.seat in applied.to_act,
                           # the link's whole turn added the move that ends an open turn
                           turn_closed=len(applied.moves) > 1 and applied.moves[-1] != claims.move,
                           people_next=waiting_for(applied.names, [
                               s for s in applied.to_act if s not in applied.bots], claims.seat),
                           bots_next=waiting_for(applied.names, [
                               s for s in applied.to_act if s in applied.bots], claims.seat))


def link_key(token: str) -> str:
    """A move link's idempotency key: the token itself (hashed to a short key)."""
    return "link:" + hashlib.sha256(token.encode()).hexdigest()[:40]


def _as_it_is_now(claims: Claims, exc: play.PositionChanged):
    try:
        read = play.read_game(services(), claims.game, pages.seat_reader(claims))
    except play.PlayError:
        return pages.problem(exc.title, exc.detail, 409, _game_link(claims))
    view_token = _game_link(claims).rsplit("/", 1)[-1]
    return pages.render_game(read, view_token=view_token, nonce=secrets.token_urlsafe(16),
                             error=exc), 409


def _describe(kind: str, move) -> str:
    try:
        return registry.get(kind).describe(move)
    except Exception:  # noqa: BLE001 - a forged-but-signed move cannot happen; be safe anyway
        return "this move"
