"""Profiles (/players/<handle>), leaderboards (/ratings, /ratings/<game>) and the player's
choice on /me to hide their profile. Thin: each view calls one use case of
service.play.community."""
from __future__ import annotations

from datetime import timedelta

from flask import Blueprint, abort, redirect, render_template, request, session, url_for
from flask_babel import format_decimal

from service.mailwire.outbound.catalogs import _, ngettext
from service.play import community
from service.play.errors import PlayError
from service.play.players import accounts

from . import pages
from .accountpages import signed_in
from .ext import services
from .rating_chart import chart

bp = Blueprint("community", __name__)


@bp.get("/players/<handle>")
def profile(handle: str):
    found = community.profile(services(), handle[:60], session.get("player"))
    if found is None:          # a hidden profile answers as a missing one
        abort(404)
    charts = {r.kind: chart(r.kind, r.title, list(r.history)) for r in found.ratings}
    return render_template("web/profile.html", p=found, charts=charts,
                           provisional_until=community.PROVISIONAL_UNTIL)


@bp.get("/ratings")
def boards():
    return render_template("web/leaderboards.html", games=community.rated_games(services()))


@bp.get("/ratings/<kind>")
def board(kind: str):
    try:
        found = community.board(services(), kind[:40])
    except PlayError as exc:
        return pages.problem(exc.title, exc.detail, 404)
    return render_template("web/leaderboard.html", board=found,
                           provisional_until=community.PROVISIONAL_UNTIL)


@bp.post("/me/profile")
@signed_in
def hide(me: accounts.Account):
    community.hide_profile(services(), me.id, request.form.get("hidden") == "on")
    return redirect(url_for("accounts.me"))


@bp.app_template_filter("duration")
def duration(span: timedelta) -> str:
    """A time to move as people say it: "4 minutes", "5 hours", "2.5 days" ("2,5 Tage")."""
    minutes = span.total_seconds() / 60
    if minutes < 1:
        return _("under a minute")
    if minutes < 90:
        return ngettext("%(num)d minute", "%(num)d minutes", round(minutes))
    if minutes < 48 * 60:
        return ngettext("%(num)d hour", "%(num)d hours", round(minutes / 60))
    days = round(minutes / (24 * 60), 1)
    # the plural form of a fraction is the "many" one in our three languages (1.5 days)
    return _("%(days)s days", days=format_decimal(days, format="#,##0.#"))


def local_points(points: float | None) -> str:
    """A tournament's or a league's points as the page's language writes them ("1.5",
    "1,5"); nothing for none."""
    return "" if points is None else format_decimal(points, format="#,##0.##")
