"""`flask --app service.web ...` commands for operators and for trying things out."""
from __future__ import annotations

import time

import click
from flask.cli import AppGroup, with_appcontext

from service import play
from service.play.mail import rerun
from service.play.players import personaltokens
from service.play.reads import admin
from service.store.migrate import upgrade

from .ext import services


def init_app(app) -> None:
    for command in (init_db, start_game, sweep, prune, retry, move, inbound, api_token):
        app.cli.add_command(command)


@click.command("init-db")
def init_db():
    """Create or upgrade the database schema (Alembic migrations)."""
    upgrade(services().settings.DATABASE_URL)
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
    click.echo(f"started {game} game {started.game_id}; {len(started.outbox_ids)} "
               f"{'email' if len(started.outbox_ids) == 1 else 'emails'} queued")
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
        ran = play.runner.run(services(), play.Intent(game_id, seat, lines=[" ".join(command)],
                                                      source="cli"))
    except play.PlayError as exc:
        raise click.ClickException(exc.detail) from None
    if ran.applied is not None:
        click.echo(f"applied as events {ran.applied.first_seq}..{ran.applied.last_seq}")
    for answer in ran.texts:      # a word (help, resign ...): its answer
        click.echo(answer)


@click.command("sweep")
@click.option("--every", type=float, default=0.0,
              help="repeat every N seconds until interrupted (a laptop without beat)")
def sweep(every):
    """One pass of what beat does every minute: the clocks (reminders, timeouts, vacations
    that ended), then every outbox row that is due."""
    while True:
        report = play.timers(services(), shards=1)     # whole, here: its figures are printed
        results = play.sweep(services())
        click.echo(f"clocks: {report.reminded} reminders, {report.timed_out} timeouts, "
                   f"{report.resumed} vacations ended; {len(results)} rows: "
                   f"{sorted(set(results.values())) or 'nothing due'}")
        if not every:
            return
        time.sleep(every)


@click.command("prune")
def prune():
    """Delete sent emails' outbox rows, moves' receipts and processed replies older than their
    retention (TURNPOST_OUTBOX_RETENTION_DAYS, _RECEIPT_, _INBOUND_), players' account changes
    done with and old sign-in links (docs/operating.md, What is kept): what beat does daily."""
    pruned = play.prune(services())
    click.echo(f"deleted {pruned.outbox} outbox rows, {pruned.receipts} receipts, "
               f"{pruned.inbound} stored replies, {pruned.account_changes} account changes "
               f"and {pruned.sign_ins} sign-in links")


@click.command("retry")
@click.argument("row_ids", type=int, nargs=-1, required=True)
def retry(row_ids):
    """Put parked outbox rows back in the queue and send them."""
    click.echo(f"requeued {play.requeue(services(), list(row_ids))}")


@click.group("inbound", cls=AppGroup, invoke_without_command=True)
@click.option("--status", default="failed",
              help="received | processing | retrying | applied | answered | refused | "
                   "ignored | failed")
@click.pass_context
@with_appcontext
def inbound(ctx, status):
    """List stored inbound mail by what became of it (by default: processing failed);
    `retry ID…` runs failed ones again."""
    if ctx.invoked_subcommand is not None:
        return
    rows = admin.inbound(services(), status)
    for r in rows:
        click.echo(f"{r.id}\t{r.via}\t{r.message_id}\t{r.outcome}")
    click.echo(f"{len(rows)} {status}")


@inbound.command("retry")
@click.argument("inbound_ids", type=int, nargs=-1, required=True)
def inbound_retry(inbound_ids):
    """Process failed inbound messages INBOUND_IDS again (after the bug that failed them is
    fixed) and say what became of each. Messages that did not fail are left alone."""
    for inbound_id, said in rerun.retry_failed(services(), list(inbound_ids)):
        click.echo(f"{inbound_id}\t{said}")


@click.group("api-token", cls=AppGroup)
def api_token():
    """Personal API tokens (also made on the API tokens page linked from each game page)."""


@api_token.command("create")
@click.argument("address")
@click.option("--label", default="", help="what the token is for")
@click.option("--feed", is_flag=True, help="a token for calendar and feed URLs instead")
def api_token_create(address, label, feed):
    """Make a token for the player of ADDRESS and print it (shown this once)."""
    try:
        token_id, token = personaltokens.create(services(), address, label, "feed" if feed else "api")
    except play.PlayError as exc:
        raise click.ClickException(exc.detail) from None
    click.echo(f"token {token_id} for {address}: {token}")


@api_token.command("revoke")
@click.argument("address")
@click.argument("token_id", type=int)
def api_token_revoke(address, token_id):
    """Revoke token TOKEN_ID of the player of ADDRESS."""
    try:
        done = personaltokens.revoke(services(), address, token_id)
    except play.PlayError as exc:
        raise click.ClickException(exc.detail) from None
    if not done:
        raise click.ClickException(f"{address} has no live token {token_id}")
    click.echo(f"revoked token {token_id}")


@api_token.command("list")
@click.argument("address")
def api_token_list(address):
    """List the tokens of the player of ADDRESS (never the tokens themselves)."""
    try:
        rows = personaltokens.listed(services(), address)
    except play.PlayError as exc:
        raise click.ClickException(exc.detail) from None
    for r in rows:
        click.echo(f"{r.id}\t{r.scope}\t{r.label}\t{r.created_at:%Y-%m-%d}\t"
                   f"{'revoked' if r.revoked_at else 'live'}")
