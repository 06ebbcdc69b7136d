"""Following a public game or a tournament (issue 50): the Follow buttons of a game's public
page and of a tournament's page (signed in), and the digest's one-click unfollow link, a page
with one button (a GET changes nothing: mail scanners follow links)."""
from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for

from service import play
from service.play import community

from .accountpages import current_account
from .ext import services

bp = Blueprint("follows", __name__)


@bp.route("/games/<public_id>/follow", methods=["GET", "POST"])
def follow_game(public_id: str):
    """POST follows; GET (where signing in leads back to) shows the page to press it on."""
    me = current_account()
    if me is None:
        return redirect(url_for("accounts.sign_in_form", next=request.path))
    # the public page's game, as its audience may read it (a private one: no such game)
    game = play.public_game(services(), public_id)
    if request.method == "POST":
        flash(community.follows.follow_game(services(), me.id, game.game_id,
                                            public_id).words)
    return redirect(url_for("games.public_page", public_id=public_id))


@bp.route("/tournaments/<int:tournament_id>/follow", methods=["GET", "POST"])
def follow_tournament(tournament_id: int):
    me = current_account()
    if me is None:
        return redirect(url_for("accounts.sign_in_form", next=request.path))
    if request.method == "POST":
        flash(community.follows.follow_tournament(services(), me.id, tournament_id).words)
    return redirect(url_for("tournaments.tournament_page", tournament_id=tournament_id))


@bp.get("/follows/<token>")
def confirm_unfollow(token: str):
    services().urls.signer.loads("unfollow", token)
    return render_template("web/unfollow.html", token=token, done="")


@bp.post("/follows/<token>")
def unfollow(token: str):
    claims = services().urls.signer.loads("unfollow", token)
    return render_template("web/unfollow.html", token=token,
                           done=community.follows.unfollow(services(), claims.game))
