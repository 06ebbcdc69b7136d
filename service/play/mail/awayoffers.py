"""Out-of-office replies: an auto-reply to a turn email is never answered as a move (intake
counts it a robot's), but when it is an out-of-office reply (RFC 3834 `Auto-Submitted:
auto-replied`, an X-Autoreply header, or an "Out of office" / "Automatic reply" subject) from
the seat's own player, that player gets one email offering a vacation until the return date the
reply names (or 7 days), at most one such offer a week. Nothing is applied until the link is
pressed (the /s/ links: GET shows, POST applies), and a press after the player moved, or once
the date has passed, gets a clear answer instead."""
from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.linking.signer import Claims
from service.mailwire.inbound.parse import InboundMail
from service.mailwire.outbound.catalogs import _
from service.play import notify
from service.play.errors import PlayError
from service.play.players import seatchanges
from service.play.repository import check_holder
from service.play.services import Services
from service.play.time import clocks, deadlines
from service.store.models import EventRow, GameRow, OutboxRow

ACT = "away"
ONE_OFFER_PER = timedelta(days=7)
DEFAULT_DAYS = 7
_OOO_REASON = re.compile(r"^(auto-submitted: auto-replied|x-autoreply|x-autorespond|"
                         r"x-mail-autoreply|precedence: auto.reply|auto-reply subject)",
                         re.IGNORECASE)
_NOT_OOO_SUBJECT = re.compile(r"delivery|undeliver|mail delivery", re.IGNORECASE)
_MONTHS = {m: n for n, names in enumerate(
    [("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",),
     ("jun", "june"), ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"),
     ("oct", "october"), ("nov", "november"), ("dec", "december")], start=1) for m in names}
_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_CUE = r"(?:back|return|returning|returned|until|till|through|thru|in the office)"
_MONTH = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|" \
         r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
_ISO = re.compile(_CUE + r"\D{0,20}?(\d{4})-(\d{2})-(\d{2})", re.IGNORECASE)
_DAY_MONTH = re.compile(_CUE + r"[^.\n]{0,20}?\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH
                        + r"\b(?:,?\s+(\d{4}))?", re.IGNORECASE)
_MONTH_DAY = re.compile(_CUE + r"[^.\n]{0,20}?\b" + _MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b"
                        r"(?:,?\s+(\d{4}))?", re.IGNORECASE)
_WEEKDAY = re.compile(_CUE + r"[^.\n]{0,12}?\b(?:on\s+|next\s+)?(" + "|".join(_WEEKDAYS) + r")\b",
                      re.IGNORECASE)


def is_out_of_office(mail: InboundMail) -> bool:
    """An out-of-office auto-reply, not a bounce, a list or a no-reply robot."""
    why = mail.automated or ""
    return bool(_OOO_REASON.match(why)) and not _NOT_OOO_SUBJECT.search(mail.subject or "")


def return_day(text: str, today: date) -> date | None:
    """The day the writer is back, from common English forms ("back on 12 December", "until
    2026-12-24", "returning Monday", "in the office on December 3rd"); None when none is
    named. A day and month without a year is the next such day from `today`."""
    if m := _ISO.search(text):
        try:
            return date(int(m[1]), int(m[2]), int(m[3]))
        except ValueError:
            return None
    for pattern, day_group, month_group in ((_DAY_MONTH, 1, 2), (_MONTH_DAY, 2, 1)):
        if m := pattern.search(text):
            month = _MONTHS[m[month_group].lower()]
            try:
                if m[3]:
                    return date(int(m[3]), month, int(m[day_group]))
                found = date(today.year, month, int(m[day_group]))
            except ValueError:
                return None
            return found if found >= today else found.replace(year=today.year + 1)
    if m := _WEEKDAY.search(text):
        ahead = (_WEEKDAYS.index(m[1].lower()) - today.weekday()) % 7 or 7
        return today + timedelta(days=ahead)
    return None


def consider(svc: Services, mail: InboundMail, game_id: int | None, seat: int | None
             ) -> tuple[str, str] | None:
    """An auto-reply to the turn email of (game, seat): ("offered", detail) when an offer was
    queued, ("ignored", why not) for an out-of-office reply that gets none, None for any
    other robot."""
    if not is_out_of_office(mail) or game_id is None:
        return None
    now = svc.clock.now()
    with svc.db.transaction() as session:
        game = session.get(GameRow, game_id)
        sender = (mail.sender or "").lower()
        row = next((r for r in game.seats if r.player.email == sender
                    and seat in (None, r.seat)), None) if game else None
        if row is None or game.status != "active":
            return "ignored", "an out-of-office reply, but not from this seat's player"
        player = row.player
        if player.away_offered_at is not None and now - player.away_offered_at < ONE_OFFER_PER:
            return "ignored", "an out-of-office reply; a vacation was offered this week already"
        today = clocks.local_today(now, player.zone)
        named = return_day(f"{mail.subject}\n{mail.body_text}", today)
        out = _offer(session, svc, game, row, named, today, now)
        player.away_offered_at = now
        session.flush()
    return "offered", f"an out-of-office reply: a vacation offered (outbox row {out.id})"


def seat_of_bounce_token(svc: Services, token: str) -> tuple[int | None, int | None]:
    """An auto-reply sent to an email's return path (as RFC 3834 asks): its game and seat."""
    with svc.db.transaction() as session:
        found = session.execute(select(OutboxRow.game_id, OutboxRow.seat)
                                .where(OutboxRow.message_id == token)).first()
    return (found[0], found[1]) if found else (None, None)


def _offer(session: Session, svc: Services, game, row, named: date | None, today: date,
           now: datetime) -> OutboxRow:
    default = today + timedelta(days=DEFAULT_DAYS - 1)
    if named is None:
        why = "Your automatic reply named no return date, so this is for 7 days"
        last = default
    elif named <= today:
        why = (f"Your automatic reply named {named.isoformat()}, which has passed, so this is "
               "for 7 days")
        last = default
    else:
        why = f"Your automatic reply says you are back on {named.isoformat()}"
        last = max(named - timedelta(days=1), today)     # the day before they are back
    token_url = svc.urls.absolute("/s/" + svc.urls.signer.dumps("seat", _claims(
        game.id, row.seat, row.holder, last, game.seq)))
    text = (f"{why}: your clocks could stop in every game until the end of {last.isoformat()} "
            "(a vacation, counted from your yearly days). Nothing changes unless you press the "
            "button; your automatic reply was not taken as a move.")
    return notify.queue(session, game, row.seat, "timeout", game.seq, now, {"timeout": {
        "text": text, "seat": row.seat,
        "actions": [{"text": f"Take a vacation until {last.isoformat()}", "url": token_url}]}})


def _claims(game_id: int, seat: int, holder: int, last: date, seq: int) -> Claims:
    return Claims(game_id, seat, move={"act": ACT, "target": seat, "until": last.isoformat(),
                                       "seq": seq}, holder=holder)


def accept(svc: Services, game_id: int, seat: int, holder: int, move: dict) -> str:
    """The offer's button: the vacation, unless the player moved since or the date passed."""
    last = date.fromisoformat(move["until"])
    with svc.db.transaction() as session:
        game = session.get(GameRow, game_id)
        if game is None:
            raise PlayError(_("This game no longer exists."))
        check_holder(game, seat, holder)
        row = deadlines.seat_row(game, seat)
        player_id, zone = row.player_id, row.player.zone
        moved = _moved_since(session, game, seat, int(move["seq"]))
    today = clocks.local_today(svc.clock.now(), zone)
    if moved:
        raise seatchanges.SeatRefused(_(
            "You have moved since your automatic reply, so no vacation was taken. To take one "
            "anyway, write `vacation until %(day)s` on the game page or in a reply.",
            day=max(last, today).isoformat()))
    if last < today:
        raise seatchanges.SeatRefused(_(
            "This offer was for a vacation until %(day)s, which has passed; nothing was "
            "changed. Write `vacation 5` or `vacation until YYYY-MM-DD` for a new one.",
            day=last.isoformat()))
    return seatchanges.take_vacation(svc, player_id, f"vacation until {last.isoformat()}").text


def _moved_since(session: Session, game, seat: int, seq: int) -> bool:
    return session.scalar(select(EventRow.seq).where(
        EventRow.game_id == game.id, EventRow.seq > seq, EventRow.seat == seat,
        EventRow.source != "timer").limit(1)) is not None
