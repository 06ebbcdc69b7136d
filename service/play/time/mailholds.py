"""Clocks that know when mail failed: a seat whose turn email hard-bounced, or was not accepted
by the relay for 24 hours, cannot be expected to move, so its clock stops (`hold`) and the
others are told that the player did not receive the turn. It runs again (`release`) when a later
email to that seat is delivered (the relay's mark of it sent asks `seat_held`) or the player
acts (a move records `release_mover`): from then on, with the time it had left when it stopped.

A hold is the seat's `mail_held_since` and a paused clock (service.play.time.clocks.seat.pause), so a deadline
sweep never finds the seat due meanwhile."""
from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import literal_column, select
from sqlalchemy.orm import Session

from service.mailwire.outbound.catalogs import N_
from service.store.models import GameRow, OutboxRow, Seat, Vacation

from .. import repository
from ..services import Services
from . import calendar, clocks, deadlines

NOT_ACCEPTED_FOR = timedelta(hours=24)
WAITING = ("pending", "sending", "parked")     # not accepted by the relay (yet)


def hold(session: Session, svc: Services | None, game_id: int, seat: int, now: datetime,
         why: str) -> list[int]:
    """Stop the seat's clock if its turn is running and not already held; the others are
    told. Returns the outbox rows queued (none when nothing changed)."""
    game = repository.game_row(session, game_id, lock=True)
    row = next((r for r in game.seats if r.seat == seat), None)
    if row is None or game.status != "active" or row.mail_held_since is not None:
        return []
    clock = deadlines.get_clock(row)
    if not clock.in_turn or clock.deadline is None or clock.timed_out:
        return []
    row.mail_held_since = now
    deadlines.set_clock(row, clocks.pause(clock, now))
    line = deadlines.said(
        N_("{player} did not receive the turn email ({why}); the clock of {player} is stopped "
           "until an email reaches them or they act"),
        N_("You did not receive the turn email ({why}); your clock is stopped until an email "
           "reaches you or you act"), seat, why=deadlines.phrase(why))
    deadlines.change(session, game, row, "mail_held", line, now)
    return deadlines.tell(session, svc, game, seat, deadlines.to_the_others(line), now,
                          offer=False, others_only=True)


def release(row, game, now: datetime, *, away: bool = False) -> bool:
    """The seat's clock runs again after a hold (a row under its game's lock, ORM or record);
    `away`: its player is on vacation, so the hold ends and the clock stays stopped for that."""
    if getattr(row, "mail_held_since", None) is None:
        return False
    row.mail_held_since = None
    if away:
        return True
    clock = deadlines.get_clock(row)
    deadlines.set_clock(row, calendar.calendarrules.resume(clock, clocks.resume(clock, now), now,
                                                calendar.of_seat(row, game)))
    return True


def release_mover(game, seat: int | None, now: datetime) -> None:
    """The player acted: their seat's hold ends (before the move's clocks are tracked, so the
    turn ends on a running clock)."""
    if seat is not None:
        row = next((r for r in game.seats if r.seat == seat), None)
        if row is not None:
            release(row, game, now)


def delivered(svc: Services, row_ids: list[int]) -> int:
    """The relay delivered these outbox rows: held seats among their recipients run again.
    One statement when none is held (the usual case)."""
    if not row_ids:
        return 0
    with svc.db.transaction() as session:
        held = held_among(session, row_ids)
    return release_held(svc, held)


def seat_held():
    """Whether an outbox row's seat is held for want of mail: a column for a statement about
    outbox rows (the relay's mark of a row sent returns it, so a delivered email asks in the
    same round trip that records it)."""
    # the outbox row's columns named with their table: SQLAlchemy writes a RETURNING clause
    # on SQLite without table names, which in this subquery would name the seat's own columns
    return select(Seat.seat).where(Seat.game_id == literal_column("outbox.game_id"),
                                   Seat.seat == literal_column("outbox.seat"),
                                   Seat.mail_held_since.is_not(None)).exists()


def held_among(session: Session, row_ids: list[int]) -> list[tuple[int, int]]:
    """The (game, seat) held for want of mail among these outbox rows' recipients: one
    statement (`delivered`'s; the relay's own mark asks `seat_held` in its statement)."""
    if not row_ids:
        return []
    return [tuple(r) for r in session.execute(
        select(OutboxRow.game_id, OutboxRow.seat)
        .where(OutboxRow.id.in_(sorted(row_ids)), seat_held())
        .distinct().order_by(OutboxRow.game_id)).all()]


def release_held(svc: Services, held: list[tuple[int, int]]) -> int:
    """An email reached these held seats: their clocks run again (or stay stopped while
    their player is on vacation), each told in the game's history; nothing to do (no
    transaction) when none is held."""
    if not held:
        return 0
    now = svc.clock.now()
    with svc.db.transaction() as session:
        for game_id, seat in held:
            game = repository.game_row(session, game_id, lock=True)
            row = deadlines.seat_row(game, seat)
            away = _on_vacation(session, game, row)
            if release(row, game, now, away=away):
                deadlines.change(session, game, row, "mail_released", deadlines.said(
                    N_("an email reached {player}; their clock stays stopped while they are "
                       "on vacation"),
                    N_("an email reached you; your clock stays stopped while you are on "
                       "vacation"), seat) if away else deadlines.said(
                    N_("an email reached {player}; their clock runs again"),
                    N_("an email reached you; your clock runs again"), seat), now)
    return len(held)


def _on_vacation(session: Session, game: GameRow, row: Seat) -> bool:
    """Whether the seat's player is on a vacation that stops this game's clocks."""
    return session.scalar(select(Vacation.id).where(
        Vacation.player_id == row.player_id, Vacation.open.is_(True),
        select(GameRow.id).where(GameRow.id == game.id, deadlines.vacation_stops_clocks())
        .exists()).limit(1)) is not None


def hold_undelivered(svc: Services, now: datetime, outbox_ids: list[int]) -> int:
    """The sweep's part: seats whose turn email the relay has not accepted for 24 hours."""
    with svc.db.transaction() as session:
        stuck = session.execute(
            select(OutboxRow.game_id, OutboxRow.seat).join(
                Seat, (Seat.game_id == OutboxRow.game_id) & (Seat.seat == OutboxRow.seat))
            .join(GameRow, GameRow.id == Seat.game_id)
            # offered to the relay and refused (a row never tried is the service's own delay)
            .where(OutboxRow.kind == "turn", OutboxRow.status.in_(WAITING),
                   OutboxRow.attempts > 0,
                   OutboxRow.created_at <= now - NOT_ACCEPTED_FOR,
                   Seat.mail_held_since.is_(None), Seat.deadline.is_not(None),
                   GameRow.status == "active")
            .distinct().order_by(OutboxRow.game_id).limit(500)).all()
        for game_id, seat in stuck:
            outbox_ids += hold(session, svc, game_id, seat, now,
                               N_("the mail server has not accepted it for 24 hours"))
    return len(stuck)
