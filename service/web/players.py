"""Unsubscribing from a game's emails: a page with a button, and RFC 8058 one-click POST."""
from __future__ import annotations

from flask import Blueprint, render_template

from service.play.reads import admin

from .ext import services

bp = Blueprint("players", __name__)


@bp.get("/u/<token>")
def confirm(token: str):
    services().urls.signer.loads("unsubscribe", token)
    return render_template("web/unsubscribe.html", token=token, done=False)


@bp.post("/u/<token>")
def unsubscribe(token: str):
    claims = services().urls.signer.loads("unsubscribe", token)
    admin.mute_seat(services(), claims.game, claims.seat)
    return render_template("web/unsubscribe.html", token=token, done=True)
