"""Operators' commands for the community:

    flask reports list [--limit N]      reported chat lines, newest first
"""
from __future__ import annotations

import click
from flask.cli import AppGroup

from service.play.community import reports

from .ext import services


def init_app(app) -> None:
    app.cli.add_command(reports_group)


@click.group("reports", cls=AppGroup, invoke_without_command=True)
@click.pass_context
def reports_group(ctx):
    """Reported chat lines (also `flask reports list`)."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(reports_list)


@reports_group.command("list")
@click.option("--limit", default=200, show_default=True, help="at most this many")
def reports_list(limit):
    """Reported chat lines, newest first: when, the game, who reported it, who wrote it,
    the line and the reason given."""
    rows = reports.reports(services(), limit)
    for r in rows:
        reason = f"\treason: {r.reason}" if r.reason else ""
        click.echo(f"{r.id}\t{r.at:%Y-%m-%d %H:%M}\tgame {r.game_id}\treported by {r.reporter}"
                   f"\twritten by {r.writer}\t{r.text!r}{reason}")
    click.echo(f"{len(rows)} reports")
