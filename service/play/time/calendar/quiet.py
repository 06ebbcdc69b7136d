"""Quiet hours in the outbox: an email that falls due inside a player's quiet hours is held
(status `quiet`, `next_try` the end of those hours; the relay sends only `pending` rows), and
released at the end as one email per game: the latest turn email with the news of all the held
ones, as the daily digest merges them (service.play.mail.digest); a webhook is posted the latest
of each event held for it. A held reminder goes only if no
turn email goes with it and the seat has not moved since."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.store.models import OutboxRow, Player, Seat

from ... import notify, webhooks
from ...services import Services
from . import calendarrules
from .holding import ALWAYS_SENT, HELD
from .seatcalendar import of_player


def release_due(svc: Services) -> list[int]:
    """The held emails whose quiet hours are over, merged per player and game; returns the ids
    of the rows now pending (the periodic sweep sends them)."""
    now = svc.clock.now()
    released: list[int] = []
    with svc.db.transaction() as session:
        held = session.scalars(select(OutboxRow).where(OutboxRow.status == HELD,
                                                       OutboxRow.next_try <= now)
                               .order_by(OutboxRow.id)).all()
        players = {p.email: p for p in session.scalars(
            select(Player).where(Player.email.in_({r.to_addr for r in held})))} if held else {}
        groups: dict[tuple, list[OutboxRow]] = {}
        for row in held:
            groups.setdefault((row.to_addr, row.game_id, row.seat), []).append(row)
        for (addr, _, _), rows in groups.items():
            # a sweep that comes late may find the next night's quiet hours begun
            player = players.get(addr)
            again = calendarrules.quiet_until(now, of_player(player)) if player is not None else None
            if again is not None:
                for row in rows:
                    row.next_try = again
                continue
            for row in _merged(session, rows, now):
                row.status, row.next_try = "pending", now
                released.append(row.id)
        session.flush()
    return released


def hold_retry(session: Session, row: OutboxRow) -> bool:
    """A failed email to be tried again at `row.next_try`: if that falls inside its player's
    quiet hours, it is held to their end, as it would have been had it been queued then (the
    answers to their own email excepted, as at queueing)."""
    if row.kind in ALWAYS_SENT or row.seat is None:
        return False
    player = session.scalar(select(Player).where(Player.email == row.to_addr))
    until = calendarrules.quiet_until(row.next_try, of_player(player)) if player is not None else None
    if until is None:
        return False
    row.status, row.next_try = HELD, until
    return True


def _merged(session: Session, rows: list[OutboxRow], now: datetime) -> list[OutboxRow]:
    """What goes of one seat's held rows (the others are skipped)."""
    turns = [r for r in rows if r.kind == "turn"]
    reminders = [r for r in rows if r.kind == "reminder"]
    keep = [r for r in rows if r.kind not in ("turn", "reminder", webhooks.KIND)]
    # a webhook is told once of each event the quiet hours held, not once per move
    told: dict[tuple, OutboxRow] = {}
    for row in rows:
        if row.kind == webhooks.KIND:
            payload = row.payload or {}
            told[payload.get("hook"), payload.get("event")] = row
    keep += told.values()
    if turns:
        latest = turns[-1]
        latest.since_seq = notify.since(session, turns[0])    # all the news since the oldest
        keep.append(latest)
    elif reminders and _still_to_act(session, reminders[-1], now):
        keep.append(reminders[-1])
    for row in rows:
        if row not in keep:
            row.status = "skipped"
    return sorted(keep, key=lambda r: r.id)


def _still_to_act(session: Session, row: OutboxRow, now: datetime) -> bool:
    deadline = session.scalar(select(Seat.deadline).where(Seat.game_id == row.game_id,
                                                         Seat.seat == row.seat))
    return deadline is not None and deadline > now
