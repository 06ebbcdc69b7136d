"""Extension by request: `extend 2d` (in a reply, on the game page, through the API) asks the
other players to move the asker's deadline later; each agrees with one click or by writing
`agree` (a bot agrees at once), and the deadline moves when the last one has; one `decline`
ends the request and the deadline stays. A player may ask `extensions` times per game (a game
option, default 1; a declined request counts); an extension asked for while one waits, or for
a number of days outside 1 to 14, is refused with words naming what works. Nothing changes on
a refusal.

The agreement links are the /s/ links of another seat's clock (purpose "seat", act "agree")."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.mailwire.outbound import catalogs
from service.mailwire.outbound.catalogs import N_, _, ngettext
from service.store.models import ExtensionRequest, GameRow

from .. import notify, repository
from ..errors import PlayError
from ..repository import check_holder
from ..services import Services
from . import clocks, deadlines

WORD = "extend"
AGREE, DECLINE = "agree", "decline"     # the other players' words in answer
#: those words in each language (the command registry's aliases, service.play.moves.wordregistry):
#: a request's notice names the ones its reader would write
ANSWER_ALIASES = {AGREE: {"de": "zustimmen", "fr": "accepter"},
                  DECLINE: {"de": "ablehnen", "fr": "refuser"}}
OPTION = "extensions"
DEFAULT_PER_PLAYER = 1
LONGEST_DAYS = 14
_DAYS = re.compile(r"^(\d{1,4})\s*(?:d|days?)?$", re.IGNORECASE)


class ExtensionRefused(PlayError):
    title = "Nothing was changed"


@dataclass(frozen=True)
class Extension:
    words: str
    outbox_ids: list[int]


def read_option(options: dict[str, Any]) -> tuple[dict[str, Any], int | None]:
    """Split `extensions=N` off a game's options: (the rest, N or None when not given); N is
    0 to 10 (0: none); ClockError with words otherwise, as the other time options."""
    rest = {k: v for k, v in options.items() if k != OPTION}
    if OPTION not in options:
        return rest, None
    text = str(options[OPTION]).strip()
    if not text.isdigit() or int(text) > 10:
        raise clocks.ClockError(_("extensions=%(text)s is not a number of extensions per "
                                  "player; write one from 0 to 10, such as extensions=1.",
                                  text=text))
    return rest, int(text)


def allowed(game) -> int:
    return DEFAULT_PER_PLAYER if game.extensions is None else game.extensions


def parse_days(rest: str) -> int:
    """`2d`, `2 days`, `2`: the days asked for, 1 to 14; else ExtensionRefused with words."""
    written = rest.strip()
    match = _DAYS.match(written)
    if not match:
        raise ExtensionRefused(_("`extend %(written)s` is not a number of days; write `extend "
                                 "2d`: from 1 to %(most)s days.", written=written,
                                 most=LONGEST_DAYS))
    days = int(match.group(1))
    if not 1 <= days <= LONGEST_DAYS:
        raise ExtensionRefused(_("`extend %(written)s` is outside the range allowed; write "
                                 "`extend 2d`: from 1 to %(most)s days.", written=written,
                                 most=LONGEST_DAYS))
    return days


def ask(svc: Services, game_id: int, seat: int, rest: str, holder: int | None = None
        ) -> Extension:
    """The `extend` word: the registry entry of the player's words calls this, with the text
    after the word."""
    with svc.db.transaction() as session:
        return ask_in(session, svc, game_id, seat, rest, holder)


def ask_in(session: Session, svc: Services, game_id: int, seat: int, rest: str,
           holder: int | None = None) -> Extension:
    """The same in the caller's transaction (a reply email's other lines share it)."""
    days = parse_days(rest)
    now = svc.clock.now()
    game = repository.game_row(session, game_id, lock=True)
    check_holder(game, seat, holder)
    if game.status != "active":
        raise ExtensionRefused(_("This game has finished; there is no deadline to extend."))
    row = deadlines.seat_row(game, seat)
    clock = deadlines.get_clock(row)
    if not clock.in_turn or clock.deadline is None:
        raise ExtensionRefused(_("You have no deadline running in this game; ask for an "
                                 "extension when it is your turn."))
    mine = session.scalars(select(ExtensionRequest).where(
        ExtensionRequest.game_id == game_id, ExtensionRequest.seat == seat,
        ExtensionRequest.holder == row.holder)).all()
    if any(r.status == "open" for r in mine):
        raise ExtensionRefused(_("You have already asked for an extension; it waits for the "
                                 "others to agree."))
    used = sum(1 for r in mine if r.status in ("done", "declined"))
    if used >= allowed(game):
        limit = allowed(game)
        raise ExtensionRefused(ngettext(
            "This game allows %(num)s extension per player, and you have used %(used)s (a "
            "declined request counts); move before your deadline, or take vacation days "
            "(`vacation 2`).",
            "This game allows %(num)s extensions per player, and you have used %(used)s (a "
            "declined request counts); move before your deadline, or take vacation days "
            "(`vacation 2`).", limit, used=used))
    answers = {str(r.seat): True for r in game.seats if r.seat != seat and r.bot}
    request = ExtensionRequest(game_id=game_id, seat=seat, holder=row.holder, days=days,
                               answers=answers, status="open", created_at=now)
    session.add(request)
    session.flush()
    waiting = [r for r in game.seats if r.seat != seat and str(r.seat) not in answers]
    if not waiting:
        return _apply(session, svc, game, request, now)
    name = deadlines.who(seat)
    ids = []
    for r in waiting:
        url = svc.urls.absolute(svc.urls.seat_action_path(game.id, r.seat, r.holder, "agree",
                                                          request.id))
        with catalogs.speaking(r.player.language):      # each reader's own words
            what = _days(days)
            notice = {"text": _("%(name)s asks for %(what)s more to move; reply `%(agree)s` to "
                                "give it or `%(decline)s` to refuse, or use the link",
                                name=name, what=what, agree=_answer_word(AGREE),
                                decline=_answer_word(DECLINE)),
                      "seat": seat,
                      "actions": [{"text": _("Agree to give %(what)s more", what=what),
                                   "url": url}]}
        ids.append(notify.queue(session, game, r.seat, "timeout", game.seq, now,
                                {"timeout": notice}))
    session.flush()
    return Extension(_("Asked the others for %(what)s more; your deadline moves when they "
                       "all agree.", what=_days(days)), [o.id for o in ids])


def _answer_word(word: str) -> str:
    """`agree` or `decline` as the language of the moment writes it (English always works)."""
    return ANSWER_ALIASES[word].get(catalogs.current(), word)


def _days(n: int) -> str:
    """A number of days asked for, in the language of the moment ("2 days", "2 Tage")."""
    return ngettext("%(num)s day", "%(num)s days", n)


def agree(svc: Services, game_id: int, by_seat: int, holder: int, request_id: int) -> str:
    """One click of another player: their agreement; the deadline moves with the last one."""
    with svc.db.transaction() as session:
        game = repository.game_row(session, game_id, lock=True)
        check_holder(game, by_seat, holder)
        request = session.get(ExtensionRequest, request_id)
        if request is None or request.game_id != game_id or request.seat == by_seat:
            raise ExtensionRefused(_("This link is not for an extension of this game."))
        done = _agreed(session, svc, game, request, by_seat)
    return done.words


def answer_in(session: Session, svc: Services, game_id: int, by_seat: int, word: str,
              holder: int | None = None) -> Extension:
    """`agree` or `decline` written by another player (a reply to the request's email, the
    game page's box, the API), in the caller's transaction: the answer to every request of
    this game still waiting for theirs."""
    game = repository.game_row(session, game_id, lock=True)
    check_holder(game, by_seat, holder)
    waiting = [r for r in session.scalars(select(ExtensionRequest).where(
        ExtensionRequest.game_id == game_id, ExtensionRequest.status == "open",
        ExtensionRequest.seat != by_seat).order_by(ExtensionRequest.id))
        if str(by_seat) not in (r.answers or {})]
    if not waiting:
        raise ExtensionRefused(_("Nobody in this game is waiting for your answer to a request "
                                 "for more time, so there is nothing to %(word)s. To make a "
                                 "move, write it as `help` lists it.", word=_answer_word(word)))
    answer = _agreed if word == AGREE else _declined
    done = [answer(session, svc, game, request, by_seat) for request in waiting]
    return Extension(" ".join(d.words for d in done), [i for d in done for i in d.outbox_ids])


def _still_needed(game: GameRow, request: ExtensionRequest) -> str | None:
    """Why a request can no longer be answered, or None while it waits."""
    row = deadlines.seat_row(game, request.seat)
    if request.status == "declined":
        return _("This request was declined already; the deadline stays.")
    if request.status != "open" or game.status != "active" \
            or not deadlines.get_clock(row).in_turn or row.holder != request.holder:
        request.status = "expired"
        return _("%(name)s has moved since (or the game is over); the extension is no longer "
                 "needed.", name=row.player.name)
    return None


def _agreed(session: Session, svc: Services, game: GameRow, request: ExtensionRequest,
            by_seat: int) -> Extension:
    if request.status == "done":
        return Extension(_("Everyone agreed already; the deadline has moved."), [])
    why = _still_needed(game, request)
    if why is not None:
        raise ExtensionRefused(why)
    request.answers = dict(request.answers or {}, **{str(by_seat): True})
    waiting = [r for r in game.seats if r.seat != request.seat
               and str(r.seat) not in request.answers]
    if waiting:
        return Extension(_("Thank you; the extension waits for %(names)s.",
                           names=", ".join(r.player.name for r in waiting)), [])
    return _apply(session, svc, game, request, svc.clock.now())


def _declined(session: Session, svc: Services, game: GameRow, request: ExtensionRequest,
              by_seat: int) -> Extension:
    """One refusal ends the request: the asker is told, and their deadline stays."""
    if request.status == "done":
        raise ExtensionRefused(_("Everyone agreed already; the deadline has moved."))
    why = _still_needed(game, request)
    if why is not None:
        raise ExtensionRefused(why)
    request.answers = dict(request.answers or {}, **{str(by_seat): False})
    request.status = "declined"
    now = svc.clock.now()
    row = deadlines.seat_row(game, request.seat)
    deadlines.change(session, game, row, "extension declined", deadlines.said(
        N_("{player} declined {request}"), N_("You declined {request}"), by_seat,
        request=deadlines.about(N_("the request of {player} for {days}"),
                                N_("the request of you for {days}"), request.seat,
                                days=deadlines.more_days(request.days))), now)
    deadline = deadlines.get_clock(row).deadline
    with catalogs.speaking(row.player.language):        # the asker's words
        asked = ngettext("%(num)s more day", "%(num)s more days", request.days)
        if deadline:
            said = _("%(by)s declined your request for %(days)s; your deadline stays %(until)s",
                     by=deadlines.who(by_seat), days=asked,
                     until=clocks.format_deadline(deadline, now, row.player.zone))
        else:
            said = _("%(by)s declined your request for %(days)s", by=deadlines.who(by_seat),
                     days=asked)
    told = notify.queue(session, game, request.seat, "timeout", game.seq, now, {"timeout": {
        "text": said, "seat": by_seat}})
    session.flush()
    return Extension(_("You declined %(name)s's request for %(days)s; their deadline stays.",
                       name=row.player.name,
                       days=ngettext("%(num)s more day", "%(num)s more days", request.days)),
                     [told.id])


def _apply(session: Session, svc: Services, game: GameRow, request: ExtensionRequest,
           now: datetime) -> Extension:
    row = deadlines.seat_row(game, request.seat)
    clock = deadlines.get_clock(row)
    deadlines.set_clock(row, replace(clock, deadline=clock.deadline + timedelta(days=request.days),
                                  reminded=False, timed_out=False))
    request.status = "done"
    who = deadlines.who(request.seat)
    moved = clock.deadline + timedelta(days=request.days)
    deadlines.change(session, game, row, "extended", deadlines.said(
        N_("everyone agreed: {player} has {days}"), N_("everyone agreed: you have {days}"),
        request.seat, days=deadlines.more_days(request.days)), now)

    def agreed(reader: int) -> str:
        until = clocks.format_deadline(moved, now, row.player.zone)   # in the reader's words
        if reader == request.seat:
            return _("Everyone agreed: your deadline moves to %(until)s", until=until)
        return _("Everyone agreed: %(name)s's deadline moves to %(until)s", name=who,
                 until=until)
    ids = deadlines.tell(session, svc, game, request.seat, agreed, now, offer=False,
                         others_only=False)
    return Extension(_("Everyone agreed: the deadline is now %(until)s.",
                       until=clocks.format_deadline(moved, now, row.player.zone)), ids)
