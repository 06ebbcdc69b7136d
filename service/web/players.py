"""Unsubscribing from a game's emails: a page with a button, and RFC 8058 one-click POST."""
from __future__ import annotations

from flask import Blueprint, current_app, render_template

from service.links import TokenError
from service.store.models import Seat

from . import pages

bp = Blueprint("players", __name__)


@bp.get("/u/<token>")
def confirm(token: str):
    try:
        current_app.extensions["turnpost.signer"].loads("unsubscribe", token)
    except TokenError as exc:
        return pages.problem(exc.title, exc.detail, 400)
    return render_template("web/unsubscribe.html", token=token, done=False)


@bp.post("/u/<token>")
def unsubscribe(token: str):
    try:
        claims = current_app.extensions["turnpost.signer"].loads("unsubscribe", token)
    except TokenError as exc:
        return pages.problem(exc.title, exc.detail, 400)
    db = current_app.extensions["turnpost.db"]
    with db.transaction() as session:
        seat = session.get(Seat, (claims.game, claims.seat))
        if seat is not None:
            seat.muted = True
    return render_template("web/unsubscribe.html", token=token, done=True)
