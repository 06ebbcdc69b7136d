"""`flask leagues create`, `show` and `close`: a league, its join link, its season's divisions
with their standings, and its end (service.play.community.leagues)."""
from __future__ import annotations

import click
from flask.cli import AppGroup

from service.play import PlayError, community

from .ext import services

leagues = AppGroup("leagues", help="Leagues of seasons in divisions: create, show, close.")


@leagues.command("create")
@click.argument("game")
@click.argument("entrants", nargs=-1)
@click.option("--divisions", type=int, required=True, help="how many divisions, 1 the top")
@click.option("--size", type=int, required=True, help="players in each division")
@click.option("--season-days", type=int, required=True,
              help="the days a season is planned for: sizes each game's clock")
@click.option("--promote", type=int, default=1, show_default=True,
              help="players moving up and down between divisions at a season's end")
def create(game, entrants, divisions, size, season_days, promote):  # noqa: PLR0913
    """A league of GAME; ENTRANTS (email addresses, or bot:easy / bot:normal) are in it at
    once, others join by the link printed. The first season starts when it is full."""
    svc = services()
    try:
        made = community.leagues.create(svc, game, divisions, size, season_days, promote,
                                        list(entrants))
    except PlayError as exc:
        raise click.ClickException(exc.detail) from None
    click.echo(f"league {made.league_id}: " + (
        "season 1 started" if made.started else
        f"{len(entrants)} of {divisions * size} places taken; season 1 starts when full"))
    click.echo(f"join link: {svc.urls.absolute(svc.urls.league_join_path(made.league_id))}")
    click.echo(svc.urls.absolute(f"/leagues/{made.league_id}"))


@leagues.command("show")
@click.argument("league_id", type=int)
def show(league_id):
    """The league's terms, each division of its season with its standings, who waits, and
    its join link."""
    svc = services()
    try:
        view = community.leagueshow.show(svc, league_id)
    except PlayError as exc:
        raise click.ClickException(exc.detail) from None
    click.echo(f"{view.title} league {view.id}: {view.status}, season {view.season}; "
               f"{view.divisions} divisions of {view.size}, {view.promote} up and down, "
               f"{view.season_days}-day seasons ({view.clock})")
    for division in view.shown:
        state = "ended" if division.over else "playing"
        click.echo(f"division {division.number} (tournament {division.tournament_id}, "
                   f"{state}):")
        for place, line in enumerate(division.standings, 1):
            click.echo("  " + community.line_text(place, line, "round-robin").strip())
    if view.waiting:
        click.echo("waiting for a place: " + ", ".join(view.waiting))
    click.echo(f"join link: {svc.urls.absolute(svc.urls.league_join_path(view.id))}")


@leagues.command("close")
@click.argument("league_id", type=int)
def close(league_id):
    """Close the league: at once while it forms, else when the season being played ends (it
    plays to its end; no next season starts). Nobody can join it any more."""
    try:
        status = community.leagues.close(services(), league_id)
    except PlayError as exc:
        raise click.ClickException(exc.detail) from None
    click.echo(f"league {league_id}: " + ("closed" if status == "closed" else
                                          "closing: the season being played is its last"))
