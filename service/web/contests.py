"""The community's pages: standing challenges (posted and withdrawn here, listed on the open
seats page), ladders per game, blocking a player and reporting a chat line. Thin: each view
calls one use case."""
from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for

from service.games import registry
from service.mailwire.outbound.catalogs import _
from service.play import community
from service.play.community import challenges, ladders, reports
from service.play.errors import NoSuchGame, PlayError
from service.play.players import blocks, invitations, seatchanges
from service.play.time import clocks

from . import pages
from .accountpages import current_account, signed_in
from .ext import services
from .refusals import on_refusal, problem_page

bp = Blueprint("contests", __name__)

#: the filters of the open seats page, as the query string names them
FILTERS = ("game", "clock", "rated", "rating", "reliability")


def _whole(text: str | None) -> int | None:
    text = (text or "").strip()
    return int(text) if text.isdigit() else None


def _rated(text: str | None) -> bool | None:
    return {"yes": True, "no": False}.get((text or "").strip())


def open_page(error: str | None = None, status: int = 200):
    """The open seats and the standing challenges, filtered by the query string."""
    me = current_account()
    args = request.args
    listed = challenges.standing(
        services(), kind=args.get("game") or None, clock=args.get("clock") or None,
        rated=_rated(args.get("rated")), rating=_whole(args.get("rating")),
        min_reliability=_whole(args.get("reliability")), viewer_id=me.id if me else None)
    return render_template("web/open_games.html", games=invitations.open_games(services()),
                           challenges=listed, me=me, error=error,
                           filters={k: args.get(k, "") for k in FILTERS},
                           kinds=[(k, g.title) for k, g in registry.available().items()],
                           clock_choices=[c for c in clocks.lobby_choices() if c[0] != "none"]), status


@bp.get("/games/open")
def open_games():
    return open_page()


@bp.post("/challenges")
@signed_in
def post_challenge(me):
    form = request.form
    try:
        terms = community.read_terms(
            form.get("game", ""), form.get("clock", ""), form.get("rated", "yes") == "yes",
            form.get("min_rating"), form.get("max_rating"), form.get("min_reliability"))
        posted = challenges.post(services(), me.id, terms)
    except PlayError as exc:
        return open_page(exc.detail, 400)
    if posted.game_id is not None:
        flash(_("Matched with %(who)s: the game's first email is on its way.",
                who=posted.opponent) if posted.opponent else
              _("Matched with a player: the game's first email is on its way."))
        return redirect(url_for("accounts.me"))
    flash(_("Your challenge stands; you get an email when someone fits it."))
    return redirect("/games/open")


@bp.post("/challenges/<int:challenge_id>/accept")
@signed_in
def accept_challenge(me, challenge_id: int):
    """A listed challenge taken in one press: its game starts at once."""
    try:
        posted = challenges.accept(services(), me.id, challenge_id)
    except PlayError as exc:
        return open_page(exc.detail, 409)
    flash(_("You took %(who)s's challenge: the game's first email is on its way.",
            who=posted.opponent))
    return redirect(url_for("accounts.me"))


@bp.post("/challenges/<int:challenge_id>/withdraw")
@signed_in
def withdraw_challenge(me, challenge_id: int):
    try:
        challenges.withdraw(services(), me.id, challenge_id)
    except PlayError as exc:
        return open_page(exc.detail, 409)
    return redirect("/games/open")


@bp.get("/ladders")
def ladders_index():
    return render_template("web/ladders.html", games=ladders.ladders_index(services()))


@bp.get("/ladders/<kind>")
def ladder(kind: str):
    me = current_account()
    try:
        seen = ladders.view(services(), kind, me.id if me else None)
    except PlayError as exc:
        return pages.problem(exc.title, exc.detail, 404)
    return render_template("web/ladder.html", ladder=seen, me=me, error=None)


@bp.post("/ladders/<kind>/join")
@signed_in
def join_ladder(me, kind: str):
    try:
        ladders.join(services(), me.id, kind)
    except PlayError as exc:
        return pages.problem(exc.title, exc.detail, 409)
    return redirect(url_for("contests.ladder", kind=kind))


@bp.post("/ladders/<kind>/leave")
@signed_in
def leave_ladder(me, kind: str):
    try:
        games = ladders.leave(services(), me.id, kind)
    except PlayError as exc:
        return pages.problem(exc.title, exc.detail, 409)
    if games > 1:
        flash(_("You left the ladder. Your %(n)s open ladder games play on as ordinary games, "
                "outside the ladder.", n=games))
    elif games:
        flash(_("You left the ladder. Your open ladder game plays on as an ordinary game, "
                "outside the ladder."))
    else:
        flash(_("You left the ladder."))
    return redirect(url_for("contests.ladder", kind=kind))


@bp.post("/ladders/<kind>/challenge/<int:player_id>")
@signed_in
def challenge_on_ladder(me, kind: str, player_id: int):
    try:
        ladders.challenge(services(), me.id, kind, player_id)
    except PlayError as exc:
        return pages.problem(exc.title, exc.detail, 409)
    flash(_("Challenge sent. The game starts when they accept it, or by itself after "
            "%(within)s without an answer.", within=_(ladders.ANSWER_WORDS)))
    return redirect(url_for("contests.ladder", kind=kind))


@bp.post("/ladders/<kind>/challenges/<int:challenge_id>/accept")
@signed_in
def accept_ladder_challenge(me, kind: str, challenge_id: int):
    try:
        ladders.accept(services(), me.id, challenge_id)
    except PlayError as exc:
        return pages.problem(exc.title, exc.detail, 409)
    flash(_("The ladder game has started: its first email is on its way."))
    return redirect(url_for("contests.ladder", kind=kind))


@bp.post("/ladders/<kind>/challenges/<int:challenge_id>/withdraw")
@signed_in
def withdraw_ladder_challenge(me, kind: str, challenge_id: int):
    try:
        ladders.withdraw(services(), me.id, challenge_id)
    except PlayError as exc:
        return pages.problem(exc.title, exc.detail, 409)
    flash(_("Challenge withdrawn."))
    return redirect(url_for("contests.ladder", kind=kind))


@bp.post("/players/<int:player_id>/block")
@signed_in
def block(me, player_id: int):
    try:
        if request.form.get("undo"):
            blocks.unblock(services(), me.id, player_id)
        else:
            blocks.block(services(), me.id, player_id)
    except PlayError as exc:
        return pages.problem(exc.title, exc.detail, 400)
    return redirect(_back())


@bp.post("/chat/<int:message_id>/report")
@signed_in
@on_refusal(problem_page(400), unless=(NoSuchGame,))
def report(me, message_id: int):
    # a line the reporter cannot read is "no such chat line" (404), as one that is none
    reports.report(services(), me.id, message_id, request.form.get("reason", "")[:2000])
    flash(_("Thank you: the operators will read it."))
    return redirect(_back())


@bp.post("/g/<token>/report")
def report_from_seat(token: str):
    """A chat line (form field `line`) reported from the game page by the seat's holder."""
    claims = services().urls.signer.loads("view", token)
    try:
        me = seatchanges.player_of(services(), claims.game, claims.seat, claims.holder)
        reports.report(services(), me, _whole(request.form.get("line")) or 0,
                       request.form.get("reason", "")[:2000])
    except PlayError as exc:
        return pages.problem(exc.title, exc.detail, 400)
    flash(_("Thank you: the line is reported to the operators."))
    return redirect(url_for("games.game_page", token=token, _anchor="history"))


@bp.post("/g/<token>/block")
def block_from_seat(token: str):
    """The seat's holder blocks the holder of another seat (form field `seat`) of the game."""
    claims = services().urls.signer.loads("view", token)
    try:
        blocks.block_seat(services(), claims.game, claims.seat, claims.holder,
                          _whole(request.form.get("seat")))
    except PlayError as exc:
        return pages.problem(exc.title, exc.detail, 400)
    flash(_("Blocked: you no longer see their chat, and they cannot invite you or be matched "
            "with you."))
    return redirect(url_for("games.game_page", token=token, _anchor="history"))


def _back() -> str:
    wanted = request.form.get("next", "")
    return wanted if wanted.startswith("/") and not wanted.startswith("//") else "/me"
