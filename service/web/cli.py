"""`flask --app service.web ...` commands for operators and for trying things out."""
from __future__ import annotations

import click

from service import play
from service.play import admin
from service.store.migrate import upgrade

from .ext import services


def init_app(app) -> None:
    for command in (init_db, start_game, sweep, outbox, retry, move, inbound):
        app.cli.add_command(command)


@click.command("init-db")
def init_db():
    """Create or upgrade the database schema (Alembic migrations)."""
    upgrade(services().settings["TURNPOST_DATABASE_URL"])
    click.echo("database is up to date")


@click.command("start-game")
@click.argument("game")
@click.argument("players", nargs=-1, required=True)
@click.option("--option", "-o", multiple=True, help="name=value, e.g. -o turn_cap=200")
@click.option("--no-mail", is_flag=True, help="mail nobody (a practice game played on the page)")
def start_game(game, players, option, no_mail):
    """Start GAME for PLAYERS (email addresses, or bot / bot:easy / bot:normal; seat order)
    and send everyone's first email. Prints the link to each person's seat."""
    options = dict(o.split("=", 1) for o in option)
    svc = services()
    try:
        started = play.start_game(svc, game, list(players), options, mail=not no_mail)
    except play.PlayError as exc:
        raise click.ClickException(exc.detail) from None
    click.echo(f"started {game} game {started.game_id}; {len(started.outbox_ids)} emails queued")
    for seat, who in enumerate(players):
        if not play.is_bot_entry(who):
            link = svc.urls.absolute(svc.urls.game_path(started.game_id, seat))
            click.echo(f"seat {seat + 1} ({who.strip()}): {link}")


@click.command("move")
@click.argument("game_id", type=int)
@click.argument("seat", type=int)
@click.argument("command", nargs=-1, required=True)
def move(game_id, seat, command):
    """Play COMMAND (as a player would write it) for SEAT (0-based) in GAME_ID."""
    try:
        applied = play.submit(services(), play.Intent(game_id, seat, lines=[" ".join(command)],
                                                      source="cli"))
    except play.PlayError as exc:
        raise click.ClickException(exc.detail) from None
    click.echo(f"applied as events {applied.first_seq}..{applied.last_seq}")


@click.command("sweep")
def sweep():
    """Send every outbox row that is due (what the beat schedule does every minute)."""
    results = play.sweep(services())
    click.echo(f"{len(results)} rows: {sorted(set(results.values())) or 'nothing due'}")


@click.command("outbox")
@click.option("--status", default="parked", help="pending | sending | sent | parked | skipped")
def outbox(status):
    """List outbox rows (by default the parked ones an operator must look at)."""
    rows = admin.outbox(services(), status)
    for r in rows:
        click.echo(f"{r.id}\tgame {r.game_id}\t{r.to_addr}\t{r.kind}\t"
                   f"attempts {r.attempts}\t{r.last_error}")
    click.echo(f"{len(rows)} {status}")


@click.command("retry")
@click.argument("row_ids", type=int, nargs=-1, required=True)
def retry(row_ids):
    """Put parked outbox rows back in the queue and send them."""
    click.echo(f"requeued {play.requeue(services(), list(row_ids))}")


@click.command("inbound")
@click.option("--status", default="failed",
              help="received | processing | applied | answered | refused | ignored | failed")
def inbound(status):
    """List stored inbound mail by what became of it (by default: processing failed)."""
    rows = admin.inbound(services(), status)
    for r in rows:
        click.echo(f"{r.id}\t{r.via}\t{r.message_id}\t{r.outcome}")
    click.echo(f"{len(rows)} {status}")
