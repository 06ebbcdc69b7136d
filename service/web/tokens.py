"""A player's personal API tokens and feed links: list, create (shown once), revoke. At
/me/tokens for a signed-in player, and on a page reached from each game page (its signed link
names the seat, and so the player), which works without signing in."""
from __future__ import annotations

from flask import Blueprint, render_template, request

from service.play.players import personaltokens

from . import pages
from .accountpages import signed_in
from .ext import services

bp = Blueprint("tokens", __name__)


def _email(view_token: str) -> str:
    claims = services().urls.signer.loads("view", view_token)
    return personaltokens.seat_email(services(), claims.game, claims.seat)


@bp.route("/g/<token>/tokens", methods=["GET", "POST"])
def seat_tokens(token: str):
    try:
        email = _email(token)
    except personaltokens.UnknownPlayer as exc:
        return pages.problem(exc.title, exc.detail, 400)
    return _change(token, email) if request.method == "POST" else _page(token, email)


@bp.route("/me/tokens", methods=["GET", "POST"])
@signed_in
def my_tokens(me):
    return _change("", me.email) if request.method == "POST" else _page("", me.email)


def _change(token: str, email: str):
    created = scope = None
    if request.form.get("revoke"):
        personaltokens.revoke(services(), email, request.form.get("revoke", type=int) or 0)
    else:
        scope = "feed" if request.form.get("scope") == "feed" else "api"
        _, created = personaltokens.create(services(), email, request.form.get("label", ""), scope)
    return _page(token, email, created, scope)


def _page(token: str, email: str, created: str | None = None, scope: str | None = None):
    urls = services().urls
    feeds = [urls.absolute(f"/feeds/{created}/deadlines.ics"),
             urls.absolute(f"/feeds/{created}/moves.atom")] if scope == "feed" else []
    return render_template("web/tokens.html", token=token, email=email, created=created,
                           feeds=feeds, rows=personaltokens.listed(services(), email),
                           api=urls.absolute("/api/v1"))
