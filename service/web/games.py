"""The lobby (make a game: a signed-in player invites others), a player's game page with its
turn form, and the public page (by an unguessable id, or off)."""
from __future__ import annotations

import secrets

from flask import Blueprint, current_app, redirect, render_template, request, url_for

from service import play
from service.clocks import LOBBY_CHOICES, LOBBY_DEFAULT
from service.games import registry
from service.links import TokenError
from service.play import invitations
from service.play.invitations import TABLE_ONLY

from . import pages
from .accounts import current_account
from .ext import services

bp = Blueprint("games", __name__)

# the time control, chosen in words ("3 days per move"), and what happens at a deadline
CLOCK_CHOICES = {"clock_choices": LOBBY_CHOICES, "clock_default": LOBBY_DEFAULT,
                 "timeout_choices": [("bot", "the default move is played for them"),
                                     ("forfeit", "they lose the game"),
                                     ("wait", "nothing; the others may extend or switch to bot")]}


@bp.get("/")
def lobby():
    return render_template("web/new_game.html", entries=registry.lobby(), form={}, error=None,
                           table_only=TABLE_ONLY, me=current_account(), **CLOCK_CHOICES)


@bp.post("/games")
def create():
    me = current_account()
    if me is None:     # making a game mails people: only an account may, and it is counted
        return redirect(url_for("accounts.sign_in_form", next="/"))
    form = request.form
    entry = form.get("game", "")
    players = [line for line in form.get("players", "").replace(",", "\n").splitlines()
               if line.strip()]
    open_seats = form.get("open_seats", "0").strip() or "0"
    if not open_seats.isdigit():
        return _lobby_error(form, "Open seats is a number (0 for none)."), 400
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
    # the service's own options: a clock (default 3 days per move) and the timeout policy
    options["clock"] = form.get("clock", "") or LOBBY_DEFAULT
    if form.get("on_timeout"):
        options["on_timeout"] = form["on_timeout"]
    try:
        invitations.create_game(services(), me.id, game.id, players,
                                open_seats=int(open_seats[:3]), options=options,
                                public=form.get("public", "") == "on")
    except play.PlayError as exc:
        return _lobby_error(form, exc.detail), 400
    return redirect(url_for("accounts.me"))


def _lobby_error(form, error: str):
    return render_template("web/new_game.html", entries=registry.lobby(), form=form,
                           error=error, table_only=TABLE_ONLY, me=current_account(),
                           **CLOCK_CHOICES)


@bp.get("/games/<public_id>")
def public_page(public_id: str):
    """The public page of a game: the spectator's view and the public history; found only by
    its unguessable id, and off when its players chose so."""
    try:
        game = play.public_game(services(), public_id)
        if game.status == "forming":
            return render_template("web/forming.html", game=game)
        read = play.read_game(services(), game.game_id, None)
    except play.NoSuchGame as exc:
        return pages.problem(exc.title, exc.detail, 404)
    return pages.render_game(read, view_token="",
                             dev_outbox="dev.outbox" in current_app.view_functions)


@bp.get("/g/<token>")
def game_page(token: str):
    try:
        claims = services().urls.signer.loads("view", token)
        read = play.read_game(services(), claims.game, claims.seat, holder=claims.holder)
    except TokenError as exc:
        return pages.problem(exc.title, exc.detail, 400)
    except play.NoSuchGame as exc:
        return pages.problem(exc.title, exc.detail, 404)
    except play.NotYourSeat as exc:
        return pages.problem(exc.title, exc.detail, 403)
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
                         key=f"form:{nonce}" if nonce else None, holder=claims.holder)
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
