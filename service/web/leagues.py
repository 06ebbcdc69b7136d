"""Leagues (issue 50): the lobby page /leagues (each league's divisions as they stand, and for
a signed-in player its join link, signed so that only the link the page gives joins), and
`flask leagues create / enter / show` for the operator."""
from __future__ import annotations

import click
from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.cli import AppGroup

from service.play import PlayError, community

from .accounts import current_account
from .ext import services

bp = Blueprint("leagues", __name__)


@bp.get("/leagues")
def lobby():
    me = current_account()
    urls = services().urls
    shown = community.leagues.listed(services())
    joins = {x.id: urls.league_join_path(x.id) for x in shown} if me else {}
    return render_template("web/leagues.html", leagues=shown, joins=joins, me=me)


@bp.route("/leagues/join/<token>", methods=["GET", "POST"])
def join(token: str):
    """GET shows the league and one button; POST joins the signed-in player."""
    league_id = services().urls.signer.loads("league", token).game
    me = current_account()
    if me is None:
        return redirect(url_for("accounts.sign_in_form", next=request.path))
    if request.method == "POST":
        try:
            flash(community.leagues.join(services(), league_id, me.id))
        except community.leagues.LeagueRefused as exc:
            flash(exc.detail)
        return redirect(url_for("leagues.lobby") + f"#league-{league_id}")
    return render_template("web/league_join.html", league=community.leagues.show(
        services(), league_id), token=token)


leagues = AppGroup("leagues", help="Leagues: create, enter, show.")


@leagues.command("create")
@click.argument("game")
@click.option("--divisions", type=int, default=1, show_default=True)
@click.option("--size", type=int, default=6, show_default=True, help="players in a division")
@click.option("--season-days", type=int, default=60, show_default=True)
@click.option("--promote", type=int, default=1, show_default=True,
              help="players moved up and down between divisions at each season's end")
def create(game, divisions, size, season_days, promote):
    """A league of GAME; its first season starts once divisions x size players joined."""
    svc = services()
    try:
        made = community.leagues.create(svc, game, divisions, size, season_days, promote)
    except PlayError as exc:
        raise click.ClickException(exc.detail) from None
    click.echo(f"league {made}: waiting for {divisions * size} players")
    click.echo(svc.urls.absolute(f"/leagues#league-{made}"))


@leagues.command("enter")
@click.argument("league_id", type=int)
@click.argument("entrants", nargs=-1, required=True)
def enter(league_id, entrants):
    """Enter ENTRANTS (email addresses, or bot:easy / bot:normal) in LEAGUE_ID."""
    try:
        count = community.leagues.enter(services(), league_id, list(entrants))
    except PlayError as exc:
        raise click.ClickException(exc.detail) from None
    click.echo(f"league {league_id}: {count} members")


@leagues.command("show")
@click.argument("league_id", type=int)
def show(league_id):
    """The league's terms, then each division as it stands this season."""
    try:
        x = community.leagues.show(services(), league_id)
    except PlayError as exc:
        raise click.ClickException(exc.detail) from None
    click.echo(f"{x.title} league {x.id}: season {x.season} ({x.status}), {x.divisions} "
               f"divisions of {x.size}, {x.season_days} days a season, {x.promote} up and "
               f"down; {x.joined} members")
    for d in x.table:
        where = f" (tournament {d.tournament_id})" if d.tournament_id else ""
        click.echo(f"division {d.number}{where}: " + ", ".join(d.members))
