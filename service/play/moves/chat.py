"""Talking at the table: messages to everyone, or privately to one seat, written on the game
page (the message box, or `say` in its command box) or in a reply email (`say ...`).

Messages are not engine events: they live in `chat_messages` and never in the event log. A
private message is seen by its writer and its one reader only: `visible_to` is the one filter
every page, history and download goes through. Each message reaches the other players by email
too (outbox rows of kind "message"), except muted seats and bots."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, bindparam, func, or_, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from service.mailwire.outbound.catalogs import N_, _, number
from service.play import notify, repository
from service.play.errors import PlayError
from service.play.players import blocks
from service.play.services import Services
from service.store.models import Block, ChatMessage, GameRow, Seat

MAX_CHARS = 2000
#: messages a seat may send the table an hour by replying (`say`): a mail loop stops here
BY_MAIL_PER_HOUR = 10


class ChatRefused(PlayError):
    title = N_("That message was not sent")


@dataclass(frozen=True)
class Said:
    message_id: int
    outbox_ids: list[int]
    to_seat: int | None


def say(svc: Services, game_id: int, seat: int, text: str, to_seat: int | None = None) -> Said:
    """Store the message and queue its emails in one transaction; they are sent after it."""
    with svc.db.transaction() as session:
        return post(session, svc, repository.game_row(session, game_id), seat, text, to_seat)


def post(session: Session, svc: Services, game: GameRow, seat: int, text: str,
         to_seat: int | None = None) -> Said:
    """The message in the caller's transaction; ChatRefused (nothing stored) when it is empty,
    too long, or addressed to a seat that is not in the game or to the writer."""
    text = (text or "").strip()
    if not text:
        raise ChatRefused(_("The message is empty: write something after \"say\" or in the "
                            "box."))
    if len(text) > MAX_CHARS:
        raise ChatRefused(_("The message is %(length)s characters long; the most is "
                            "%(most)s. Please shorten it.", length=number(len(text)),
                            most=number(MAX_CHARS)))
    seats = {s.seat: s for s in game.seats}
    if to_seat is not None and to_seat not in seats:
        raise ChatRefused(_("There is no player %(seat)d in this game; the players are 1 "
                            "to %(last)d.", seat=to_seat + 1, last=len(seats)))
    if to_seat == seat:
        raise ChatRefused(_("That message is addressed to yourself; choose another player, "
                            "or everyone."))
    now = svc.clock.now()
    row = ChatMessage(game_id=game.id, from_seat=seat, to_seat=to_seat, text=text,
                      seq=game.seq, created_at=now)
    session.add(row)
    # a reader kept apart from the writer (either blocked the other) is not mailed their
    # chat (players.blocks), nor shown it (`messages`)
    apart = blocks.apart(session, seats[seat].player_id)
    readers = [s for s in game.seats if s.seat != seat and to_seat in (None, s.seat)
               and s.player_id not in apart]
    said = {"name": seats[seat].player.name, "text": text, "private": to_seat is not None}
    outbox = [notify.queue(session, game, s.seat, "message", game.seq, now, {"said": said})
              for s in readers if not s.muted and s.bot is None]
    session.flush()
    return Said(row.id, [r.id for r in outbox], to_seat)


def said_lately(session: Session, game_id: int, seat: int, now: datetime) -> int:
    """Messages this seat sent the table in the hour before `now` (count it under the game
    row's lock, or two writers at once may both take the last place)."""
    return session.scalar(select(func.count()).select_from(ChatMessage).where(
        ChatMessage.game_id == game_id, ChatMessage.from_seat == seat,
        ChatMessage.created_at >= now - timedelta(hours=1))) or 0


def visible_to(seat):
    """The messages `seat` (a number, or a bound parameter) may read: public ones, and
    private ones it wrote or was sent. A spectator (None) reads the public ones."""
    if seat is None:
        return ChatMessage.to_seat.is_(None)
    return or_(ChatMessage.to_seat.is_(None), ChatMessage.to_seat == seat,
               ChatMessage.from_seat == seat)


def messages(session: Session | Connection, game_id: int, seat: int | None, *, after_seq: int = -1,
             upto_seq: int | None = None) -> list:
    """The messages `seat` may read written while the game stood at a seq in the range (rows
    with ChatMessage's column names), but not those of seats whose holders are kept apart
    from the reader: the reader blocked them, or they blocked the reader (players.blocks:
    one rule both ways, and nobody is told)."""
    return session.execute(_SEATS_MESSAGES if seat is not None else _PUBLIC_MESSAGES,
                           {"game_id": game_id, "seat": seat, "after": after_seq,
                            "upto": _END if upto_seq is None else upto_seq}).all()


# a page's chat in one statement, built once: built per call, in three (the reader, whom
# they blocked, those players' seats), it was a seventh of a cold game page
_CHAT, _SEAT, _BLOCK = ChatMessage.__table__, Seat.__table__, Block.__table__
_END = 2**31 - 1
_READER = _SEAT.alias("reader")
# the seats whose holders the reader of seat :seat has blocked, or who blocked the reader
_HIDDEN = (select(_SEAT.c.seat)
           .join(_READER, and_(_READER.c.game_id == _SEAT.c.game_id,
                               _READER.c.seat == bindparam("seat")))
           .join(_BLOCK, or_(and_(_BLOCK.c.blocker_id == _READER.c.player_id,
                                  _BLOCK.c.blocked_id == _SEAT.c.player_id),
                             and_(_BLOCK.c.blocker_id == _SEAT.c.player_id,
                                  _BLOCK.c.blocked_id == _READER.c.player_id)))
           .where(_SEAT.c.game_id == bindparam("game_id")))
_IN_RANGE = (select(_CHAT).where(_CHAT.c.game_id == bindparam("game_id"),
                                  _CHAT.c.seq > bindparam("after"),
                                  _CHAT.c.seq <= bindparam("upto"))
             .order_by(_CHAT.c.id))
_PUBLIC_MESSAGES = _IN_RANGE.where(visible_to(None))
_SEATS_MESSAGES = _IN_RANGE.where(visible_to(bindparam("seat")),
                                  _CHAT.c.from_seat.not_in(_HIDDEN))


def entry(row: ChatMessage, names: list[str], me: int | None) -> dict:
    """A message as a history entry (the page escapes its text like any other)."""
    # "You", but a name as its player wrote it ("bob", not "Bob"); in the reader's language
    sender = names[row.from_seat]
    if row.to_seat is None:
        heading = _("You") if row.from_seat == me else sender
    elif row.from_seat == me:
        heading = _("You to %(name)s (privately)", name=names[row.to_seat])
    elif row.to_seat == me:
        heading = _("%(sender)s to you (privately)", sender=sender)
    else:
        heading = _("%(sender)s to %(name)s (privately)", sender=sender,
                    name=names[row.to_seat])
    return {"seq": row.seq, "kind": "chat", "text": row.text, "heading": heading,
            "id": row.id, "mine": row.from_seat == me, "from_seat": row.from_seat,
            "private": row.to_seat is not None, "at": _iso(row.created_at)}


def _iso(at: datetime) -> str:
    return at.isoformat()
