"""/tournaments/<id>: a tournament's standings, rounds and games; /tournaments/new: a signed-in
player makes one, its entrants invited by email (service.play.community.invites), and the
invitation's links. Thin: each view calls one use case."""
from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for

from service.games import registry
from service.mailwire.outbound.catalogs import N_, _, ngettext
from service.play import community
from service.play.errors import PlayError
from service.play.time import LOBBY_DEFAULT, clocks

from . import pages
from .accountpages import current_account, signed_in
from .community import local_points
from .ext import services

bp = Blueprint("tournaments", __name__)

ANSWERS = ("accept", "decline", "never")


@bp.get("/tournaments")
def tournaments_index():
    return render_template("web/tournaments.html", tournaments=community.listed(services()))


@bp.get("/tournaments/<int:tournament_id>")
def tournament_page(tournament_id: int):
    try:
        view = community.show(services(), tournament_id)
    except community.NoSuchTournament as exc:
        return pages.problem(exc.title, exc.detail, 404)
    # the clock in words, as the lobby offers it ("3 days per move")
    words = clocks.describe(clocks.parse_clock(view.clock)) if view.clock else ""
    return render_template("web/tournament.html", t=view, line_text=community.line_text,
                           points_text=local_points, me=current_account(),
                           clock_words=words)


@bp.get("/tournaments/new")
def new_tournament():
    return _form({}, None)


def _form(form, error: str | None, status: int = 200):
    return render_template(
        "web/new_tournament.html", form=form, error=error, me=current_account(),
        kinds=[(k, g.title) for k, g in registry.available().items()],
        formats=[("swiss", N_("Swiss: entrants of like score meet")),
                 ("round-robin",
                  N_("Round robin: everyone meets everyone once (two-player games)"))],
        clock_choices=[c for c in clocks.lobby_choices() if c[0] != "none"],
        clock_default=LOBBY_DEFAULT, settings=services().settings), status


@bp.post("/tournaments")
@signed_in
def make(me):
    form = request.form
    entrants = [line.strip() for line in form.get("entrants", "")[:8000].replace(",", "\n")
                .splitlines() if line.strip()]
    # a round robin plays as many rounds as it takes: the Swiss's number is not asked of it
    rounds = "" if form.get("format") == "round-robin" else form.get("rounds", "").strip()
    if rounds and not rounds.isdigit():
        return _form(form, _("Rounds is a number (empty for a round robin)."), 400)
    try:
        made = community.invites.make(
            services(), me.id, form.get("game", ""), form.get("format", ""),
            int(rounds[:3]) if rounds else None, entrants,
            clock=form.get("clock") or LOBBY_DEFAULT, rated=form.get("rated") == "on",
            no_vacation=form.get("no_vacation") == "on")
    except PlayError as exc:
        return _form(form, exc.detail, 400)
    flash(_("Round 1 has started.") if made.started else
          _("The invitations are on their way; round 1 starts when every entrant has "
            "accepted."))
    return redirect(url_for("tournaments.tournament_page", tournament_id=made.tournament_id))


@bp.post("/tournaments/<int:tournament_id>/start")
@signed_in
def start(me, tournament_id: int):
    try:
        games = community.invites.start(services(), me.id, tournament_id)
    except PlayError as exc:
        return pages.problem(exc.title, exc.detail, 409, links=[_back(tournament_id)])
    flash(ngettext("Round 1 has started: %(num)d game.", "Round 1 has started: %(num)d games.",
                   games))
    return redirect(url_for("tournaments.tournament_page", tournament_id=tournament_id))


@bp.post("/tournaments/<int:tournament_id>/cancel")
@signed_in
def cancel(me, tournament_id: int):
    try:
        community.invites.cancel(services(), me.id, tournament_id)
    except PlayError as exc:
        return pages.problem(exc.title, exc.detail, 409, links=[_back(tournament_id)])
    flash(_("The tournament is called off; its open invitations are closed."))
    return redirect(url_for("tournaments.tournament_page", tournament_id=tournament_id))


@bp.get("/tournaments/invitations/<token>/<choice>")
def invitation(token: str, choice: str):
    """The emailed link: the page and its button (a GET changes nothing: mail scanners
    follow links)."""
    try:
        seen = community.invites.look(services(), token)    # a damaged token: the 400 page
    except PlayError as exc:
        return pages.problem(exc.title, exc.detail, 400)
    if choice not in ANSWERS:
        return pages.problem(N_("This link does not work"), _("It is not an invitation link."),
                             404)
    return render_template("web/tournament_invitation.html", invitation=seen, choice=choice,
                           token=token, done=None)


@bp.post("/tournaments/invitations/<token>/<choice>")
def answer(token: str, choice: str):
    try:
        seen = community.invites.look(services(), token)
        if choice not in ANSWERS:
            return pages.problem(N_("This link does not work"),
                                 _("It is not an invitation link."), 404)
        done = community.invites.answer(services(), token, choice)
    except PlayError as exc:
        return pages.problem(exc.title, exc.detail, 409)
    return render_template("web/tournament_invitation.html", invitation=seen, choice=choice,
                           token=token, done=done)


def _back(tournament_id: int) -> tuple[str, str]:
    return (url_for("tournaments.tournament_page", tournament_id=tournament_id),
            "Back to the tournament")
