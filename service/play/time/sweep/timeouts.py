"""The clock sweep (beat's "timers" job; `flask sweep` runs it once): vacations that ended,
reminders that are due, deadlines that passed — oldest first, in batches. Each batch is handled
in one transaction (service.play.time.sweep.timeoutbatch: the batch's games locked in id order, their
states loaded in bulk, every row written with bulk inserts); a batch that cannot be written
(its insert hits the event log's key: another writer won) is rolled back and handled again
seat by seat, each seat re-checked under its game's row lock. Both paths take the same
decisions (`judge`, `remind`) and record a timeout's move by the same step
(service.play.time.sweep.timeoutmove.played: plans dropped and set off, forced moves and bots
due, the game's end, everyone told); only where they write differs (`Recorder` here, at once;
`timeouts_batch.Batch` there, in bulk). And the `wait`
policy's links: another player extends a deadline once, or has the default move played for the
seat from then on. The clock bookkeeping itself is `service.play.time.deadlines`."""
from __future__ import annotations

import functools
import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import Select, bindparam, select, update
from sqlalchemy.orm import Session

from service.games.contract import Event, IllegalMove, Move, replay
from service.games.text import said
from service.mailwire.outbound.catalogs import N_, _
from service.play import aftercommit, notify, ranking, repository
from service.play.errors import PlayError
from service.play.moves import write_move
from service.play.players import seatchanges
from service.play.services import Services
from service.play.time import (
    BATCH,
    MAX_TIMEOUT_MOVES,
    OUT,
    Said,
    SeatClock,
    about,
    calendar,
    change,
    clocks,
    control,
    end_game,
    get_clock,
    mailholds,
    policy_of,
    seat_row,
    set_clock,
    tell,
    timer_key,
    to_the_others,
    vacationdays,
    who,
)
from service.store.models import GameRow, Seat
from service.store.statuses import GameStatus, SeatStatus

from . import shards, timeoutbatch, timeoutmove

log = logging.getLogger(__name__)


@dataclass
class Report:
    resumed: int = 0
    reminded: int = 0
    timed_out: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    outbox_ids: list[int] = field(default_factory=list)
    moved_games: list[int] = field(default_factory=list)    # a move was played for a seat
    vacation_days: list[tuple[int, int]] = field(default_factory=list)  # (game, seat) took one
    shards: list[int] = field(default_factory=list)     # handed out to jobs of their own

    def count(self, outcome: str, game_id: int) -> None:
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1
        if outcome in TIMED_OUT:
            self.timed_out += 1
        if outcome in PLAYED:
            self.moved_games.append(game_id)


TIMED_OUT = ("played", "forfeited", "waiting", "ended")
PLAYED = ("played", "forfeited")


def run(svc: Services, batch: int = BATCH, *, bulk: bool = True,
        shard: shards.Shard = shards.WHOLE) -> Report:
    """One pass of the clock sweep: vacations that ended, reminders that are due, deadlines
    that passed (oldest first, in batches, until none is left: a sweep that was down for a day
    catches up in deadline order). Then kicks the outbox relay. `bulk=False`: every seat on
    the per-game path (what a batch falls back to). `shard`: only the reminders and deadlines
    of its games (service.play.time.sweep.shards; the rest is `hand_out`'s)."""
    now = svc.clock.now()
    report = Report()
    if shard.whole:
        _not_per_game(svc, now, report)
    _reminders(svc, now, batch, report, bulk, shard)
    _timeouts(svc, now, batch, report, bulk, shard)
    # a vacation day stops all the player's clocks, as `vacation 1` does
    vacationdays.stop_other_clocks(svc, report.vacation_days, now, report.outbox_ids)
    return report


def hand_out(svc: Services, of: int) -> Report:
    """Beat's pass split in `of` shards: what is not per game here, then a `timers_shard` job
    for each shard with a reminder or a deadline due (`report.shards`)."""
    now = svc.clock.now()
    report = Report()
    _not_per_game(svc, now, report)
    with svc.db.transaction() as session:
        report.shards = shards.due(session, now, of)
        for part in report.shards:       # each a job of its own, once this commits
            aftercommit.later(session, "timers_shard", part, of)
    return report


def _not_per_game(svc: Services, now: datetime, report: Report) -> None:
    report.resumed = seatchanges.resume_ended_vacations(svc, now, report.outbox_ids)
    mailholds.hold_undelivered(svc, now, report.outbox_ids)


class Out(Protocol):
    """Where a timeout's or a reminder's consequences are written: through the session, game
    by game (`Recorder`), or collected for one batch's bulk inserts (timeouts_batch.Batch)."""

    def change(self, game: GameRow, row: Seat, kind: str, text: str, now: datetime) -> None: ...

    def tell(self, game: GameRow, seat: int, text: str | Said, now: datetime, *, offer: bool,
             others_only: bool) -> None: ...

    def end_game(self, game: GameRow, seat: int, how: str | Said, now: datetime) -> None: ...

    def played(self, pos: repository.Position, seat: int, key: str, events: list[Event],
               moves: list[Move], state: Any, notice: dict, now: datetime) -> None: ...

    def reminder(self, game: GameRow, seat: int, payload: dict, now: datetime) -> None: ...

    def vacation_day(self, game: GameRow, row: Seat, clock: SeatClock, deadline: datetime,
                     now: datetime) -> bool: ...


class Recorder:
    """The per-game path's `Out`: each write goes through the session as a player's move
    does (service.play.moves.submit.record); `ids` collects the outbox rows queued."""

    def __init__(self, session: Session, svc: Services):
        self.session, self.svc, self.ids = session, svc, []

    def change(self, game, row, kind, text, now) -> None:
        change(self.session, game, row, kind, text, now)

    def tell(self, game, seat, text, now, *, offer, others_only) -> None:
        self.ids += tell(self.session, self.svc, game, seat, text, now, offer=offer,
                         others_only=others_only)

    def end_game(self, game, seat, how, now) -> None:
        self.ids += end_game(self.session, game, seat, how, now)

    def played(self, pos, seat, key, events, moves, state, notice, now) -> None:
        done = timeoutmove.played(self.session, self.svc, pos, seat, key, events, moves,
                                  state, notice, now)
        self.ids += write_move(self.session, self.svc, pos, done)

    def vacation_day(self, game, row, clock, deadline, now) -> bool:
        taker = vacationdays.DayTaker(self.session, self.svc, {game.id: game})
        taken = taker.take(game, row, clock, deadline, now)
        if taken is None:
            return False
        taker.write()
        rows = [notify.queue(self.session, game, to, "timeout", game.seq, now, payload)
                for to, payload in vacationdays.notices(game, row.seat, taken, now)]
        self.session.flush()
        self.ids += [r.id for r in rows]
        return True

    def reminder(self, game, seat, payload, now) -> None:
        out = notify.queue(self.session, game, seat, "reminder", game.seq, now, payload)
        out.since_seq = game.seq      # the turn email told the news; this only reminds
        self.session.flush()
        self.ids.append(out.id)


# --- what is due ---------------------------------------------------------------------------

@functools.lru_cache(maxsize=4)
def _due(what: str, sharded: bool) -> Select:
    """The next `batch` seats due (parameters `now`, `batch`, and a shard's), by index in the
    order they fell due: "timeouts" (game_id, seat, deadline) or "reminders" (game_id, seat,
    remind_at). Built once: built per batch, they cost as much as running them."""
    if what == "timeouts":
        # (whether a due game has plans is asked under its lock: timeoutbatch.Batch.planned)
        query = (select(Seat.game_id, Seat.seat, Seat.deadline)
                 .where(Seat.deadline <= bindparam("now"))
                 .order_by(Seat.deadline, Seat.game_id, Seat.seat))
    else:
        # a seat whose deadline passed as well gets no late reminder: its timeout is next
        query = (select(Seat.game_id, Seat.seat, Seat.remind_at)
                 .where(Seat.remind_at <= bindparam("now"), Seat.deadline > bindparam("now"))
                 .order_by(Seat.remind_at, Seat.game_id, Seat.seat))
    query = query.limit(bindparam("batch"))
    return shards.kept(query) if sharded else query


# --- reminders -----------------------------------------------------------------------------

def _reminders(svc: Services, now: datetime, batch: int, report: Report, bulk: bool,
               shard: shards.Shard) -> None:
    seen: set[tuple] = set()
    while True:
        with svc.db.transaction() as session:
            due = session.execute(_due("reminders", not shard.whole),
                                  {"now": now, "batch": batch, **shard.params}).all()
        fresh = [tuple(d) for d in due if tuple(d) not in seen]
        seen.update(fresh)
        if fresh:
            sent = timeoutbatch.reminders(svc, fresh, now, remind, report.outbox_ids) \
                if bulk else None
            if sent is None:
                sent = _reminders_one_by_one(svc, fresh, now, report.outbox_ids)
            report.reminded += sent
        if len(due) < batch or not fresh:
            return


def _reminders_one_by_one(svc: Services, due: list[tuple], now: datetime,
                          outbox_ids: list[int]) -> int:
    sent = 0
    with svc.db.transaction() as session:
        out = Recorder(session, svc)
        for game_id, seat, remind_at in due:
            # claim it: a second sweeper, or a move committed meanwhile, leaves nothing to claim
            claimed = session.execute(update(Seat).where(Seat.game_id == game_id,
                                                         Seat.seat == seat,
                                                         Seat.remind_at == remind_at)
                                      .values(remind_at=None)).rowcount
            if claimed == 1:
                game = session.get(GameRow, game_id)    # its seats are read after the claim
                sent += remind(out, game, seat, now)
    outbox_ids += out.ids
    return sent


def remind(out: Out, game: GameRow, seat: int, now: datetime) -> bool:
    """A claimed reminder: sent if still due (never twice a turn, never to a seat that has
    moved or whose deadline passed first), the seat's clock marked either way."""
    row = seat_row(game, seat)
    clock = get_clock(row)
    own = calendar.of_seat(row)       # the player's own reminders (service.play.time.calendar)
    if not calendar.calendarrules.reminder_due(clock, own, now) or game.status == GameStatus.ENDED:
        # too late (the deadline passed first) or not to be sent: those due by now are done
        # with; one whose moment is still to come stays (a vacation moved the deadline)
        set_clock(row, calendar.calendarrules.mark_reminded(clock, own, now))
        return False
    set_clock(row, calendar.calendarrules.mark_reminded(clock, own, now))
    out.reminder(game, seat, {"reminder": {"deadline": clocks.deadline_iso(clock.deadline)}},
                 now)
    return True


# --- timeouts ------------------------------------------------------------------------------

def _timeouts(svc: Services, now: datetime, batch: int, report: Report, bulk: bool,
              shard: shards.Shard) -> None:
    seen: set[tuple[int, int, datetime]] = set()
    while True:
        with svc.db.transaction() as session:
            rows = session.execute(_due("timeouts", not shard.whole),
                                   {"now": now, "batch": batch, **shard.params}).all()
        due = [(game_id, seat, deadline) for game_id, seat, deadline in rows]
        fresh = [d for d in due if d not in seen]
        seen.update(fresh)
        outcomes = timeoutbatch.timeouts(svc, fresh, now, judge, report.outbox_ids) \
            if bulk and fresh else None
        if outcomes is None:     # seat by seat: the path a batch that failed falls back to
            outcomes = [timeout(svc, d[0], d[1], d[2], now, report.outbox_ids) for d in fresh]
        for (game_id, seat, _deadline), outcome in zip(fresh, outcomes, strict=True):
            report.count(outcome, game_id)
            if outcome == "vacation":
                report.vacation_days.append((game_id, seat))
        if len(due) < batch or not fresh:
            return


def timeout(svc: Services, game_id: int, seat: int, deadline: datetime, now: datetime,
            outbox_ids: list[int]) -> str:
    """Handle one seat's passed deadline, once, in a transaction of its own. Returns what
    happened: played | forfeited | ended | waiting | moved (the player, or another sweeper,
    was first) | error."""
    try:
        with svc.db.transaction() as session:
            pos = repository.load(session, svc.states, game_id, lock=True)
            out = Recorder(session, svc)
            outcome = judge(out, svc, pos, seat, deadline, now)
    except PlayError as exc:          # lost a race on the event log: the other writer won
        log.info("timeout of game %s seat %s: %s", game_id, seat, exc.detail)
        return "moved"
    except Exception:                 # noqa: BLE001 - one broken game must not stop the sweep
        log.exception("timeout of game %s seat %s failed", game_id, seat)
        return "error"
    outbox_ids.extend(out.ids)
    return outcome


def judge(out: Out, svc: Services, pos: repository.Position, seat: int, deadline: datetime,
          now: datetime) -> str:
    """What a seat's passed deadline calls for, decided on its game read under the game's
    lock (the deadline may have moved, the seat may have moved), written through `out`."""
    game, engine = pos.row, pos.engine
    row = seat_row(game, seat)
    if row.deadline != deadline:
        return "moved"
    if game.status == GameStatus.ENDED or engine.outcome(pos.state) is not None:
        row.deadline = row.remind_at = None
        return "moved"
    clock = get_clock(row)
    if seat not in engine.to_act(pos.state):
        set_clock(row, clocks.finish_turn(control(game), clock, now))
        return "moved"
    key = timer_key(seat, pos.seq, deadline)
    if row.status in OUT:          # a seat that left: its turns are played for it
        set_clock(row, clocks.timeout_move_played(control(game), clock))
        return play_timeout_moves(out, svc, pos, seat, key, now, why="left")
    if not clocks.is_overdue(clock, now):
        set_clock(row, clock)
        return "moved"
    if out.vacation_day(game, row, clock, deadline, now):   # the player's days, while any left
        return "vacation"
    return _missed(out, svc, pos, row, clock, key, now)


def _missed(out: Out, svc: Services, pos: repository.Position, row: Seat, clock: SeatClock,
            key: str, now: datetime) -> str:
    game, tc = pos.row, control(pos.row)
    in_play = sum(1 for r in game.seats if r.status not in OUT)
    miss = clocks.after_miss(policy_of(game, row), tc, clock, now, seats_in_play=in_play)
    set_clock(row, miss.clock)
    name = who(row.seat)
    if miss.absent and row.status == SeatStatus.ACTIVE:
        row.status = SeatStatus.ABSENT
        line = said(
            N_("{player} missed {n} turns in a row and is marked absent; any player may "
               "invite someone to take the seat over on the game page"),
            N_("You missed {n} turns in a row and are marked absent; any player may invite "
               "someone to take the seat over on the game page"), row.seat,
            n=clocks.ABSENT_AFTER)
        out.change(game, row, SeatStatus.ABSENT, line, now)
        out.tell(game, row.seat, to_the_others(line), now, offer=False, others_only=True)
    if miss.forfeit:
        ranking.leave(game, row, SeatStatus.FORFEITED)
        out.change(game, row, SeatStatus.FORFEITED, said(
            N_("{player} ran out of time and forfeits"),
            N_("You ran out of time and forfeit"), row.seat), now)
        if miss.end_game:
            out.end_game(game, row.seat, functools.partial(_forfeited, name, row.seat), now)
            return "ended"
    if miss.play_timeout_move:
        return play_timeout_moves(out, svc, pos, row.seat, key, now,
                                  why="forfeit" if miss.forfeit else "bot")
    # wait (or an engine with no sensible timeout move): the others are told, and may act

    def nothing_played(reader: int) -> str:
        return _("%(name)s ran out of time; nothing was played for %(name)s", name=name)
    out.tell(game, row.seat, nothing_played, now, offer=miss.can_extend, others_only=True)
    return "waiting"


def play_timeout_moves(out: Out, svc: Services, pos: repository.Position, seat: int, key: str,
                       now: datetime, why: str) -> str:
    """The engine's timeout move for `seat`, again while the seat is still to act (an open
    turn), recorded as one submission with source "timer"; everyone is told what was played."""
    engine, state = pos.engine, pos.state
    events: list[Event] = []
    moves: list[Move] = []
    chooser = getattr(engine, "timeout_move", None)
    for _attempt in range(MAX_TIMEOUT_MOVES):
        move = chooser(state, seat) if chooser is not None else None
        if move is None or seat not in engine.to_act(state):
            break
        try:
            produced = engine.decide(state, seat, move, svc.chance)
        except IllegalMove:
            log.exception("game %s: the timeout move %r was refused", pos.row.id, move)
            break
        state = replay(engine, produced, state)
        events.extend(produced)
        moves.append(move)
        if engine.outcome(state) is not None:
            break
    name = who(seat)
    if not events:

        def no_move(reader: int) -> str:
            return _("%(name)s ran out of time, and this game has no move to play for them; "
                     "waiting", name=name)
        out.tell(pos.row, seat, no_move, now, offer=False, others_only=True)
        return "waiting"
    played = "; ".join(engine.describe(m) for m in moves)

    def default_played(reader: int) -> str:
        # the moves as the engine describes them: the rule texts' words stay as written; the
        # seat's own player reads of it as "you" (`fill` makes "you" of a seat only in English)
        if reader == seat:
            return {"left": _("You have left the game; the default move was played for you: "
                              "%(played)s", played=played),
                    "forfeit": _("You ran out of time and forfeit; the default move was "
                                 "played for you: %(played)s", played=played),
                    "bot": _("You ran out of time; the default move was played for you: "
                             "%(played)s", played=played)}[why]
        return {"left": _("%(name)s has left the game; the default move was played for "
                          "%(name)s: %(played)s", name=name, played=played),
                "forfeit": _("%(name)s ran out of time and forfeits; the default move was "
                             "played for %(name)s: %(played)s", name=name, played=played),
                "bot": _("%(name)s ran out of time; the default move was played for "
                         "%(name)s: %(played)s", name=name, played=played)}[why]
    out.played(pos, seat, key, events, moves, state, {"text": default_played, "seat": seat},
               now)
    return "forfeited" if why == "forfeit" else "played"


# --- a waiting seat: the others act ----------------------------------------------------------

def seat_action(svc: Services, game_id: int, by_seat: int, holder: int, act: str,
                target: int) -> str:
    """`wait`: another player extends `target`'s deadline once ("extend") or has the default
    move played for it from now on ("bot"). Returns a sentence saying what was done."""
    with svc.db.transaction() as session:
        pos = repository.load(session, svc.states, game_id, lock=True)
        game = pos.row
        repository.check_holder(game, by_seat, holder)
        if game.status == GameStatus.ENDED or pos.engine.outcome(pos.state) is not None:
            raise PlayError(_("This game has finished; there is no deadline to change."))
        row = seat_row(game, target)
        name = row.player.name
        clock = get_clock(row)
        if target not in pos.engine.to_act(pos.state) or not clock.in_turn:
            raise PlayError(_("%(name)s has moved since; there is nothing to do.", name=name))
        now = svc.clock.now()
        if act == "extend":
            try:
                clock = clocks.extend_once(control(game), clock, now)
            except clocks.ClockError as exc:
                raise PlayError(str(exc)) from None
            set_clock(row, clock)
            change(session, game, row, "extended", said(
                N_("{player}'s deadline was extended {by}"),
                N_("Your deadline was extended {by}"), target,
                by=about(N_("by {player}"), N_("by you"), by_seat)), now)

            def extended(reader: int) -> str:
                until = clocks.format_deadline(clock.deadline, now)   # in the reader's words
                if reader == target:
                    return _("Your deadline was extended to %(until)s by %(by)s",
                             until=until, by=who(by_seat))
                if reader == by_seat:
                    return _("%(name)s's deadline was extended to %(until)s by you",
                             name=who(target), until=until)
                return _("%(name)s's deadline was extended to %(until)s by %(by)s",
                         name=who(target), until=until, by=who(by_seat))
            tell(session, svc, game, target, extended, now, offer=False, others_only=False)
            return _("%(name)s now has until %(until)s.", name=name,
                     until=clocks.format_deadline(clock.deadline, now))
        row.on_timeout = "bot"
        change(session, game, row, "bot", said(
            N_("{player} asked for {turns} to be played by the default move"),
            N_("You asked for {turns} to be played by the default move"), by_seat,
            turns=about(N_("{player}'s turns"), N_("your turns"), target)), now)
        set_clock(row, clocks.timeout_move_played(control(game), clock))
        play_timeout_moves(Recorder(session, svc), svc, pos, target,
                           f"switch:{clocks.deadline_iso(now)}", now, why="bot")
    return _("The default move was played for %(name)s, and will be when they run out of time.",
             name=name)


def _forfeited(name: str, seat: int, reader: int) -> str:
    """The game-over line of a forfeit by timeout: its reader's own, or the table's."""
    if reader == seat:
        return _("You ran out of time and forfeited.")
    return _("%(name)s ran out of time and forfeited.", name=name)
