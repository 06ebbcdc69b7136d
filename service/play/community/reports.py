"""Reported chat lines: a player reports a line they can read; the operators list them
(`flask reports list`). A line is reported once per reporter."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from service.mailwire.outbound.catalogs import N_, _, number
from service.play import readpolicy, repository
from service.play.errors import NoSuchGame, PlayError
from service.play.moves import chat
from service.play.readpolicy import Reader
from service.play.services import Services
from service.store.models import ChatMessage, ChatReport, Player, Seat

MAX_REASON = 500


class BadReport(PlayError):
    title = N_("The report was not taken")


class NoSuchLine(BadReport, NoSuchGame):
    """A chat line the reporter cannot read, answered as one that does not exist (404)."""

    title = N_("No such chat line")


NO_LINE = N_("There is no such chat line in your games.")


@dataclass(frozen=True)
class Report:
    id: int
    at: datetime
    game_id: int
    reporter: str
    writer: str
    text: str
    reason: str


def report(svc: Services, reporter_id: int, message_id: int, reason: str = "") -> int:
    """The report's id. Only a player who can read the line in their game may report it."""
    reason = (reason or "").strip()
    if len(reason) > MAX_REASON:
        raise BadReport(_("The reason is %(length)s characters long; the most is %(most)s.",
                          length=number(len(reason)), most=number(MAX_REASON)))
    with svc.db.transaction() as session:
        line = session.get(ChatMessage, message_id)
        reader = Reader.player(reporter_id)
        game = None if line is None else repository.game_row(session, line.game_id)
        # the line's game as its players see it (readpolicy), then the line as chat shows it
        seat = readpolicy.seat_shown(game, reader) \
            if game is not None and readpolicy.is_player(game, reader) else None
        readable = seat is not None and session.scalar(select(ChatMessage.id).where(
            ChatMessage.id == message_id, chat.visible_to(seat)))
        if not readable:
            raise NoSuchLine(_(NO_LINE))
        if line.from_seat == seat:
            raise BadReport(_("That line is your own."))
        done = session.scalar(select(ChatReport.id).where(
            ChatReport.message_id == message_id, ChatReport.reporter_id == reporter_id))
        if done is not None:
            return done
        row = ChatReport(message_id=message_id, reporter_id=reporter_id, reason=reason,
                         created_at=svc.clock.now())
        session.add(row)
        session.flush()
        return row.id


def reports(svc: Services, limit: int = 200) -> list[Report]:
    """The newest reports first, with the line and who wrote it."""
    with svc.db.transaction() as session:
        rows = session.execute(select(ChatReport, ChatMessage, Player.name).join(
            ChatMessage, ChatMessage.id == ChatReport.message_id).join(
            Player, Player.id == ChatReport.reporter_id).order_by(ChatReport.id.desc())
            .limit(limit)).all()
        out = []
        for rep, line, reporter in rows:
            writer = session.scalar(select(Player.name).join(Seat, Seat.player_id == Player.id)
                                    .where(Seat.game_id == line.game_id,
                                           Seat.seat == line.from_seat))
            out.append(Report(rep.id, rep.created_at, line.game_id, reporter, writer or "?",
                              line.text, rep.reason))
        return out
