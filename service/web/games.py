"""The lobby (start a game), a player's game page with its turn form, and the spectator page."""
from __future__ import annotations

import secrets

from flask import Blueprint, current_app, redirect, render_template, request, url_for

from service import play, rulebook
from service.games import registry
from service.links import TokenError

from . import pages
from .ext import services

bp = Blueprint("games", __name__)

# Options that fix the cards' order or the deal, for replaying a table game from the command
# line. Offered in the lobby they would let whoever starts a game know every hand.
TABLE_ONLY = frozenset({"deck", "roots", "aces", "dealer", "moon_set"})


@bp.get("/")
def lobby():
    return _lobby(form={}, error=None)


def _lobby(form, error: str | None):
    return render_template("web/new_game.html", games=rulebook.lobby(TABLE_ONLY), form=form,
                           error=error)


@bp.get("/rules/<entry>")
def rules(entry: str):
    html = rulebook.rules_html(entry)
    chosen = next((g for g in rulebook.lobby(TABLE_ONLY) if g.entry == entry), None)
    if html is None or chosen is None:
        return pages.problem("No such rules", "There are no rules here for that game; the "
                             "lobby lists every game with a link to its rules.", 404)
    return render_template("web/rules.html", game=chosen, rules=html)


@bp.post("/games")
def create():
    form = request.form
    entry = form.get("game", "")
    players = [line for line in form.get("players", "").replace(",", "\n").splitlines()
               if line.strip()]
    chosen = next((e for e in registry.lobby() if e[0] == entry), None)
    if chosen is None:
        return _lobby_error(form, f"There is no game called {entry!r}."), 400
    _, _, game, preset = chosen
    # options are named per lobby entry (two entries may share an engine)
    options = {name: form[f"{entry}.{name}"] for name in game.options
               if name not in preset and form.get(f"{entry}.{name}", "") != ""}
    fixed = sorted(TABLE_ONLY & set(options))
    if fixed:
        return _lobby_error(form, f"The option {fixed[0]!r} fixes the deal, so whoever starts "
                            "the game would know every hand; it is only for replaying a table "
                            "game: flask --app service.web start-game ... -o NAME=VALUE"), 400
    options.update(preset)
    try:
        started = play.start_game(services(), game.id, players, options)
    except play.PlayError as exc:
        return _lobby_error(form, exc.detail), 400
    return redirect(url_for("games.started", game_id=started.game_id))


def _lobby_error(form, error: str):
    return _lobby(form, error)


@bp.get("/games/<int:game_id>")
def started(game_id: int):
    """The public page of a game: the spectator's view and the public history."""
    try:
        read = play.read_game(services(), game_id, None)
    except play.NoSuchGame as exc:
        return pages.problem(exc.title, exc.detail, 404)
    return pages.render_game(read, view_token="", emails=read.addresses,
                             dev_outbox="dev.outbox" in current_app.view_functions)


@bp.get("/g/<token>")
def game_page(token: str):
    try:
        claims = services().urls.signer.loads("view", token)
        read = play.read_game(services(), claims.game, claims.seat)
    except TokenError as exc:
        return pages.problem(exc.title, exc.detail, 400)
    except play.NoSuchGame as exc:
        return pages.problem(exc.title, exc.detail, 404)
    return pages.render_game(read, view_token=token, nonce=secrets.token_urlsafe(16))


@bp.post("/g/<token>/play")
def turn_form(token: str):
    """Commands typed on the game page, one per line: applied in order, all or none."""
    try:
        claims = services().urls.signer.loads("view", token)
    except TokenError as exc:
        return pages.problem(exc.title, exc.detail, 400)
    lines = [ln.strip() for ln in request.form.get("commands", "").splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("#")]
    seen = request.form.get("seen") or None
    nonce = request.form.get("nonce") or None
    intent = play.Intent(claims.game, claims.seat, lines=lines, expected=seen, source="web",
                         key=f"form:{nonce}" if nonce else None)
    here = url_for("games.game_page", token=token)
    try:
        if not lines:
            raise play.Refused("Type a command first, one per line.")
        play.submit(services(), intent)
    except play.AlreadyDone:
        return redirect(here)
    except play.PlayError as exc:
        read = play.read_game(services(), claims.game, claims.seat)
        return pages.render_game(read, view_token=token, nonce=secrets.token_urlsafe(16),
                                 error=exc, typed="\n".join(lines)), 422
    return redirect(here)
