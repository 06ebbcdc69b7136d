"""The clock sweep (beat's "timers" job; `flask sweep` runs it once): vacations that ended,
reminders that are due, deadlines that passed — oldest first, in batches, each re-checked under
the game's row lock and played through the same recording step as a player's move. And the
`wait` policy's links: another player extends a deadline once, or has the default move played
for the seat from then on. The clock bookkeeping itself is `service.play.timing`."""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from service import clocks
from service.clocks import SeatClock
from service.games.contract import Event, IllegalMove, Move, replay
from service.store.models import GameRow, OutboxRow, Seat

from . import notify, positions, seats
from .errors import PlayError
from .services import Services
from .submit import Intent, record
from .timing import (
    BATCH,
    MAX_TIMEOUT_MOVES,
    OUT,
    change,
    control,
    end_game,
    get_clock,
    policy_of,
    seat_row,
    set_clock,
    tell,
    who,
)

log = logging.getLogger(__name__)


@dataclass
class Report:
    resumed: int = 0
    reminded: int = 0
    timed_out: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    outbox_ids: list[int] = field(default_factory=list)

    def count(self, outcome: str) -> None:
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1


def run(svc: Services, batch: int = BATCH) -> Report:
    """One pass of the clock sweep: vacations that ended, reminders that are due, deadlines
    that passed (oldest first, in batches, until none is left: a sweep that was down for a day
    catches up in deadline order). Then kicks the outbox relay."""
    now = svc.clock.now()
    report = Report()
    report.resumed = seats.resume_ended_vacations(svc, now, report.outbox_ids)
    _reminders(svc, now, batch, report)
    _timeouts(svc, now, batch, report)
    svc.kick("deliver", report.outbox_ids)
    return report


def _reminders(svc: Services, now: datetime, batch: int, report: Report) -> None:
    seen: set[tuple] = set()
    while True:
        with svc.db.transaction() as session:
            # a seat whose deadline passed as well gets no late reminder: its timeout is next
            due = session.execute(select(Seat.game_id, Seat.seat, Seat.remind_at)
                                  .where(Seat.remind_at <= now, Seat.deadline > now)
                                  .order_by(Seat.remind_at).limit(batch)).all()
            fresh = [tuple(d) for d in due if tuple(d) not in seen]
            seen.update(fresh)
            for game_id, seat, remind_at in fresh:
                row_id = _remind(session, game_id, seat, remind_at, now)
                if row_id is not None:
                    report.reminded += 1
                    report.outbox_ids.append(row_id)
        if len(due) < batch or not fresh:
            return


def _remind(session: Session, game_id: int, seat: int, remind_at: datetime,
            now: datetime) -> int | None:
    # claim it: a second sweeper, or a move committed meanwhile, leaves nothing to claim
    claimed = session.execute(update(Seat).where(Seat.game_id == game_id, Seat.seat == seat,
                                                 Seat.remind_at == remind_at)
                              .values(remind_at=None)).rowcount
    if claimed != 1:
        return None
    game = session.get(GameRow, game_id)    # its seats are read after the claim
    row = seat_row(game, seat)
    clock = get_clock(row)
    if not clocks.reminder_due(clock, now) or game.status == "ended":
        # too late (the deadline passed first) or not to be sent: never again this turn,
        # unless its moment is still to come (a vacation moved the deadline)
        due_at = clocks.next_reminder(clock)
        set_clock(row, clock if due_at is not None and due_at > now
                  else clocks.mark_reminded(clock))
        return None
    set_clock(row, clocks.mark_reminded(clock))
    out = notify.queue(session, game, seat, "reminder", game.seq, now,
                       {"reminder": {"deadline": clocks.deadline_iso(clock.deadline)}})
    out.since_seq = game.seq      # the turn email told the news; this only reminds
    session.flush()
    return out.id


def _timeouts(svc: Services, now: datetime, batch: int, report: Report) -> None:
    seen: set[tuple[int, int, datetime]] = set()
    while True:
        with svc.db.transaction() as session:
            due = session.execute(select(Seat.game_id, Seat.seat, Seat.deadline)
                                  .where(Seat.deadline <= now)
                                  .order_by(Seat.deadline, Seat.game_id, Seat.seat)
                                  .limit(batch)).all()
        fresh = [tuple(d) for d in due if tuple(d) not in seen]
        for game_id, seat, deadline in fresh:
            seen.add((game_id, seat, deadline))
            outcome = timeout(svc, game_id, seat, deadline, now, report.outbox_ids)
            report.count(outcome)
            if outcome in ("played", "forfeited", "waiting", "ended"):
                report.timed_out += 1
        if len(due) < batch or not fresh:
            return


def timeout(svc: Services, game_id: int, seat: int, deadline: datetime, now: datetime,
            outbox_ids: list[int]) -> str:
    """Handle one seat's passed deadline, once. Returns what happened: played | forfeited |
    ended | waiting | moved (the player, or another sweeper, was first) | error."""
    try:
        with svc.db.transaction() as session:
            outcome, ids = _timeout(session, svc, game_id, seat, deadline, now)
    except PlayError as exc:          # lost a race on the event log: the other writer won
        log.info("timeout of game %s seat %s: %s", game_id, seat, exc.detail)
        return "moved"
    except Exception:                 # noqa: BLE001 - one broken game must not stop the sweep
        log.exception("timeout of game %s seat %s failed", game_id, seat)
        return "error"
    outbox_ids.extend(ids)
    return outcome


def _timeout(session: Session, svc: Services, game_id: int, seat: int, deadline: datetime,
             now: datetime) -> tuple[str, list[int]]:
    pos = positions.load(session, svc.states, game_id, lock=True)
    game, engine = pos.row, pos.engine
    row = seat_row(game, seat)            # read under the game's lock
    if row.deadline != deadline:
        return "moved", []
    if game.status == "ended" or engine.outcome(pos.state) is not None:
        row.deadline = row.remind_at = None
        return "moved", []
    clock = get_clock(row)
    if seat not in engine.to_act(pos.state):
        set_clock(row, clocks.finish_turn(control(game), clock, now))
        return "moved", []
    # once per seat, deadline and position: a seat that left is due at each turn's start
    key = f"timer:{seat}:{pos.seq}:{clocks.deadline_iso(deadline)}"
    if row.status in OUT:          # a seat that left: its turns are played for it
        set_clock(row, clocks.timeout_move_played(control(game), clock))
        return play_timeout_moves(session, svc, pos, seat, key, now, why="left")
    if not clocks.is_overdue(clock, now):
        set_clock(row, clock)
        return "moved", []
    return _missed(session, svc, pos, row, clock, key, now)


def _missed(session: Session, svc: Services, pos: positions.Position, row: Seat,
            clock: SeatClock, key: str, now: datetime) -> tuple[str, list[int]]:
    game, tc = pos.row, control(pos.row)
    in_play = sum(1 for r in game.seats if r.status not in OUT)
    miss = clocks.after_miss(policy_of(game, row), tc, clock, now, seats_in_play=in_play)
    set_clock(row, miss.clock)
    ids: list[int] = []
    name = who(row.seat)
    if miss.absent and row.status == "active":
        row.status = "absent"
        absent = (f"{name} missed {clocks.ABSENT_AFTER} turns in a row and is marked absent; "
                  "any player may invite someone to take the seat over on the game page")
        change(session, game, row, "absent", absent, now)
        ids += tell(session, svc, game, row.seat, absent, now, offer=False, others_only=True)
    if miss.forfeit:
        row.status = "forfeited"
        change(session, game, row, "forfeited", f"{name} ran out of time and forfeits", now)
        if miss.end_game:
            winners = [r.seat for r in game.seats if r.status not in OUT]
            ids += end_game(session, game, winners, [row.seat],
                            f"{name} ran out of time and forfeited.", now)
            return "ended", ids
    if miss.play_timeout_move:
        outcome, more = play_timeout_moves(session, svc, pos, row.seat, key, now,
                                           why="forfeit" if miss.forfeit else "bot")
        return outcome, ids + more
    # wait (or an engine with no sensible timeout move): the others are told, and may act
    text = f"{name} ran out of time; nothing was played for {name}"
    ids += tell(session, svc, game, row.seat, text, now, offer=miss.can_extend, others_only=True)
    return "waiting", ids


def play_timeout_moves(session: Session, svc: Services, pos: positions.Position, seat: int,
                       key: str, now: datetime, why: str) -> tuple[str, list[int]]:
    """The engine's timeout move for `seat`, again while the seat is still to act (an open
    turn), recorded as one submission with source "timer"; everyone is told what was played."""
    engine, state = pos.engine, pos.state
    events: list[Event] = []
    moves: list[Move] = []
    chooser = getattr(engine, "timeout_move", None)
    for _ in range(MAX_TIMEOUT_MOVES):
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
        text = f"{name} ran out of time, and this game has no move to play for them; waiting"
        return "waiting", tell(session, svc, pos.row, seat, text, now, offer=False,
                               others_only=True)
    intent = Intent(pos.row.id, seat, moves=moves, source="timer", key=key)
    applied = record(session, svc, pos, intent, f"{seat}:{key}"[:128], events, moves, state)
    played = "; ".join(engine.describe(m) for m in moves)
    reason = {"left": f"{name} has left the game", "forfeit": f"{name} ran out of time and "
              "forfeits", "bot": f"{name} ran out of time"}[why]
    text = f"{reason}; the default move was played for {name}: {played}"
    ids = list(applied.outbox_ids)
    ids += _attach(session, pos.row, applied, {"text": text, "seat": seat}, now)
    return ("forfeited" if why == "forfeit" else "played"), ids


def _attach(session: Session, game: GameRow, applied, notice: dict, now: datetime) -> list[int]:
    """Put the timeout notice on the turn emails the move queued, and tell every other seat
    in a notice of its own."""
    told = set()
    for row_id in applied.outbox_ids:
        row = session.get(OutboxRow, row_id)
        row.payload = dict(row.payload or {}, timeout=notice)
        told.add(row.seat)
    extra = [notify.queue(session, game, r.seat, "timeout", applied.last_seq, now,
                          {"timeout": notice}) for r in game.seats if r.seat not in told]
    session.flush()
    return [r.id for r in extra]




# --- a waiting seat: the others act ----------------------------------------------------------

def seat_action(svc: Services, game_id: int, by_seat: int, holder: int, act: str,
                target: int) -> str:
    """`wait`: another player extends `target`'s deadline once ("extend") or has the default
    move played for it from now on ("bot"). Returns a sentence saying what was done."""
    with svc.db.transaction() as session:
        pos = positions.load(session, svc.states, game_id, lock=True)
        game = pos.row
        seats.check_holder(game, by_seat, holder)
        if game.status == "ended" or pos.engine.outcome(pos.state) is not None:
            raise PlayError("This game has finished; there is no deadline to change.")
        row = seat_row(game, target)
        name = row.player.name
        clock = get_clock(row)
        if target not in pos.engine.to_act(pos.state) or not clock.in_turn:
            raise PlayError(f"{name} has moved since; there is nothing to do.")
        now = svc.clock.now()
        if act == "extend":
            try:
                clock = clocks.extend_once(control(game), clock, now)
            except clocks.ClockError as exc:
                raise PlayError(str(exc)) from None
            set_clock(row, clock)
            change(session, game, row, "extended",
                   f"{who(target)}'s deadline was extended by {who(by_seat)}", now)
            until = clocks.format_deadline(clock.deadline, now)
            ids = tell(session, svc, game, target, f"{who(target)}'s deadline was extended to "
                       f"{until} by {who(by_seat)}", now, offer=False, others_only=False)
            done = f"{name} now has until {clocks.format_deadline(clock.deadline, now)}."
        else:
            row.on_timeout = "bot"
            change(session, game, row, "bot", f"{who(by_seat)} asked for {who(target)}'s turns "
                   "to be played by the default move", now)
            set_clock(row, clocks.timeout_move_played(control(game), clock))
            _, ids = play_timeout_moves(session, svc, pos, target,
                                        f"switch:{clocks.deadline_iso(now)}", now, why="bot")
            done = f"The default move was played for {name}, and will be when they run out of time."
    svc.kick("deliver", ids)
    return done
