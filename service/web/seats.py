"""A player's seat and clock on the web: resign (with a confirmation step), vacation, invite a
replacement, accept an invitation, and the `wait` policy's links (extend a deadline once, or
play the default move for a seat that ran out of time). Each route calls one use case."""
from __future__ import annotations

import secrets

from flask import Blueprint, flash, redirect, render_template, request, url_for

from service import play
from service.mailwire.outbound.catalogs import N_, _
from service.play.mail import awayoffers
from service.play.players import seatchanges
from service.play.time import extensions
from service.play.time.sweep import timeouts

from . import pages
from .ext import services
from .refusals import on_refusal, problem_page

bp = Blueprint("seats", __name__)


def _view_claims(token: str):
    return services().urls.signer.loads("view", token)


def _back_to_game(exc: play.PlayError, token: str):
    """The game page, the refusal's words on top (not to whoever does not hold the seat)."""
    claims = _view_claims(token)
    try:
        read = play.read_game(services(), claims.game, pages.seat_reader(claims))
    except play.NotYourSeat as refused:      # the link's seat changed hands: no page for it
        return pages.problem(refused.title, refused.detail, 403)
    return pages.render_game(read, view_token=token, nonce=secrets.token_urlsafe(16),
                             error=exc), 422


@bp.get("/g/<token>/resign")
@on_refusal(problem_page(409))
def confirm_resign(token: str):
    claims = _view_claims(token)
    read = play.read_game(services(), claims.game, pages.seat_reader(claims))
    return pages.render_game(read, view_token=token, nonce=secrets.token_urlsafe(16),
                             confirm_resign=True)


@bp.post("/g/<token>/resign")
@on_refusal(_back_to_game, unless=(play.NotYourSeat,))
def resign(token: str):
    claims = _view_claims(token)
    if request.form.get("confirm") != "yes":
        return redirect(url_for("seats.confirm_resign", token=token, _anchor="seat"))
    flash(seatchanges.resign(services(), claims.game, claims.seat, claims.holder).words)
    return redirect(url_for("games.game_page", token=token))


@bp.post("/g/<token>/vacation")
@on_refusal(_back_to_game, unless=(play.NotYourSeat,))
def vacation(token: str):
    claims = _view_claims(token)
    player = seatchanges.player_of(services(), claims.game, claims.seat, claims.holder)
    text = request.form.get("request", "").strip()
    text = text if text.lower().startswith(("vacation", "back")) else f"vacation {text}"
    done = seatchanges.take_vacation(services(), player, text)
    flash(done.text)
    return redirect(url_for("games.game_page", token=token))


@bp.post("/g/<token>/replace")
@on_refusal(_back_to_game, unless=(play.NotYourSeat,))
def replace(token: str):
    try:
        claims = _view_claims(token)
        target = int(request.form.get("target", "-1"))
        done = seatchanges.invite_replacement(services(), claims.game, claims.seat, target,
                                        request.form.get("address", ""), claims.holder)
    except ValueError:
        return pages.problem(N_("Nothing was changed"), N_("Choose the seat to take over."), 400)
    flash(done)
    return redirect(url_for("games.game_page", token=token))


@bp.get("/s/<token>")
def confirm_seat_action(token: str):
    claims = services().urls.signer.loads("seat", token)
    text = {"extend": _("Extend the deadline once"),
            "bot": _("Play the default move for them from now on"),
            "agree": _("Agree to the extension asked for"),
            "away": _("Take a vacation until %(until)s", until=claims.move.get("until"))}.get(
                claims.move["act"], "")
    read = play.read_game(services(), claims.game, pages.seat_reader(claims), with_history=False)
    return render_template("web/seat_action.html", token=token, text=text,
                           elsewhere=pages.someone_elses_seat(read),
                           game_link=services().urls.game_path(claims.game, claims.seat,
                                                               claims.holder))


@bp.post("/s/<token>")
@on_refusal(problem_page(409))
def seat_action(token: str):
    claims = services().urls.signer.loads("seat", token)
    if claims.move["act"] == "agree":     # an extension asked by `extend 2d`
        done = extensions.agree(services(), claims.game, claims.seat, claims.holder,
                                int(claims.move["target"]))
    elif claims.move["act"] == awayoffers.ACT:    # the offer answering an auto-reply
        done = awayoffers.accept(services(), claims.game, claims.seat, claims.holder,
                                  claims.move)
    else:
        done = timeouts.seat_action(services(), claims.game, claims.seat, claims.holder,
                                    claims.move["act"], int(claims.move["target"]))
    return pages.problem(N_("Done"), done, 200, services().urls.game_path(
        claims.game, claims.seat, claims.holder), kind="done")


@bp.get("/i/<token>")
def confirm_invitation(token: str):
    claims = services().urls.signer.loads("invite", token)
    return render_template("web/seat_action.html", token=token, game_link=None,
                           text=_("Take over seat %(seat)d of game %(game)d",
                                  seat=claims.seat + 1, game=claims.game),
                           action=f"/i/{token}")


@bp.post("/i/<token>")
@on_refusal(problem_page(409))
def accept_invitation(token: str):
    game_id, seat = seatchanges.accept_replacement(services(), token)
    with_holder = play.read_game(services(), game_id, play.Reader.at(game_id, seat),
                                 with_history=False).page.holder
    return redirect(services().urls.game_path(game_id, seat, with_holder))
