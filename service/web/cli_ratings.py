"""`flask ratings GAME` (the leaderboard, one line per player) and `flask ratings rebuild
[GAME]` (the ratings made again from the games' logs)."""
from __future__ import annotations

import click
from flask.cli import with_appcontext

from service.play import community
from service.play.errors import PlayError

from .ext import services


def init_app(app) -> None:
    app.cli.add_command(ratings)


@click.command("ratings")
@with_appcontext
@click.argument("words", nargs=-1, required=True, metavar="GAME | rebuild [GAME]")
def ratings(words):
    """Print GAME's leaderboard (name, rating, rated games; established ratings first,
    provisional ones after, marked), or `rebuild [GAME]`: make the ratings of GAME (of every
    game without one) again from the games' logs, in the order they were made."""
    if words[0] == "rebuild":
        if len(words) > 2:
            raise click.UsageError("write: flask ratings rebuild [GAME]")
        kind = words[1] if len(words) == 2 else None
        if kind is not None:
            _board(kind)                    # an unknown game is refused before anything
        rated = community.rebuild(services(), kind)
        click.echo(f"rebuilt the ratings of {kind or 'every game'} from {rated} rated games")
        return
    if len(words) > 1:
        raise click.UsageError("write: flask ratings GAME, or flask ratings rebuild [GAME]")
    board = _board(words[0])
    for line in board.lines:
        mark = " (provisional)" if line.provisional else ""
        click.echo(f"{line.name}\t{line.rating}{mark}\t{line.games}")
    click.echo(f"{len(board.lines)} rated players in {board.title}")


def _board(kind: str) -> community.Board:
    try:
        return community.board(services(), kind)
    except PlayError as exc:
        raise click.ClickException(exc.detail) from None
