"""Unsubscribing from a game's emails: a page with a button, and RFC 8058 one-click POST."""
from __future__ import annotations

from flask import Blueprint, render_template

from service.links import TokenError
from service.play import admin

from . import pages
from .ext import services

bp = Blueprint("players", __name__)


@bp.get("/u/<token>")
def confirm(token: str):
    try:
        services().urls.signer.loads("unsubscribe", token)
    except TokenError as exc:
        return pages.problem(exc.title, exc.detail, 400)
    return render_template("web/unsubscribe.html", token=token, done=False)


@bp.post("/u/<token>")
def unsubscribe(token: str):
    try:
        claims = services().urls.signer.loads("unsubscribe", token)
    except TokenError as exc:
        return pages.problem(exc.title, exc.detail, 400)
    admin.mute_seat(services(), claims.game, claims.seat)
    return render_template("web/unsubscribe.html", token=token, done=True)
