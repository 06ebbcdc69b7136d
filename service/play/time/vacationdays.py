"""A vacation day taken for a player whose clock runs out (the `auto_vacation` preference, on
by default): while they have vacation days left, and the game has not yet waited
TURNPOST_AUTO_VACATION_PER_GAME days for them, the clock sweep takes one day instead of the
timeout. The bound is per game: without it a player who vanished held a one-day game for as
long as their year's days lasted (30 by default); each day taken is a seat change of kind
`vacation_day` in the game's history, which is what is counted. The day is 24 hours from the deadline (nothing of the turn is lost), counted as the
player's local date of the deadline, and stops all their clocks as any vacation does: the seat
that ran out at once, in the sweep's transaction; their other games right after the batch
(`stop_other_clocks`), in bulk. The vacation row is the one `vacation N` writes, so `back`,
`vacation N` and the sweep's end of vacations treat it like any other.

Both sweep paths use one `DayTaker` per transaction: it reads the vacations of every player of
the batch's games in one statement, and the days each game has taken in one more, and the
batch inserts the new rows in two more."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select, tuple_
from sqlalchemy.orm import Session

from service.mailwire.outbound import catalogs
from service.mailwire.outbound.catalogs import N_, _, ngettext
from service.store import records
from service.store.models import GameRow, OutboxRow, Seat, SeatChange, Vacation

from .. import aftercommit, notify
from ..services import Services
from . import clocks, deadlines

DAY = timedelta(days=1)
WARN_AT = 3          # days left at or under which the player is warned
KIND = "vacation_day"   # the seat change each day taken writes (and the per-game bound counts)


def enabled(svc: Services) -> bool:
    """The service-wide switch (TURNPOST_AUTO_VACATION); each player's preference is on top."""
    return svc.settings.AUTO_VACATION


class DayTaker:
    """The vacation days of the players of the games in `games` (records or ORM rows), read
    once, and the days this transaction takes."""

    def __init__(self, session: Session, svc: Services, games: dict[int, Any]):
        self.session, self.svc, self.games = session, svc, games
        self.taken: dict[int, list[tuple]] | None = None   # player -> [(first, last, open, until)]
        self.by_game: dict[tuple[int, int, int], int] | None = None  # (game, seat, player) -> days
        self.new: list[dict] = []
        self.changes: list[dict] = []

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

    def _days_by_game(self) -> dict[tuple[int, int, int], int]:
        if self.by_game is None:
            self.by_game = {(g, s, p): n for g, s, p, n in self.session.execute(
                select(SeatChange.game_id, SeatChange.seat, SeatChange.player_id, func.count())
                .where(SeatChange.game_id.in_(sorted(self.games)), SeatChange.kind == KIND)
                .group_by(SeatChange.game_id, SeatChange.seat, SeatChange.player_id))}
        return self.by_game

    def take(self, game, row, clock: clocks.SeatClock, deadline: datetime,
             now: datetime) -> Taken | None:
        """For a seat overdue at `deadline`: what was taken when a vacation day was (or one
        taken in this sweep covers it), the seat's clock paused; else None (the timeout)."""
        player = row.player
        if not (enabled(self.svc) and player.auto_vacation) or row.bot \
                or row.on_timeout == "bot":
            return None
        bound = self.svc.settings.AUTO_VACATION_PER_GAME
        key = (game.id, row.seat, row.player_id)
        waited = self._days_by_game().get(key, 0)
        if waited >= bound:
            return None              # this game has waited its days for them: the timeout
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
        deadlines.set_clock(row, clocks.pause(clock, min(deadline, now)))
        allowance = self.svc.settings.VACATION_DAYS
        left = clocks.days_left([(v[0], v[1]) for v in mine], current[0].year, allowance)
        self.by_game[key] = waited + 1
        taken = Taken(left, current[3], bound - waited - 1, bound)
        self.changes.append(deadlines.change_values(game, row, KIND, deadlines.said(
            N_("{player} ran out of time: a vacation day was taken instead of a timeout "
               "({days})"),
            N_("You ran out of time: a vacation day was taken instead of a timeout ({days})"),
            row.seat, days=taken.game_phrase()), now))
        return taken

    def write(self) -> None:
        if self.new:
            self.session.execute(Vacation.__table__.insert(), self.new)
            self.new = []
        if self.changes:
            self.session.execute(SeatChange.__table__.insert(), self.changes)
            self.changes = []


@dataclass(frozen=True)
class Taken:
    """A vacation day taken for a seat: the player's days left this year, when their clocks
    run again, and how many more this game may take for them (of `bound`)."""
    left: int
    until: datetime
    game_left: int
    bound: int

    def game_phrase(self) -> dict:
        """`game_words` as a phrase of a history line, said in its reader's language."""
        if not self.game_left:
            return deadlines.phrase(N_("the last of the {bound} this game takes for a player: "
                                       "the next time the clock runs out, it is a timeout"),
                                    bound=self.bound)
        return deadlines.phrase(N_("{taken} of the {bound} this game takes for a player"),
                                taken=self.bound - self.game_left, bound=self.bound)

    def game_words(self) -> str:
        """How many of the game's days this one is, in the language of the moment."""
        if not self.game_left:
            return _("the last of the %(bound)s this game takes for a player: the next time "
                     "the clock runs out, it is a timeout", bound=self.bound)
        return _("%(taken)s of the %(bound)s this game takes for a player",
                 taken=self.bound - self.game_left, bound=self.bound)


def notices(game, seat: int, taken: Taken, now: datetime
            ) -> list[tuple[int, dict]]:
    """(seat, payload) of the emails a day taken calls for: one each, worded for its reader
    (the time in the reader's zone): the table is told, and the player is told in their own
    words, warned in the same email when 3 or fewer days are left."""
    who = deadlines.who(seat)
    left, until = taken.left, taken.until
    out = []
    for r in game.seats:
        with catalogs.speaking(r.player.language):      # each reader's own words
            stop = clocks.format_deadline(until, now, r.player.zone)
            if r.seat == seat:
                text = _("Your time ran out, so one of your vacation days was taken instead of "
                         "a timeout (%(game)s): your clocks stop until %(stop)s.",
                         game=taken.game_words(), stop=stop) + " " + _days_left(left)
            else:
                text = ngettext("%(name)s ran out of time, so a vacation day was taken instead "
                                "of a timeout: %(name)s's clocks stop until %(stop)s, and "
                                "%(num)s vacation day is left this year (%(game)s)",
                                "%(name)s ran out of time, so a vacation day was taken instead "
                                "of a timeout: %(name)s's clocks stop until %(stop)s, and "
                                "%(num)s vacation days are left this year (%(game)s)",
                                left, name=who, stop=stop, game=taken.game_words())
        out.append((r.seat, {"timeout": {"text": text, "seat": seat}}))
    return out


def _days_left(left: int) -> str:
    if left > WARN_AT:
        return ngettext("You have %(num)s vacation day left this year.",
                        "You have %(num)s vacation days left this year.", left)
    if left:
        return ngettext("Only %(num)s vacation day left this year: once it is gone, a clock "
                        "that runs out is a timeout. To keep a day for later, move before your "
                        "deadlines; `vacation N` stops your clocks ahead of time.",
                        "Only %(num)s vacation days left this year: once they are gone, a clock "
                        "that runs out is a timeout. To keep a day for later, move before your "
                        "deadlines; `vacation N` stops your clocks ahead of time.", left)
    return _("That was your last vacation day this year: from now on, a clock that runs out "
             "is a timeout.")


def _stopped_here(game, row, clock: clocks.SeatClock, until: dict[int, datetime],
                  now: datetime) -> list[tuple[int, dict]]:
    """Who hears that a day taken in another game stops `row`'s clock in this one: only those
    waiting on that seat (its turn is running); a player whose own move it is would read of a
    clock that changes nothing for them, under their own "Your turn"."""
    if not clock.in_turn:
        return []
    who = deadlines.who(row.seat)
    out = []
    for r in game.seats:
        if r.seat == row.seat or deadlines.get_clock(r).in_turn:
            continue
        back = until.get(row.player_id)
        with catalogs.speaking(r.player.language):      # the reader's own words
            if back:
                text = _("%(name)s is away for a vacation day taken in another game, so "
                         "%(name)s's clock here stops too until %(until)s", name=who,
                         until=clocks.format_deadline(back, now, r.player.zone))
            else:
                text = _("%(name)s is away for a vacation day taken in another game, so "
                         "%(name)s's clock here stops too", name=who)
        out.append((r.seat, {"timeout": {"text": text, "seat": row.seat}}))
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
        until = dict(session.execute(select(Vacation.player_id, Vacation.resumes_at).where(
            Vacation.open.is_(True), Vacation.player_id.in_(sorted(players)))).all())
        rows, paused = [], 0
        for game in games:
            for r in game.seats:
                clock = deadlines.get_clock(r)
                if r.player_id not in players or clock.paused:
                    continue
                deadlines.set_clock(r, clocks.pause(clock, now))
                paused += 1
                rows += [notify.values(game, to, "timeout", game.seq, now, payload)
                         for to, payload in _stopped_here(game, r, clock, until, now)]
        tracked.write()
        if rows:
            # not notify.queue_many: its ids in the order given cost SQLite a statement a row
            table = OutboxRow.__table__
            ids = list(session.execute(table.insert().returning(table.c.id), rows).scalars())
            aftercommit.deliver(session, ids)      # sent once this commits
            outbox_ids += ids
    return paused
