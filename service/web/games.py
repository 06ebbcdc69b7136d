"""The lobby (make a game: a signed-in player invites others), a player's game page with its
turn form, and the public page (by an unguessable id, or off)."""
from __future__ import annotations

import secrets

from flask import (
    Blueprint,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from service import play
from service.display import rulebook
from service.games import registry
from service.mailwire.outbound.catalogs import N_, _
from service.mailwire.outbound.templating import game_partial
from service.play.players import TABLE_ONLY, invitations
from service.play.time import LOBBY_DEFAULT, clocks

from . import pages
from .accountpages import current_account
from .ext import services
from .refusals import on_refusal, problem_page

bp = Blueprint("games", __name__)

# the time control, chosen in words ("3 days per move", said per request in the page's
# language: clocks.lobby_choices), and what happens at a deadline
CLOCK_CHOICES = {"clock_default": LOBBY_DEFAULT,
                 # in the page's language (the template translates them)
                 "timeout_choices": [("bot", N_("the default move is played for them")),
                                     ("forfeit", N_("they lose the game")),
                                     ("wait", N_("nothing; the others may extend or switch "
                                                 "to bot"))]}


#: the lobby form kept through signing in: the session cookie has room for a few kilobytes
KEPT_FORM = "lobby_form"
KEPT_FORM_CHARS = 2000


@bp.get("/")
def lobby():
    kept = session.pop(KEPT_FORM, None)
    return _lobby(form=kept if isinstance(kept, dict) else {}, error=None, kept=bool(kept))


def keep_form(form) -> None:
    """The lobby form as a signed-out player filled it in, kept in their session until they
    are signed in and back at the lobby (the sign-in keeps it: accounts.sign_in)."""
    kept, size = {}, 0
    for name, value in form.items():
        if name == "csrf_token" or size + len(name) + len(value) > KEPT_FORM_CHARS:
            continue
        kept[name] = value
        size += len(name) + len(value)
    session[KEPT_FORM] = kept


def _lobby(form, error: str | None, practice=None, practice_error: str | None = None,
           kept: bool = False):
    """The lobby; after a refused form, that form as the player filled it in, its error
    beside it: `form`/`error` the invitation form's, `practice`/`practice_error` the
    "Play against bots" form's."""
    return render_template("web/new_game.html", games=rulebook.lobby(TABLE_ONLY), form=form,
                           error=error, me=current_account(), practice=practice or {},
                           practice_error=practice_error, tables=practice_tables(),
                           kept=kept, settings=services().settings,
                           clock_choices=clocks.lobby_choices(), **CLOCK_CHOICES)


def practice_tables() -> list[tuple[str, list[tuple[str, int]]]]:
    """The practice form's choices: each game with the player counts it allows (a count
    that needs a variant, like three at Magnate with the Roller rules, starts with it):
    (label, [(value, count)]), the value "entry:count"."""
    return [(label, [(f"{entry}:{n}", n) for n in registry.player_counts(game, preset)])
            for entry, label, game, preset in registry.lobby()]


@bp.get("/rules/<entry>")
def rules(entry: str):
    html = rulebook.rules_html(entry)
    chosen = next((g for g in rulebook.lobby(TABLE_ONLY) if g.entry == entry), None)
    if html is None or chosen is None:
        return pages.problem(N_("No such rules"), N_("There are no rules here for that game; "
                                                     "the lobby lists every game with a link "
                                                     "to its rules."), 404)
    return render_template("web/rules.html", game=chosen, rules=html)


def _lobby_refused(exc, **_view_args):
    return _lobby_error(request.form, exc.detail), 400


@bp.post("/games")
@on_refusal(_lobby_refused)
def create():
    me = current_account()
    if me is None:     # making a game mails people: only an account may, and it is counted
        keep_form(request.form)
        return redirect(url_for("accounts.sign_in_form", next="/"))
    form = request.form
    players = [line for line in form.get("players", "").replace(",", "\n").splitlines()
               if line.strip()]
    open_seats = form.get("open_seats", "0").strip() or "0"
    if not open_seats.isdigit():
        return _lobby_error(form, _("Open seats is a number (0 for none).")), 400
    game, options = _chosen_game(form)
    # the service's own options: a clock (default 3 days per move) and the timeout policy
    options["clock"] = form.get("clock", "") or LOBBY_DEFAULT
    if form.get("on_timeout"):
        options["on_timeout"] = form["on_timeout"]
    options["rated"] = form.get("rated", "") or "off"   # an unticked box sends nothing
    if form.get("rest_days", "").strip():    # e.g. sat,sun: every seat's clock stops then
        options["rest_days"] = form["rest_days"][:80]
    invitations.create_game(services(), me.id, game.id, players,
                            open_seats=int(open_seats[:3]), options=options,
                            public=form.get("public", "") == "on")
    return redirect(url_for("accounts.me"))


def _practice_refused(exc, **_view_args):
    return _practice_error(request.form, exc.detail), 400


@bp.post("/practice")
@on_refusal(_practice_refused)
def practice():
    """"Play against bots": the person takes the first seat, bots the others, and the browser
    goes straight to that seat's page (its link is the key to the seat: keep it). A signed-in
    player plays as their account (the game is on their games page); anyone else as a guest
    known by the seat link, unless they give an address."""
    form = request.form
    entry, count = _table_of(form)
    me = current_account()
    try:
        game, options = _chosen_game(form, entry)
        seats = int(count or min(game.seats))
        started, seat = play.start_practice(
            services(), game.id, seats, form.get("level", "normal"), options,
            address=form.get("email", "").strip() or (me.email if me else ""),
            mail=form.get("mail") == "on")
    except ValueError:
        return _practice_error(form, _("Choose how many players, as a number.")), 400
    # the page's own fragment: without one the browser would keep the form's (#practice)
    return redirect(services().urls.game_path(started.game_id, seat) + "#game")


def _table_of(form) -> tuple[str, str]:
    """The practice form's one choice "game:players" (`table`); `game` and `seats` (as the
    form used to post them) are read too."""
    entry, _, count = form.get("table", "").rpartition(":")
    return (entry, count) if entry else (form.get("game", ""), form.get("seats", ""))


def _practice_error(form, error: str):
    """The lobby with the practice form as it was filled in: the game chosen stays chosen,
    at the count asked for or the nearest one it has."""
    entry, count = _table_of(form)
    values = [v for _, counts in practice_tables() for v, _ in counts
              if v.startswith(entry + ":")]
    table = f"{entry}:{count}"
    if values and table not in values:
        wanted = int(count) if count.isdigit() else 0
        table = min(values, key=lambda v: abs(int(v.rpartition(":")[2]) - wanted))
    return _lobby({}, None, practice={**form.to_dict(), "table": table}, practice_error=error)


def _chosen_game(form, entry: str | None = None):
    """The lobby entry and options a form chose; BadStart with words if they make no game."""
    entry = form.get("game", "") if entry is None else entry
    chosen = next((e for e in registry.lobby() if e[0] == entry), None)
    if chosen is None:
        raise play.BadStart(_("There is no game called %(entry)r.", entry=entry))
    game, preset = chosen[2], chosen[3]
    # options are named per lobby entry (two entries may share an engine)
    options = {name: form[f"{entry}.{name}"] for name in game.options
               if name not in preset and form.get(f"{entry}.{name}", "") != ""}
    fixed = sorted(TABLE_ONLY & set(options))
    if fixed:
        raise play.BadStart(_("The option %(name)r fixes the deal, so whoever starts the "
                              "game would know every hand; it is only for replaying a table "
                              "game: flask --app service.web start-game ... -o NAME=VALUE",
                              name=fixed[0]))
    options.update(preset)
    return game, options


def _lobby_error(form, error: str):
    return _lobby(form, error)


@bp.get("/games/<public_id>")
def public_page(public_id: str):
    """The public page of a game: the spectator's view and the public history; found only by
    its unguessable id, and off when its players chose so."""
    game = play.public_game(services(), public_id)
    if game.status == play.GameStatus.FORMING:
        return render_template("web/forming.html", game=game)
    read = play.read_game(services(), game.game_id, play.Reader.spectator(public_id),
                          before=_before())
    return pages.render_game(read, view_token="",
                             dev_outbox="dev.outbox" in current_app.view_functions,
                             follow_path=url_for("follows.follow_game", public_id=public_id))


@bp.get("/g/<token>")
def game_page(token: str):
    claims = services().urls.signer.loads("view", token)
    read = play.read_game(services(), claims.game, pages.seat_reader(claims), before=_before())
    return pages.render_game(read, view_token=token, nonce=secrets.token_urlsafe(16))

def _before() -> int | None:
    """?before=N: the page of history before event N (a bad number shows the newest)."""
    before = request.args.get("before", type=int)
    return before if before is not None and 1 < before < 2**31 else None


def _game_page_again(kept=None):
    """An answer for on_refusal: the game page, the refusal's words on top, and what the
    player wrote (`kept(form)`: the page's fields to fill in again) kept."""
    def answer_with(exc, token: str):
        claims = services().urls.signer.loads("view", token)
        return _page_error(token, claims, exc, **(kept(request.form) if kept else {}))
    return answer_with


@bp.post("/g/<token>/say")
@on_refusal(_game_page_again(lambda form: {"said": form.get("text", "")}))
def say(token: str):
    """The message box: to everyone, or privately to one seat."""
    claims = services().urls.signer.loads("view", token)
    to = request.form.get("to", "")
    text = request.form.get("text", "")
    try:
        to_seat = int(to) if to.strip() else None
    except ValueError:
        raise play.ChatRefused(_("Choose whom the message is for.")) from None
    play.say(services(), claims.game, claims.seat, text, to_seat)
    flash(_("Message sent privately.") if to.strip() else _("Message sent to everyone."))
    return redirect(url_for("games.game_page", token=token) + "#history")


@bp.post("/g/<token>/undo")
@on_refusal(_game_page_again())
def undo(token: str):
    """The undo buttons: ask to take back your last move, or accept / refuse a request."""
    claims = services().urls.signer.loads("view", token)
    done = play.undo_command(services(), claims.game, claims.seat,
                             request.form.get("answer", ""))
    flash(done.words)
    return redirect(url_for("games.game_page", token=token))


def _page_error(token, claims, exc, **extra):
    try:
        read = play.read_game(services(), claims.game, pages.seat_reader(claims))
    except play.NotYourSeat as refused:      # the link's seat changed hands: no page for it
        return pages.problem(refused.title, refused.detail, 403)
    return pages.render_game(read, view_token=token, nonce=secrets.token_urlsafe(16),
                             error=exc, **extra), 422


def _command_lines(form) -> list[str]:
    lines = [ln.strip() for ln in form.get("commands", "").splitlines()]
    return [ln for ln in lines if ln and not ln.startswith("#")]


@bp.post("/g/<token>/play")
@on_refusal(_game_page_again(lambda form: {"typed": "\n".join(_command_lines(form))}))
def turn_form(token: str):
    """Commands typed on the game page, one per line: applied in order, all or none."""
    claims = services().urls.signer.loads("view", token)
    lines = _command_lines(request.form)
    if request.form.get("try") and lines:
        # the Try button beside Send: the same lines, tried and not made (`try`)
        lines = ["try " + ln for ln in lines]
    seen = request.form.get("seen") or None
    nonce = request.form.get("nonce") or None
    intent = play.Intent(claims.game, claims.seat, lines=lines, expected=seen, source="web",
                         key=f"form:{nonce}" if nonce else None, holder=claims.holder)
    try:
        # one batch, all or none (service.play.moves.runner); the words' answers (help,
        # resign ...) are shown on the page
        for answer in play.runner.run(services(), intent).texts:
            flash(answer)
    except play.AlreadyDone:
        pass          # a double submit: the first one made the moves
    return redirect(url_for("games.game_page", token=token))


@bp.get("/g/<token>/replay")
def replay(token: str):
    """Step back and forth through the positions as this seat saw them (links; keys n/p)."""
    claims = services().urls.signer.loads("view", token)
    step = play.replay_step(services(), claims.game, pages.seat_reader(claims),
                            request.args.get("at", type=int))
    return render_template("web/replay.html", step=step, view=step.view, names=step.names,
                           me=step.seat, said=step.said,
                           back=url_for("games.game_page", token=token),
                           partial_html=game_partial(current_app.jinja_env, step.kind, "html"))


@bp.get("/g/<token>/log.json")
def seat_log(token: str):
    """This seat's own view of the log, as a JSON download."""
    claims = services().urls.signer.loads("view", token)
    log = play.seat_log(services(), claims.game, pages.seat_reader(claims))
    return _download(log, f"turnpost-game-{claims.game}-seat-{claims.seat + 1}.json")


#: a whole log refused for another reason than a missing game (not yet finished, not theirs)
LOG_REFUSED = problem_page(403)


@bp.get("/g/<token>/whole-log.json")
@on_refusal(LOG_REFUSED, unless=(play.NoSuchGame,))
def whole_log_for_seat(token: str):
    """The whole log of a finished game, for a seat's holder (by the game page's link)."""
    claims = services().urls.signer.loads("view", token)
    return _whole_log(pages.seat_reader(claims), claims.game)


@bp.get("/games/<int:game_id>/log.json")
@on_refusal(LOG_REFUSED, unless=(play.NoSuchGame,))
def whole_log(game_id: int):
    """The whole log of a finished game, for a signed-in player of it."""
    me = current_account()
    return _whole_log(play.Reader.player(me.id if me else None), game_id)


@bp.get("/games/<public_id>/log.json")
@on_refusal(LOG_REFUSED, unless=(play.NoSuchGame,))
def public_log(public_id: str):
    """The whole log of a finished public game, for its public page's audience."""
    return _whole_log(play.Reader.spectator(public_id))


def _whole_log(reader: play.Reader, game_id: int | None = None):
    """Every event of a finished game, hidden cards and all; to whoever may not read it, the
    same 404 whether the game exists or not."""
    log = play.whole_log(services(), reader, game_id)
    return _download(log, f"turnpost-game-{log['game']}.json")


def _download(log: dict, filename: str):
    response = jsonify(log)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
