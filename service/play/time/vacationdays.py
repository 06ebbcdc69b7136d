"""A vacation day taken for a player whose clock runs out (the `auto_vacation` preference, on
by default): while they have vacation days left, the clock sweep takes one day instead of the
timeout. The day is 24 hours from the deadline (nothing of the turn is lost), counted as the
player's local date of the deadline, and stops all their clocks as any vacation does: the seat
that ran out at once, in the sweep's transaction; their other games right after the batch
(`stop_other_clocks`), in bulk. The vacation row is the one `vacation N` writes, so `back`,
`vacation N` and the sweep's end of vacations treat it like any other.

Both sweep paths use one `DayTaker` per transaction: it reads the vacations of every player of
the batch's games in one statement, and the batch inserts the new rows in one more."""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, tuple_
from sqlalchemy.orm import Session

from service.store import records
from service.store.models import GameRow, OutboxRow, Seat, Vacation

from .. import aftercommit, notify
from ..services import Services
from . import clocks
from . import deadlines as timing

DAY = timedelta(days=1)
WARN_AT = 3          # days left at or under which the player is warned


def enabled(svc: Services) -> bool:
    """The service-wide switch (TURNPOST_AUTO_VACATION); each player's preference is on top."""
    return svc.settings.AUTO_VACATION


class DayTaker:
    """The vacation days of the players of the games in `games` (records or ORM rows), read
    once, and the days this transaction takes."""

    def __init__(self, session: Session, svc: Services, games: dict[int, Any]):
        self.session, self.svc, self.games = session, svc, games
        self.taken: dict[int, list[tuple]] | None = None   # player -> [(first, last, open, until)]
        self.new: list[dict] = []

    def _read(self) -> dict[int, list[tuple]]:
        if self.taken is None:
            players = {r.player_id for g in self.games.values() for r in g.seats}
            self.taken = {p: [] for p in players}
            rows = self.session.execute(
                select(Vacation.player_id, Vacation.first_day, Vacation.last_day, Vacation.open,
                       Vacation.resumes_at).where(Vacation.player_id.in_(sorted(players))))
            for pid, first, last, is_open, until in rows:
                self.taken.setdefault(pid, []).append((first, last, is_open, until))
        return self.taken

    def take(self, game, row, clock: clocks.SeatClock, deadline: datetime,
             now: datetime) -> tuple[int, datetime] | None:
        """For a seat overdue at `deadline`: (days left, new deadline) when a vacation day was
        taken (or one taken in this sweep covers it), the seat's clock paused; else None."""
        player = row.player
        if not (enabled(self.svc) and player.auto_vacation) or row.bot \
                or row.on_timeout == "bot":
            return None
        mine = self._read().setdefault(row.player_id, [])
        current = next((v for v in mine if v[2] and v[3] > now), None)
        if current is None:
            day = clocks.local_today(deadline, player.zone)
            allowance = self.svc.settings.VACATION_DAYS
            left = clocks.days_left([(v[0], v[1]) for v in mine], day.year, allowance)
            if left < 1:
                return None
            current = (day, day, True, deadline + DAY)
            mine.append(current)
            self.new.append(dict(player_id=row.player_id, first_day=day, last_day=day,
                                 open=True, resumes_at=current[3], created_at=now))
        # paused from the deadline: the clock restarts with the time it had then (none)
        timing.set_clock(row, clocks.pause(clock, min(deadline, now)))
        allowance = self.svc.settings.VACATION_DAYS
        left = clocks.days_left([(v[0], v[1]) for v in mine], current[0].year, allowance)
        return left, current[3]

    def write(self) -> None:
        if self.new:
            self.session.execute(Vacation.__table__.insert(), self.new)
            self.new = []


def notices(game, seat: int, left: int, until: datetime, now: datetime, zone: str | None
            ) -> list[tuple[int, dict]]:
    """(seat, payload) of the emails a day taken calls for: the table is told, and the player,
    when 3 or fewer days are left, warned apart."""
    who = timing.who(seat)
    days = "1 vacation day" if left == 1 else f"{left} vacation days"
    text = (f"{who} ran out of time, so a vacation day was taken instead of a timeout: the clocks "
            f"of {who} stop until {clocks.format_deadline(until, now, zone)}, and {days} "
            "are left this year")
    out = [(r.seat, {"timeout": {"text": text, "seat": seat}}) for r in game.seats]
    if left <= WARN_AT:
        warning = (f"Only {days} left this year: once they are gone, a clock that runs out is a "
                   "timeout. To keep a day for later, move before your deadlines; `vacation N` "
                   "stops your clocks ahead of time.") if left else (
            "That was your last vacation day this year: from now on, a clock that runs out is a "
            "timeout.")
        out.append((seat, {"timeout": {"text": warning, "seat": seat}}))
    return out


def stop_other_clocks(svc: Services, taken: list[tuple[int, int]], now: datetime,
                      outbox_ids: list[int]) -> int:
    """After the sweep took vacation days for the seats `taken` ((game, seat)): every other
    clock of their players stops too, in one transaction of a few statements (their games
    locked in id order, as every writer of several games locks them). Returns the seats
    paused."""
    if not taken:
        return 0
    with svc.db.transaction() as session:
        players = set(session.scalars(select(Seat.player_id).where(
            tuple_(Seat.game_id, Seat.seat).in_(sorted(set(taken))))))
        game_ids = sorted(set(session.scalars(
            select(Seat.game_id).join(GameRow, GameRow.id == Seat.game_id)
            .where(Seat.player_id.in_(sorted(players)), GameRow.status == "active"))))
        tracked = records.Tracked(session)
        games = tracked.lock_many(game_ids, [c for c in GameRow.__table__.c
                                             if c.name != "options"])
        rows, paused = [], 0
        for game in games:
            for r in game.seats:
                clock = timing.get_clock(r)
                if r.player_id not in players or clock.paused:
                    continue
                timing.set_clock(r, clocks.pause(clock, now))
                paused += 1
                text = (f"{timing.who(r.seat)} took a vacation day in another game; the clocks "
                        f"of {timing.who(r.seat)} stop for it here too")
                rows += [notify.values(game, to, "timeout", game.seq, now, payload)
                         for to, payload in timing.notices(svc, game, r.seat, text, offer=False,
                                                           others_only=True)]
        tracked.write()
        if rows:
            # not notify.queue_many: its ids in the order given cost SQLite a statement a row
            table = OutboxRow.__table__
            ids = list(session.execute(table.insert().returning(table.c.id), rows).scalars())
            aftercommit.deliver(session, ids)      # sent once this commits
            outbox_ids += ids
    return paused
