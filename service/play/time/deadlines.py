"""Correspondence time in the play layer: each seat's clock kept in step with the moves (in the
same transaction as each move), and the deadline sweep: reminders, missed turns (`bot`,
`forfeit`, `wait`), vacations that end by themselves.

The pure clock rules are service.play.time.clocks; this module stores them. Each seat row repeats its
clock's next instants in two indexed columns, `deadline` and `remind_at`, so the sweep finds
what is due by index, in deadline order and in batches, without loading any game that is not
due. A timeout is played under the game row's lock (SELECT ... FOR UPDATE on PostgreSQL, BEGIN
IMMEDIATE on SQLite) after re-checking that the seat is still to act and still overdue, with
source "timer": a whole batch at once with bulk writes (service.play.time.sweep.timeoutbatch), or, when
a batch cannot be written, seat by seat through the same `record` as a player's move. A move in
the same second and a sweep, or two sweeps, give exactly one outcome."""
from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

# the seat changes' history lines are made by `said` (their callers reach it as deadlines.said)
from service.games.text import phrase, said
from service.mailwire.outbound import catalogs
from service.mailwire.outbound.catalogs import N_
from service.play import notify, webhooks
from service.play.services import Services
from service.store.models import GameRow, Seat, SeatChange, Tournament, Vacation
from service.store.statuses import GameStatus, SeatStatus

from . import calendar, clocks, ending
from .clocks import SeatClock, TimeControl

log = logging.getLogger(__name__)

SERVICE_OPTIONS = ("clock", "on_timeout", "rest_days")   # rest_days: service.play.time.calendar
OUT = (SeatStatus.RESIGNED, SeatStatus.FORFEITED)     # seats played by timeout moves from then on
MAX_TIMEOUT_MOVES = 30              # an open turn (Magnate) ended by several timeout moves
BATCH = 200


# --- options -------------------------------------------------------------------------------

def read_options(options: dict[str, Any]) -> tuple[dict[str, Any], str | None, str | None]:
    """Split the service's options off: (engine options, clock option text or None for no
    clock, timeout policy or None for no clock). Raises ClockError with words."""
    rest = {k: v for k, v in options.items() if k not in SERVICE_OPTIONS}
    text = str(options.get("clock", "none"))
    tc = clocks.parse_clock(text)
    policy = clocks.parse_on_timeout(str(options.get("on_timeout", clocks.DEFAULT_ON_TIMEOUT)))
    if tc.kind == "none":
        return rest, None, policy if "on_timeout" in options else None
    return rest, clocks.option_text(tc), policy


def control(game: GameRow) -> TimeControl:
    return _parsed(game.clock) if game.clock else clocks.NO_CLOCK


@lru_cache(maxsize=64)
def _parsed(option: str) -> TimeControl:
    # a handful of distinct options; the sweep asks for each seat's several times
    return clocks.parse_clock(option)


def policy_of(game: GameRow, row: Seat) -> str:
    return row.on_timeout or game.on_timeout or clocks.DEFAULT_ON_TIMEOUT


# The clock each dict `set_clock` stored was made from, by the dict's id (the dict is kept, so
# its id is not reused while here): a timeout sets a seat's clock, then brings the seats in
# step with the move (`track`), which reads it again; decoding it again cost the sweep a
# tenth of its clock bookkeeping. Clock dicts are never changed in place, only replaced.
_stored: dict[int, tuple[dict, SeatClock]] = {}
_STORED_MAX = 4096


def get_clock(row: Seat) -> SeatClock:
    data = row.clock
    if not data:
        return SeatClock()
    stored = _stored.get(id(data))
    if stored is not None and stored[0] is data:
        return stored[1]
    return clocks.clock_from_dict(data)


def set_clock(row: Seat, clock: SeatClock) -> None:
    """Store the clock and its next instants: the deadline the sweep acts on (a seat that
    resigned or forfeited is due at once: its timeout move is played for it) and the
    reminder's."""
    row.clock = data = clocks.clock_to_dict(clock)
    if len(_stored) >= _STORED_MAX:
        _stored.clear()
    _stored[id(data)] = (data, clock)
    if row.status in OUT:
        row.deadline = clock.turn_started if clock.in_turn else None
        row.remind_at = None
        return
    running = clock.deadline is not None and not clock.paused and not clock.timed_out
    row.deadline = clock.deadline if running else None
    # the player's own reminders and quiet hours decide when (service.play.time.calendar)
    row.remind_at = calendar.calendarrules.next_reminder(clock, calendar.of_seat(row)) if running else None


def who(seat: int) -> str:
    """A seat in a sentence the pages fill in with its name, or "you" for its reader."""
    return "{p" + str(seat) + "}"


#: a notice's words for one reader (given their seat), built in the language of the moment:
#: the sweep builds them once per reader, in that reader's language (`worded`), so a German
#: player reads German while the next seat reads French
Said = Callable[[int], str]


def worded(row, text: str | Said) -> str:
    """`text` as the reader at seat `row` reads it: a `Said` built in their language (read
    from the player already loaded with the seat: no query), a plain string as it is."""
    if isinstance(text, str):
        return text
    with catalogs.speaking(getattr(row.player, "language", None)):
        return text(row.seat)


def to_the_others(line: dict) -> Said:
    """A history line (`said`) as the notice its seat's tablemates are sent, each in their
    language: the same sentence, in the third person (they are never its seat), its seat
    left as "{pN}" for the notice to name."""
    say = line["say"]
    return lambda reader: catalogs.spoken(say["template"], say["args"])


def about(template: str, mine: str, seat: int, **args) -> dict:
    """A part of a history line about a second seat ("{p2}'s seat", and "your seat" for its
    reader), as a parameter of `said`: each seat a line names reads of itself in its form."""
    return said(template, mine, seat, **args)["say"]


def more_days(days: int) -> dict:
    """"1 more day", "3 more days", as a parameter of a history line."""
    return phrase(N_("1 more day")) if days == 1 else phrase(N_("{n} more days"), n=days)


def timer_key(seat: int, seq: int, deadline: datetime) -> str:
    """A timeout's idempotency key: once per seat, deadline and position (a seat that left is
    due at each turn's start)."""
    return f"timer:{seat}:{seq}:{clocks.deadline_iso(deadline)}"


def receipt_key(seat: int, key: str) -> str:
    """The submissions row's key for a timeout, per seat as a player's (play.submit)."""
    return f"{seat}:{key}"[:128]


def seat_row(game: GameRow, seat: int) -> Seat:
    return next(s for s in game.seats if s.seat == seat)


def vacation_stops_clocks():
    """The games whose clocks a vacation stops (a query's condition on GameRow): all but a
    tournament's made with --no-vacation."""
    return GameRow.tournament_id.is_(None) | GameRow.tournament_id.not_in(
        select(Tournament.id).where(Tournament.no_vacation.is_(True)))


def open_clocks(session: Session, game: GameRow, now: datetime) -> None:
    """Each seat's clock at the start of a game; a player on vacation starts paused."""
    players = [r.player_id for r in game.seats]
    away = set(session.scalars(select(Vacation.player_id).where(Vacation.open.is_(True),
                                                                Vacation.player_id.in_(players))))
    if game.tournament_id is not None and session.scalar(
            select(Tournament.no_vacation).where(Tournament.id == game.tournament_id)):
        away = set()
    for row in game.seats:
        clock = clocks.new_clock(control(game))
        set_clock(row, clocks.pause(clock, now) if row.player_id in away else clock)


# --- after every move ----------------------------------------------------------------------

def track(session: Session | None, game: GameRow, engine, state: Any, now: datetime) -> None:
    """Bring the seats' clocks in step with the position (the game's `seq` is the position
    after the move): a seat that is no longer to act finished its turn; a seat that now is to
    act starts its turn (each seat of a sealed round on its own clock). Called in the move's
    transaction, and at the start of a game."""
    tc = control(game)
    over = game.status == GameStatus.ENDED or engine.outcome(state) is not None
    acting = frozenset() if over else engine.to_act(state)
    at = game.seq
    for row in game.seats:
        clock = get_clock(row)
        if row.seat in acting and not clock.in_turn:
            # rest days (the player's, or the game's) do not count towards the deadline
            clock = calendar.calendarrules.start_turn(clocks.start_turn(tc, clock, now, at),
                                              calendar.of_seat(row, game))
        elif row.seat not in acting and clock.in_turn:
            clock = calendar.calendarrules.finish_turn(tc, clock, clocks.finish_turn(tc, clock, now, at),
                                               now, calendar.of_seat(row, game))
            if row.status == SeatStatus.ABSENT:
                row.status = SeatStatus.ACTIVE      # they moved themselves: back in the game
        elif row.clock is not None:
            if row.seat in acting and row.status in OUT and row.deadline is None:
                set_clock(row, clock)
            continue
        set_clock(row, clock)


def take_back(game: GameRow, engine, state: Any, at: int, now: datetime) -> None:
    """The clocks after a take-back to position `at` (service.play.moves.undo), `state` being the
    position there: each seat to act there has its turn running (the turn it was in at `at`,
    reopened with the time it had left when it moved: service.play.time.clocks.reopen_turn says what is
    fair and why); each seat not to act there has no turn running (a turn begun after `at` is
    cancelled: it never happened). Deadlines and reminders follow (`set_clock`)."""
    tc = control(game)
    acting = frozenset() if engine.outcome(state) is not None else engine.to_act(state)
    for row in game.seats:
        clock = get_clock(row)
        if row.seat not in acting:
            set_clock(row, clocks.cancel_turn(clock))
            continue
        reopened = clocks.reopen_turn(tc, clock, now, at)
        # rest days do not count, in the time it gets back as in a new turn
        set_clock(row, calendar.calendarrules.reopen_turn(
            clock, reopened, now, calendar.of_seat(row, game),
            clocks.reopened_turn(clocks.cancel_turn(clock) if clock.in_turn else clock, at)))


# --- the sweep -----------------------------------------------------------------------------

def tell(session: Session, svc: Services, game: GameRow, seat: int, text: str | Said,
         now: datetime, *, offer: bool, others_only: bool, own_text: str | None = None
         ) -> list[int]:
    """A notice to the table about `seat`'s clock; with `offer`, each other player's email
    carries the links to extend the deadline once or to play the default move from now on.
    `own_text`: the words for `seat` itself, where the table's would not fit its reader ("the
    default move will be played for them", told to the one who resigned)."""
    rows = [notify.queue(session, game, to, "timeout", game.seq, now, payload)
            for to, payload in notices(svc, game, seat, text, offer=offer,
                                       others_only=others_only, own_text=own_text)]
    session.flush()
    return [r.id for r in rows]


def notices(svc: Services | None, game: GameRow, seat: int, text: str | Said, *, offer: bool,
            others_only: bool, own_text: str | None = None
            ) -> list[tuple[int, dict[str, Any]]]:
    """What `tell` queues: (seat to tell, email payload) for each seat told, in seat order."""
    out = []
    for r in game.seats:
        if others_only and r.seat == seat:
            continue
        said = own_text if own_text is not None and r.seat == seat else text
        notice: dict[str, Any] = {"text": worded(r, said), "seat": seat}
        if offer:
            urls = svc.urls
            notice["actions"] = [
                # marked here, said in the reader's language by the email that shows them
                {"text": N_("Extend the deadline once"),
                 "url": urls.absolute(urls.seat_action_path(game.id, r.seat, r.holder,
                                                            "extend", seat))},
                {"text": N_("Play the default move for them from now on"),
                 "url": urls.absolute(urls.seat_action_path(game.id, r.seat, r.holder,
                                                            "bot", seat))}]
        out.append((r.seat, {"timeout": notice}))
    return out


def change(session: Session, game: GameRow, row: Seat, kind: str, line: dict,
           now: datetime) -> None:
    """Record a seat change for the history (service bookkeeping, never an engine event)."""
    session.add(SeatChange(**change_values(game, row, kind, line, now)))


def change_values(game: GameRow, row: Seat, kind: str, line: dict, now: datetime) -> dict:
    """The seat_changes row `change` adds, as column values (the batched sweep inserts many).
    `line` is a history sentence made by service.games.text.said, kept as its JSON so a page
    says it in its reader's language (`seat_line` reads it back)."""
    return dict(game_id=game.id, seat=row.seat, kind=kind, seq=game.seq, text=line_text(line),
                player_id=row.player_id, created_at=now)


def line_text(line: dict) -> str:
    """A history line as seat_changes.text keeps it (`seat_line` reads it back)."""
    return json.dumps(line, ensure_ascii=False)


def seat_line(text: str) -> dict:
    """A seat_changes row's text as the sentence `change_values` kept ({"text": English,
    "say": ...}, for service.display.seatview.told); a row written before lines were kept so
    holds its English itself ("{p1} resigned": not JSON), and reads as {"text": it}."""
    try:
        line = json.loads(text)
    except ValueError:
        return {"text": text}
    return line if isinstance(line, dict) else {"text": text}


def end_game(session: Session, game: GameRow, seat: int, how: str | Said,
             now: datetime) -> list[int]:
    """The service ends the game because `seat` left and one player is left (a forfeit or a
    resignation): no more moves, every clock stops, everyone is told, and the game's notices
    not yet sent are dropped (the game-over email says it all: notify.supersede)."""
    notify.supersede(session, game.id)
    told = close_game(session, game, seat, how, now)
    rows = [notify.queue(session, game, to, "turn", game.seq, now, payload)
            for to, payload in told]
    session.flush()
    hooked = webhooks.queue_event(session, game, [to for to, _ in told], webhooks.GAME_OVER,
                                  now)
    return [r.id for r in rows] + hooked


def close_game(session: Session, game: GameRow, seat: int, how: str | Said,
               now: datetime) -> list[tuple[int, dict[str, Any]]]:
    """`end_game` on the rows: the game ended and ranked by who left (service.play.ranking:
    the one player left wins; those who left rank below, the first to leave lowest) and rated,
    every clock stopped. Returns (seat, payload) of the turn email each seat is sent, told
    `how` `seat` left."""
    ending.finish(session, game, now)
    for r in game.seats:
        clock = get_clock(r)
        if clock.in_turn:
            clock = clocks.timeout_move_played(control(game), clock)
        set_clock(r, clock)
        r.deadline = r.remind_at = None
    return [(r.seat, {"timeout": {"text": worded(r, how), "seat": seat}}) for r in game.seats]
