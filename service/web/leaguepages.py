"""/leagues: the leagues and their seasons' divisions; /leagues/<id>: one league, its standings,
its join link and a member's Leave; /leagues/join/<token>: the signed join link, whose GET
shows the league and whose button joins the signed-in player. Thin: each view calls one use
case (service.play.community.leagues)."""
from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for

from service.mailwire.outbound.catalogs import N_, _
from service.play import community
from service.play.errors import PlayError

from . import pages
from .accountpages import current_account, signed_in
from .community import local_points
from .ext import services

bp = Blueprint("leagues", __name__)

#: what joining answered, said on the join page
JOINED = {"started": N_("You took the last place: season 1 has begun, and your division's "
                        "first games are on their way by email."),
          "joined": N_("You are in. Season 1 starts when every division's places are taken; "
                       "you get an email when it does."),
          "waiting": N_("You are in. A season is being played: you play from the next one, "
                        "and get an email with your division when it starts."),
          "already": N_("You are in this league already; nothing was changed.")}


@bp.get("/leagues")
def leagues_index():
    return render_template("web/leagues.html", leagues=community.leagueshow.listed(services()))


@bp.get("/leagues/<int:league_id>")
def league_page(league_id: int):
    svc = services()
    try:
        view = community.leagueshow.show(svc, league_id)
    except community.leagues.NoSuchLeague as exc:
        return pages.problem(exc.title, exc.detail, 404)
    return render_template("web/league.html", league=view, me=current_account(),
                           join=svc.urls.league_join_path(league_id),
                           line_text=community.line_text, points_text=local_points)


@bp.get("/leagues/join/<token>")
def join_page(token: str):
    """The link's page and its button (a GET changes nothing: mail scanners follow links);
    a damaged or foreign link is answered as every link's is."""
    svc = services()
    view = community.leagueshow.show(svc, community.leagues.read_token(svc, token))
    return render_template("web/league_join.html", league=view, token=token, done=None,
                           me=current_account())


@bp.post("/leagues/join/<token>")
def join(token: str):
    """The link is read before anything else, so a damaged one is answered alike signed in
    or not; then whoever is signed in joins (signed out: sign in, and back to the link)."""
    svc = services()
    community.leagues.read_token(svc, token)
    me = current_account()
    if me is None:
        return redirect(url_for("accounts.sign_in_form", next=request.path))
    try:
        done = community.leagues.join(svc, token, me.id)
    except PlayError as exc:
        return pages.problem(exc.title, exc.detail, 409)
    view = community.leagueshow.show(svc, community.leagues.read_token(svc, token))
    return render_template("web/league_join.html", league=view, token=token, done=_(JOINED[done]),
                           me=me)


@bp.post("/leagues/<int:league_id>/leave")
@signed_in
def leave(me, league_id: int):
    try:
        community.leagues.leave(services(), league_id, me.id)
    except PlayError as exc:
        return pages.problem(exc.title, exc.detail, 409,
                             links=[(url_for("leagues.league_page", league_id=league_id),
                                     _("Back to the league"))])
    flash(_("You have left the league: you finish this season's games, and are not in the "
            "next season."))
    return redirect(url_for("leagues.league_page", league_id=league_id))
