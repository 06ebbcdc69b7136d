"""`flask --app service.web ...` commands for operators and for trying things out."""
from __future__ import annotations

import time

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
def start_game(game, players, option):
    """Start GAME for PLAYERS (email addresses, seat order) and send everyone's first email."""
    options = dict(o.split("=", 1) for o in option)
    try:
        started = play.start_game(services(), game, list(players), options)
    except play.PlayError as exc:
        raise click.ClickException(exc.detail) from None
    click.echo(f"started {game} game {started.game_id}; {len(started.outbox_ids)} emails queued")


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
@click.option("--every", type=float, default=0.0,
              help="repeat every N seconds until interrupted (a laptop without beat)")
def sweep(every):
    """One pass of what beat does every minute: the clocks (reminders, timeouts, vacations
    that ended), then every outbox row that is due."""
    while True:
        report = play.timers(services())
        results = play.sweep(services())
        click.echo(f"clocks: {report.reminded} reminders, {report.timed_out} timeouts, "
                   f"{report.resumed} vacations ended; {len(results)} rows: "
                   f"{sorted(set(results.values())) or 'nothing due'}")
        if not every:
            return
        time.sleep(every)


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
