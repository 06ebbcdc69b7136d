"""`flask tournaments create` and `flask tournaments show`: a tournament whose entrants are
entered at once (as `flask start-game` seats its players), and its standings."""
from __future__ import annotations

import click
from flask.cli import AppGroup

from service.play import PlayError, community

from .ext import services

tournaments = AppGroup("tournaments", help="Correspondence tournaments: create, show.")


@tournaments.command("create")
@click.argument("game")
@click.argument("entrants", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(community.FORMATS), default="swiss",
              show_default=True)
@click.option("--rounds", type=int, default=None,
              help="a Swiss's rounds (a round robin plays everyone once)")
@click.option("--table", type=int, default=None,
              help="players at each table of a Swiss (default 2)")
@click.option("--clock", default=None, help="each game's time per move, e.g. 3d")
@click.option("--rated/--unrated", default=True, show_default=True)
@click.option("--no-vacation", is_flag=True, help="vacations do not stop these games' clocks")
def create(game, entrants, fmt, rounds, table, clock, rated, no_vacation):  # noqa: PLR0913
    """A tournament of GAME for ENTRANTS (email addresses, or bot:easy / bot:normal); its first
    round starts now."""
    svc = services()
    try:
        made = community.create(svc, game, fmt, rounds, list(entrants), clock=clock,
                                rated=rated, no_vacation=no_vacation, table=table)
    except PlayError as exc:
        raise click.ClickException(exc.detail) from None
    click.echo(f"tournament {made.tournament_id}: round 1 started, {len(made.games)} "
               f"{'game' if len(made.games) == 1 else 'games'}")
    click.echo(svc.urls.absolute(f"/tournaments/{made.tournament_id}"))


@tournaments.command("show")
@click.argument("tournament_id", type=int)
def show(tournament_id):
    """The standings, then each round's games."""
    try:
        view = community.show(services(), tournament_id)
    except PlayError as exc:
        raise click.ClickException(exc.detail) from None
    state = "ended" if view.status == "ended" else f"round {view.round} of {view.rounds}"
    click.echo(f"{view.title} {view.format} tournament {view.id}: {state}")
    for place, line in enumerate(view.standings, 1):
        click.echo(community.line_text(place, line, view.format))
    for r in view.played:
        click.echo(f"round {r.number}:")
        for table in r.tables:
            result = " ".join(community.points_text(p) for p in table.points) \
                if table.over else "playing"
            click.echo(f"  game {table.game_id}: {' - '.join(table.players)}  {result}")
        for name in r.byes:
            click.echo(f"  bye: {name}")
