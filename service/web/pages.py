"""Rendering a game for one seat, and problem pages. Reads go through `play.read_game`, as
the reader a link names (`seat_reader`)."""
from __future__ import annotations

from datetime import datetime

from babel.dates import format_skeleton, format_time
from flask import current_app, render_template, request, session

from service import play
from service.display.boardpicture import drawing
from service.display.seatview import result_line
from service.games import cards
from service.mailwire.outbound import catalogs
from service.mailwire.outbound.catalogs import _
from service.mailwire.outbound.templating import game_partial
from service.play.players import accounts

from .ext import services

MAX_BUTTONS = 400
#: a seat another player may invite someone to take over
REPLACEABLE = (play.SeatStatus.ABSENT, play.SeatStatus.RESIGNED)


def seat_reader(claims) -> play.Reader:
    """Whoever holds a seat's signed link (its signature checked): the reader it names, for
    the read policy (service.play.readpolicy) to admit."""
    return play.Reader.at(claims.game, claims.seat, claims.holder)


def move_url(page, move) -> str:
    return services().urls.move_path(page.game_id, page.me, page.mark, move, page.holder)


def when(iso: str) -> str:
    """A history entry's time as people read it: "24 Nov 09:05 UTC", in German "24. Nov.
    09:05 UTC", in French "24 nov. 09:05 UTC" (the <time> element carries the exact instant
    for the browser's own zone)."""
    at = datetime.fromisoformat(iso)
    if catalogs.current() == catalogs.DEFAULT:
        return at.strftime("%d %b %H:%M UTC").lstrip("0")
    lang = catalogs.current()
    return f"{format_skeleton('MMMd', at, locale=lang)} {format_time(at, 'short', locale=lang)} UTC"


def card_alt(card_id: str) -> str:
    """A card picture's alternative text, each word once: "the Mill (8 Waves/Leaves)",
    "the Ace of Waves", "the Excuse", "Ace of Spades"."""
    try:
        name, label = cards.name(card_id), cards.label(card_id)
    except (KeyError, ValueError):
        return _("a card")
    if not label.startswith(name):          # French cards: "A♠" says less than its name
        return name
    extra = label[len(name):].strip(" ()")
    words = name.lower().split()
    if not extra or all(w.lower() in words for w in extra.split()):
        return name
    return f"{name} ({extra})"


def someone_elses_seat(read) -> str:
    """Words for a page whose buttons act for a seat that is not the signed-in player's (a
    forwarded email's link, or another account's): whose seat it is, and who is signed in.
    The link still works: it is the key to the seat, whoever holds it. "" otherwise."""
    signed_in = session.get("player")
    page = read.page
    if not signed_in or read.seat_player is None or signed_in == read.seat_player \
            or page.me is None:
        return ""
    me = accounts.account(services(), signed_in)
    if me is None:
        return ""
    return _("This is %(seat)s's seat; you are signed in as %(name)s (%(email)s). What you "
             "do here is done for %(seat)s's seat.", seat=page.names[page.me], name=me.name,
             email=me.email)


def render_game(read, view_token: str, **extra):
    page = read.page
    env = current_app.jinja_env
    # whom a message can go to: everyone, or one other person at the table
    recipients = [(s, n) for s, n in enumerate(page.names)
                  if s != page.me and s not in read.bots]
    return render_template("web/game.html", page=page, view=page.view, names=page.names,
                           me=page.me, history=list(reversed(read.history)), token=view_token,
                           bounced=read.bounced,
                           older=read.older, recipients=recipients, undo=read.undo,
                           result=result_line(page), attempts=read.attempts,
                           rematch=read.rematch, public_path=read.public_path,
                           reader_zone=read.zone, plans=read.plans, plan_hints=read.plan_hints,
                           # the page's own address, for its history links (a refused move
                           # link shows this page at /m/...)
                           here=f"/g/{view_token}" if view_token else request.path,
                           older_page=request.args.get("before", type=int) is not None,
                           moves=[{"text": m["text"], "url": move_url(page, m["move"])}
                                  for m in page.menu],
                           groups=grouped_moves(page) if view_token else {},
                           step_hint=step_hint(page),
                           partial_html=game_partial(env, page.kind, "html"),
                           table=drawing(page.view, page.names, page.me),
                           replaceable=[c for c in page.clocks if c["status"] in REPLACEABLE],
                           elsewhere=someone_elses_seat(read) if view_token else "",
                           tournament_id=read.tournament_id,
                           my_notes=read.notes, next_game=_next_game(read.next_game),
                           followers=read.followers,
                           **extra)


def _next_game(waiting) -> dict | None:
    """The "Next game" button: the seat page of the player's game waiting longest."""
    if waiting is None:
        return None
    return {"title": f"{waiting.title} #{waiting.game_id}",
            "url": services().urls.game_path(waiting.game_id, waiting.seat, waiting.holder)}


def step_hint(page) -> str:
    """What every move button on the game page does: one behaviour for all of them (a link
    from an email is a whole turn; a button here is one step)."""
    hint = _("Each button makes its move at once and brings you back here.")
    if "turn_open" in page.view:      # a game whose turn stays open after the card play (M9)
        hint += " " + _("After the card play your turn stays open for more until you press "
                        "“end turn” (it ends by itself when nothing is left to add or "
                        "trade).")
    return hint


def grouped_moves(page) -> dict[str, list[dict]]:
    """Every legal move as a button, grouped by kind ("trade", "add", "buy"...): clicking
    trades and deed additions one by one, then the card play, composes a whole turn."""
    groups: dict[str, list[dict]] = {}
    for m in page.all_moves[:MAX_BUTTONS]:
        kind = str(m["move"].get("type", "move")).replace("_", " ")
        groups.setdefault(kind, []).append({"text": m["text"], "url": move_url(page, m["move"])})
    return groups


def problem(title: str, detail: str, status: int, game_link: str | None = None, **extra):
    """The problem page. A title or detail that is a catalog's msgid (a refusal's, marked N_
    where it is raised) is said in the page's language here, as plain text the template
    escapes; one already said, or naming what a player typed, is found in no catalog and
    stays as it is."""
    title, detail = (_(words) if words else words for words in (title, detail))
    return render_template("web/problem.html", title=title, detail=detail,
                           game_link=game_link, **extra), status
