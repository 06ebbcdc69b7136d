"""Accounts (sign in by emailed link, sign out), `/me` with the player's games and
preferences, their data (a download of it all, a change of address, an erasure), invitations
(accept / decline / never), open seats, and rematches. Thin: each view calls one use case of
service.play."""
from __future__ import annotations

import json
import secrets
from functools import wraps

from flask import Blueprint, Response, flash, redirect, render_template, request, session, url_for

from service.mailwire.outbound.catalogs import N_, _, ngettext
from service.play.errors import NoSuchGame, PlayError
from service.play.players import accounts, erasure, hooks, invitations, readdress
from service.play.reads import mydata, mygames
from service.play.time import calendar

from . import languages, pages
from .ext import services
from .refusals import on_refusal, problem_page
from .signedin import current_account

bp = Blueprint("accounts", __name__)


def signed_in(view):
    @wraps(view)
    def wrapper(*args, **kwargs):
        me = current_account()
        if me is None:
            return redirect(url_for("accounts.sign_in_form", next=request.path))
        return view(me, *args, **kwargs)
    return wrapper


@bp.get("/sign-in")
def sign_in_form():
    wanted = request.args.get("next", "")
    if _local_path(wanted):
        session["next"] = wanted       # where to go once signed in (this site only)
    return render_template("web/sign_in.html", sent=False, error=None, typed="")


def _local_path(path: str) -> bool:
    return path.startswith("/") and not path.startswith("//") and "\\" not in path


def _sign_in_refused(exc, **_view_args):
    return render_template("web/sign_in.html", sent=False, error=exc.detail,
                           typed=request.form.get("email", "")[:400]), 400


@bp.post("/sign-in")
@on_refusal(_sign_in_refused)
def sign_in_request():
    typed = request.form.get("email", "")[:400]
    # the nonce that ties the link to this browser (accounts.complete_sign_in)
    session.setdefault("browser", secrets.token_urlsafe(16))
    accounts.request_sign_in(services(), typed, session["browser"], languages.page_language())
    return render_template("web/sign_in.html", sent=True, error=None, typed=typed)


@bp.get("/sign-in/<token>")
def sign_in_confirm(token: str):
    # a GET changes nothing (mail scanners open links): one button signs in
    return render_template("web/sign_in_confirm.html", token=token)


@bp.post("/sign-in/<token>")
@on_refusal(problem_page(400, sign_in_again=True))
def sign_in(token: str):
    me = accounts.complete_sign_in(services(), token, session.get("browser"),
                                   languages.browser_language())
    wanted = session.get("next", "")
    kept = session.get("lobby_form")   # a lobby form filled in before signing in
    session.clear()                    # a fresh session for the account (no fixation)
    session["player"] = me.id
    if kept:
        session["lobby_form"] = kept
    session.permanent = True
    return redirect(wanted if _local_path(wanted) else url_for("accounts.me"))


@bp.post("/sign-out")
def sign_out():
    session.clear()
    return redirect(url_for("accounts.sign_in_form"))


@bp.get("/me")
@signed_in
def me(me: accounts.Account):
    return my_page(me)


def my_page(me: accounts.Account, error: str | None = None, status: int = 200,
            typed: dict | None = None, calendar_error: str | None = None, **webhooks):
    """`typed`: the preferences as the player wrote them, shown again after an error;
    `webhooks`: a webhook just made (`made`, its secret shown this once), or the words
    refusing one (`hook_error`, with the form as typed in `hook_typed`)."""
    page = mygames.my_page(services(), me.id,
                           finished_before=request.args.get("finished_before", type=int))
    own_time = page.own_time
    if calendar_error and typed:
        own_time |= typed
    return render_template("web/me.html", me=me, games=page.games, modes=accounts.MAIL_MODES,
                           error=error, typed=None if calendar_error else typed,
                           own_time=own_time, calendar_error=calendar_error,
                           profile=page.profile,
                           blocked=page.blocked, tournaments=page.tournaments,
                           hooks=page.hooks, hook_kinds=hooks.KINDS,
                           hook_events=hooks.EVENT_WORDS,
                           **{"made": None, "hook_error": None, "hook_typed": None} | webhooks
                           ), status


@bp.get("/me/games/<int:game_id>")
@signed_in
@on_refusal(problem_page(404))
def my_game(me: accounts.Account, game_id: int):
    """The signed-in player's own page of a game (where an expired link's page sends them)."""
    return redirect(mygames.seat_link(services(), me.id, game_id))


def _my_page_refused(exc, **_view_args):
    """My page again, the refusal's words beside the form."""
    return my_page(current_account(), exc.detail, 400)


def _preferences_refused(exc, **_view_args):
    """My page again, the preferences as the player typed them beside the refusal's words."""
    typed = {k: request.form.get(k, "")[:200]
             for k in ("name", "zone", "mail_mode", "digest_hour")}
    return my_page(current_account(), exc.detail, 400, typed)


@bp.post("/me/calendar")
@signed_in
def calendar_preferences(me: accounts.Account):
    """Rest days, quiet hours, reminders, automatic vacation (service.play.time.calendar)."""
    keys = [k for k in calendar.KEYS if k != "tz"]      # the zone is the form above's
    # a preference left out of the form stays as it is (the language card sends only its
    # own; an older page, no switch)
    typed = {k: request.form.get(k, "")[:200] for k in keys if k in request.form}
    try:
        calendar.save_preferences(services(), typed, player_id=me.id)
    except PlayError as exc:
        return my_page(me, status=400, typed=typed, calendar_error=exc.detail)
    return redirect(url_for("accounts.me") + ("#language" if set(typed) == {"language"}
                                              else "#own-time"))


@bp.post("/me/preferences")
@signed_in
@on_refusal(_preferences_refused)
def preferences(me: accounts.Account):
    form = request.form
    accounts.save_preferences(services(), me.id, name=form.get("name", ""),
                              zone=form.get("zone", ""), mail_mode=form.get("mail_mode", ""),
                              digest_hour=form.get("digest_hour", ""))
    flash(_("Saved."))
    return redirect(url_for("accounts.me") + "#preferences")


# -- the player's data: download, change of address, erasure (issue 52) ----------------------

@bp.get("/me/export")
@signed_in
def export(me: accounts.Account):
    """Everything of the player's, as one JSON file to keep."""
    doc = mydata.export(services(), me.id)
    body = json.dumps(doc, indent=1, ensure_ascii=False)
    return Response(body, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="turnpost-{doc["profile"]["handle"]}.json"',
        "Cache-Control": "no-store"})


@bp.post("/me/address")
@signed_in
@on_refusal(_my_page_refused)
def change_address(me: accounts.Account):
    new = readdress.request(services(), me.id, request.form.get("email", "")[:400])
    flash(_("We sent a link to %(new)s: open it there within the hour and press its button "
            "to move your account. %(old)s was told too.", new=new, old=me.email), "data")
    return redirect(url_for("accounts.me") + "#your-data")


@bp.get("/me/address/<token>")
@on_refusal(problem_page(400))
def address_page(token: str):
    # a GET changes nothing (mail scanners open links): one button moves the account
    change = readdress.look(services(), token)
    return render_template("web/account_change.html", purpose="readdress", change=change,
                           token=token)


@bp.post("/me/address/<token>")
@on_refusal(problem_page(409))
def confirm_address(token: str):
    moved = readdress.confirm(services(), token)
    return pages.problem(_("Your address is changed"), _(
        "Your account now uses %(new)s: your games, ratings, tokens and preferences came with "
        "it, and Turnpost mails you there from now on. Mail from %(old)s is no longer read.",
        new=moved.new, old=moved.old), 200, kind="done",
        links=[(url_for("accounts.me"), _("My games"))])


@bp.post("/me/erase")
@signed_in
@on_refusal(_my_page_refused)
def erase_request(me: accounts.Account):
    mailed = erasure.request(services(), me.id)
    flash(_("We sent a link to %(address)s: open it within the hour, read what erasing "
            "means, and press its button. Nothing is erased until then.", address=mailed),
          "data")
    return redirect(url_for("accounts.me") + "#your-data")


@bp.get("/me/erase/<token>")
@on_refusal(problem_page(400))
def erase_page(token: str):
    seen = erasure.look(services(), token)
    return render_template("web/account_change.html", purpose="erase", change=seen,
                           token=token)


@bp.post("/me/erase/<token>")
@on_refusal(problem_page(409))
def erase(token: str):
    erased = erasure.confirm(services(), token)
    if session.get("player") == erased.player_id:
        session.clear()                  # that account is no more
    resigned = len(erased.resigned)
    gone = ngettext("Everything that named you is gone or anonymous; %(num)d game in progress "
                    "was resigned.", "Everything that named you is gone or anonymous; %(num)d "
                    "games in progress were resigned.", resigned) if resigned else _(
        "Everything that named you is gone or anonymous.")
    return pages.problem(_("Your account is erased"), gone + " " + _(
        "In finished games your seat reads \"former player\". You may sign up again "
        "with your address at any time, as a new player."), 200, kind="done")


@bp.post("/games/<int:game_id>/seats/<int:seat>")
@signed_in
@on_refusal(_my_page_refused, unless=(NoSuchGame,))
def refill(me: accounts.Account, game_id: int, seat: int):
    invitations.refill(services(), me.id, game_id, seat, request.form.get("email", "")[:400])
    return redirect(url_for("accounts.me"))




@bp.post("/games/<int:game_id>/join")
@signed_in
@on_refusal(problem_page(409), unless=(NoSuchGame,))
def join(me: accounts.Account, game_id: int):
    invitations.join_open_seat(services(), me.id, game_id)
    return redirect(url_for("accounts.me"))


@bp.get("/invitations/<token>/<choice>")
@on_refusal(problem_page(400))
def invitation(token: str, choice: str):
    if choice not in ("accept", "decline", "never"):
        return pages.problem(N_("This link does not work"),
                             _("It is not an invitation link."), 404)
    seen = invitations.look(services(), token)
    return render_template("web/invitation.html", invitation=seen, choice=choice, token=token,
                           done=None)


@bp.post("/invitations/<token>/<choice>")
@on_refusal(problem_page(409))
def answer_invitation(token: str, choice: str):
    if choice not in ("accept", "decline", "never"):
        return pages.problem(N_("This link does not work"),
                             _("It is not an invitation link."), 404)
    seen = invitations.look(services(), token)
    done = invitations.answer(services(), token, choice)
    return render_template("web/invitation.html", invitation=seen, choice=choice, token=token,
                           done=done)


def _rematch_refused(exc, token: str):
    return pages.problem(exc.title, exc.detail, 409, links=_back_to_game(token))


def _back_to_game(token: str) -> list[tuple[str, str]]:
    return [(url_for("games.game_page", token=token), "Back to the game")]


@bp.post("/g/<token>/rematch")
@on_refusal(_rematch_refused)
def rematch(token: str):
    """The game page's rematch button: the seat's own signed link is the credential. One
    rematch per game: pressing again finds it."""
    back = _back_to_game(token)
    claims = services().urls.signer.loads("view", token)
    made = invitations.rematch(services(), claims.game, claims.seat)
    if made.made and made.started:        # a table of bots: the new game is on already
        flash(_("Rematch: game #%(id)s, the same table again.", id=made.game_id))
        return redirect(made.link)
    if made.made:
        return pages.problem(
            "Rematch offered", f"Everyone at the table has an invitation to game "
            f"#{made.game_id}; it starts when they all accept. Follow it on your games page "
            "(sign in with your email address).", 200, kind="done",
            links=back + [(url_for("accounts.me"), "Your games")])
    if made.started:
        detail, link = "It has started.", (made.link, f"Open game #{made.game_id}")
    elif not made.answered:
        detail, link = ("You are invited to it.",
                        (made.link, f"Answer the invitation to game #{made.game_id}"))
    else:
        detail, link = ("It starts when everyone at the table has accepted.",
                        (url_for("accounts.me"), "Your games"))
    return pages.problem(
        "Rematch already offered", f"This game's rematch, game #{made.game_id}, was offered "
        f"before; nothing new was made or sent. {detail}", 200, kind="done",
        links=[link] + back if link[0] else back)
