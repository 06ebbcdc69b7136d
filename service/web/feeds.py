"""A player's calendar of move deadlines (ICS) and feed of "your move" (Atom), at secret URLs:
/feeds/<feed token>/deadlines.ics and /feeds/<feed token>/moves.atom. A feed token is a
personal token of scope "feed" (made and revoked on the API tokens page, or `flask api-token
create --feed`); a revoked one answers 404. Each entry links the player's own game page.

A feed reader or a calendar sends no cookie and seldom a language: both speak the player's
chosen language (their preference), whoever fetches them."""
from __future__ import annotations

from datetime import datetime, timedelta

from flask import Blueprint, Response, abort, render_template
from icalendar import Calendar, Event

from service import play
from service.mailwire.outbound import catalogs
from service.mailwire.outbound.catalogs import _
from service.play.players import accounts, personaltokens
from service.play.reads import apireads
from service.play.time import clocks

from .ext import services

bp = Blueprint("feeds", __name__, url_prefix="/feeds")


def _games(token: str) -> tuple[personaltokens.Holder, list[apireads.GameLine]]:
    holder = personaltokens.holder(services(), token, scope="feed")
    if holder is None:
        abort(404)
    return holder, apireads.my_games(services(), holder.player_id, play.GameStatus.ACTIVE)


def _page(line: apireads.GameLine) -> str:
    urls = services().urls
    return urls.absolute(urls.game_path(line.game_id, line.seat))


#: a deadline's calendar event ends at the deadline: the hour before it, to move in (an event
#: of no length is hidden or drawn as a hairline by most calendars)
EVENT_LENGTH = timedelta(hours=1)


@bp.get("/<token>/deadlines.ics")
def deadlines(token: str):
    """One event per seat with a deadline (games with clocks); an empty calendar otherwise.
    The calendar's name is the service's, never the address (a subscribed calendar is shown
    to whoever sees the subscriber's calendars)."""
    holder, games = _games(token)
    with catalogs.speaking(accounts.chosen_language(services(), holder.player_id)):
        return Response(_calendar(games).to_ical(), mimetype="text/calendar")


def _calendar(games: list[apireads.GameLine]) -> Calendar:
    cal = Calendar()
    cal.add("prodid", "-//Turnpost//deadlines//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", _("Turnpost: moves due"))
    domain = services().urls.domain
    for line in games:
        if line.deadline is None:
            continue
        event = Event()
        event.add("uid", f"deadline-{line.game_id}-{line.seat}@{domain}")
        event.add("summary", (_("Your move: %(title)s game %(id)s") if line.your_turn else
                              _("Deadline: %(title)s game %(id)s"))
                  % {"title": line.title, "id": line.game_id})
        event.add("dtstart", line.deadline - EVENT_LENGTH)
        event.add("dtend", line.deadline)
        event.add("dtstamp", line.updated)
        event.add("url", _page(line))
        event.add("description", _("Game page: %(url)s", url=_page(line)))
        cal.add_component(event)
    return cal


@bp.get("/<token>/moves.atom")
def moves(token: str):
    """An entry each time it becomes this player's move (its id names the position)."""
    holder, games = _games(token)
    with catalogs.speaking(accounts.chosen_language(services(), holder.player_id)) as lang:
        return _feed(token, holder, games, lang)


def _feed(token: str, holder: personaltokens.Holder, games: list[apireads.GameLine],
          lang: str) -> Response:
    me = accounts.account(services(), holder.player_id)
    now = services().clock.now()

    def due(deadline) -> str:
        # in words, in the player's zone, without "(in 2 days)": a feed is read later
        return clocks.format_deadline(deadline, now, me.zone if me else None, from_now=False)
    entries = [dict(id=f"tag:{services().urls.domain},2026:game-{g.game_id}-seat-{g.seat}"
                       f"-seq-{g.seq}", title=_("Your move: %(title)s game %(id)s", title=g.title, id=g.game_id),
                    updated=_stamp(g.updated), link=_page(g), players=", ".join(g.players),
                    due=due(g.deadline) if g.deadline else "")
               for g in games if g.your_turn]
    updated = max((e["updated"] for e in entries), default=None)
    xml = render_template("web/moves.atom.xml", entries=entries, updated=updated, lang=lang,
                          self_url=services().urls.absolute(f"/feeds/{token}/moves.atom"))
    response = Response(xml, mimetype="application/atom+xml")
    response.headers["Content-Language"] = lang
    return response


def _stamp(when: datetime) -> str:
    """An Atom date (RFC 3339), to the second."""
    return when.replace(microsecond=0).isoformat()
