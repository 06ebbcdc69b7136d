"""Operators' commands for one game, the outbox and players:

    flask games list [--status active|ended] [--waiting-on ADDRESS]
    flask games show ID                 log, seats, outbox rows, inbound rows
    flask games export ID > game.json   a verifiable JSON log (rules version, SHA-256)
    flask games import game.json        refused if edited or if it does not replay
    flask outbox [--status parked]      list rows (also `flask outbox list`)
    flask outbox resend ID              send one row again (composed anew), whatever became of it
    flask outbox retry-parked           every parked row back in the queue
    flask players mute ADDRESS          no more mail to that address, in any game
    flask players export ADDRESS > p.json   everything of the player's, as JSON
    flask players readdress OLD NEW     the account moves to NEW; OLD is mailed no more
    flask players erase ADDRESS         games resigned, every row naming them gone or anonymous
    flask players webhook ADDRESS URL [--kind json|discord|slack]   a webhook; prints its secret
"""
from __future__ import annotations

import json

import click
from flask.cli import AppGroup

from service import play
from service.play.errors import PlayError
from service.play.players import erasure, hooks, readdress
from service.play.reads import admin, gamefile, mydata
from service.play.time import calendar

from .ext import services


def init_app(app) -> None:
    for group in (games, outbox, players):
        app.cli.add_command(group)


@click.group("games", cls=AppGroup)
def games():
    """Look at games, export and import them."""


@games.command("list")
@click.option("--status", default=None, help="active | ended")
@click.option("--waiting-on", default=None, metavar="ADDRESS",
              help="only games where ADDRESS is to move")
def games_list(status, waiting_on):
    """Games, newest first, with whose move it is."""
    rows = admin.games(services(), status, waiting_on)
    for g in rows:
        click.echo(f"{g.id}\t{g.kind}\t{g.status}\tseq {g.seq}\t{', '.join(g.players)}\t"
                   f"to move: {', '.join(g.to_act) or '-'}")
    click.echo(f"{len(rows)} games")


@games.command("show")
@click.argument("game_id", type=int)
def games_show(game_id):
    """One game: seats, event log, outbox rows and the inbound mail answered."""
    try:
        d = admin.game_detail(services(), game_id)
    except play.PlayError as exc:
        raise click.ClickException(exc.detail) from None
    g = d.summary
    click.echo(f"game {g.id}: {g.kind} (rules version {d.rules_version}), {g.status}, "
               f"seq {g.seq}, to move: {', '.join(g.to_act) or '-'}")
    for title, lines in (("seats", d.seats), ("log", d.log), ("outbox", d.outbox),
                         ("inbound", d.inbound)):
        click.echo(f"\n{title} ({len(lines)}):")
        for line in lines:
            click.echo(f"  {line}")


@games.command("export")
@click.argument("game_id", type=int)
def games_export(game_id):
    """Print GAME_ID as a verifiable JSON document (redirect it to a file)."""
    try:
        doc = gamefile.export(services(), game_id, play.OPERATOR)
    except play.PlayError as exc:
        raise click.ClickException(exc.detail) from None
    click.echo(json.dumps(doc, indent=1, ensure_ascii=False))


@games.command("import")
@click.argument("file", type=click.File("r"))
def games_import(file):
    """Import an exported game as a new game (nobody is mailed)."""
    try:
        doc = json.load(file)
    except ValueError as exc:
        raise click.ClickException(f"not JSON: {exc}") from None
    try:
        game_id = gamefile.import_game(services(), doc)
    except play.PlayError as exc:
        raise click.ClickException(exc.detail) from None
    click.echo(f"imported as game {game_id}")


@click.group("outbox", cls=AppGroup, invoke_without_command=True)
@click.option("--status", default="parked", help="pending | sending | sent | parked | skipped")
@click.pass_context
def outbox(ctx, status):
    """List outbox rows (by default the parked ones an operator must look at)."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(outbox_list, status=status)


@outbox.command("list")
@click.option("--status", default="parked", help="pending | sending | sent | parked | skipped")
def outbox_list(status):
    """List outbox rows by status."""
    rows = admin.outbox(services(), status)
    for r in rows:
        click.echo(f"{r.id}\tgame {r.game_id}\t{r.to_addr}\t{r.kind}\t"
                   f"attempts {r.attempts}\t{r.last_error}")
    click.echo(f"{len(rows)} {status}")


@outbox.command("resend")
@click.argument("row_id", type=int)
def outbox_resend(row_id):
    """Send outbox row ROW_ID again, whatever became of it: composed anew, under a
    Message-ID of its own."""
    if not admin.resend(services(), row_id):
        raise click.ClickException(f"no outbox row {row_id}, or it is being sent right now")
    click.echo(f"row {row_id} queued again")


@outbox.command("retry-parked")
def outbox_retry_parked():
    """Put every parked row back in the queue and send it."""
    click.echo(f"requeued {play.requeue(services(), admin.parked_ids(services()))}")


@click.group("players", cls=AppGroup)
def players():
    """Players' mail, preferences and data: export, change of address, erasure."""


@players.command("prefs")
@click.argument("address")
@click.argument("settings", nargs=-1)
def players_prefs(address, settings):
    """Set ADDRESS's own time: KEY=VALUE with the keys tz, rest_days (sat,sun), quiet_hours
    (22-08), reminders (24h,4h,1h), auto_vacation and forced_moves (on/off); none given: show them."""
    changes = {}
    for setting in settings:
        key, sep, value = setting.partition("=")
        if not sep:
            raise click.ClickException(f"{setting} is not KEY=VALUE, such as rest_days=sat,sun")
        changes[key.strip()] = value
    try:
        now = calendar.save_preferences(services(), changes, email=address)
    except PlayError as exc:
        raise click.ClickException(exc.detail) from None
    click.echo(" ".join(f"{k}={v}" for k, v in now.items()))


@players.command("mute")
@click.argument("address")
def players_mute(address):
    """Stop all mail to ADDRESS in every game (the games go on)."""
    n = admin.mute_player(services(), address)
    if not n:
        raise click.ClickException(f"no player has the address {address}")
    click.echo(f"muted {n} seats of {address}")


@players.command("export")
@click.argument("address")
def players_export(address):
    """Print everything Turnpost holds about the player of ADDRESS as JSON: profile, every
    game (by "gameId", each as their seat may see it), ratings, ladders, tournaments ..."""
    try:
        doc = mydata.export_address(services(), address)
    except PlayError as exc:
        raise click.ClickException(exc.detail) from None
    click.echo(json.dumps(doc, indent=1, ensure_ascii=False))


@players.command("readdress")
@click.argument("old")
@click.argument("new")
def players_readdress(old, new):
    """Move the player of OLD to the address NEW at once: seats, ratings, tokens, preferences
    and blocks follow, mail goes to NEW only, NEW is told. A reply from OLD is answered once
    with where to write now."""
    try:
        moved = readdress.move(services(), old, new)
    except PlayError as exc:
        raise click.ClickException(exc.detail) from None
    click.echo(f"player {moved.player_id} moved from {moved.old} to {moved.new}")


@players.command("erase")
@click.argument("address")
@click.confirmation_option(prompt="Erase this player for good? Their games in progress are "
                                  "resigned and nothing naming them is kept")
def players_erase(address):
    """Erase the player of ADDRESS: games in progress resigned, finished games keep the seat
    as "former player N", ratings keep their numbers under that name, every other row naming
    them deleted; a goodbye email, deleted once sent. --yes skips the question."""
    try:
        erased = erasure.erase(services(), address)
    except PlayError as exc:
        raise click.ClickException(exc.detail) from None
    click.echo(f"erased: now {erased.name}; {len(erased.resigned)} games resigned"
               + (f" ({', '.join(map(str, erased.resigned))})" if erased.resigned else "")
               + ("; a goodbye email queued" if erased.goodbye else "; no goodbye email "
                  "(the address could not be mailed)"))


@players.command("webhook")
@click.argument("address")
@click.argument("url")
@click.option("--kind", type=click.Choice(hooks.KINDS), default="json", show_default=True,
              help="json: {event, gameId, title, url}; discord or slack: a chat message")
@click.option("--events", default="turn", show_default=True,
              help="comma-separated: turn, game_over, invitation")
@click.option("--webhook-only", is_flag=True, help="no more \"your turn\" emails")
def players_webhook(address, url, kind, events, webhook_only):
    """Give the player of ADDRESS a webhook at URL, told of their turns (and --events), and
    print its secret (shown this once): each POST carries X-Turnpost-Signature, sha256= the
    HMAC-SHA256 of its raw body under that secret."""
    try:
        made = hooks.register(services(), url, kind=kind, events=events,
                              instead_of_email=webhook_only, email=address)
    except PlayError as exc:
        raise click.ClickException(exc.detail) from None
    click.echo(f"webhook {made.hook.id} of {address}: {made.hook.url} ({made.hook.kind}; "
               f"{', '.join(made.hook.events)}{'; webhook only' if webhook_only else ''})")
    click.echo(f"secret: {made.secret}")
