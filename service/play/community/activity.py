"""Two figures people choose opponents by, read from the logs of a player's games:

* reliability: the share of their turns moved before the deadline, each timeout counted as a
  turn missed (a timeout move the clock played, or a forfeit on time);
* quickness: the median time they took to move, from the game's previous write to theirs.

A turn is a run of events written together for one seat (same seat, source and time). Turns
played for a seat after it resigned or forfeited are the service's, not the player's, and
count for neither. Only a move the rules ask of the seat at its turn counts (RULINGS P2): the
events of a standing private choice, which a seat may make at any time (the engine's
`standing_choices`: Magnate's income preferences and Ace setting, Aristocracy's choice to
end), are left out of the log altogether, so toggling one neither raises the chooser's figures
nor moves anyone's time, which would tell the table a private choice was made; and a take-back
(`undo`, a table word, as say and help are) is a write but no one's move."""
from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.games import registry
from service.store.models import EventRow, GameRow, Seat, SeatChange

LEFT = ("resigned", "forfeited")
#: sources of events that are nobody's move: the deal, a take-back by agreement
NOT_MOVES = ("start", "undo")


@dataclass(frozen=True)
class Activity:
    moved: int                       # turns the player moved
    timeouts: int                    # turns the clock ended for them
    waits: tuple[timedelta, ...]     # how long each move took

    @property
    def turns(self) -> int:
        return self.moved + self.timeouts

    @property
    def reliability(self) -> float | None:
        """0..1, None before any turn."""
        return self.moved / self.turns if self.turns else None

    @property
    def quickness(self) -> timedelta | None:
        """The median time to move, None before any move."""
        return statistics.median(self.waits) if self.waits else None

    def __add__(self, other: Activity) -> Activity:
        return Activity(self.moved + other.moved, self.timeouts + other.timeouts,
                        self.waits + other.waits)


NOTHING = Activity(0, 0, ())


def measure(log: Iterable[tuple[int, int | None, str, datetime]], seat: int,
            left_at: int | None = None, forfeited: bool = False) -> Activity:
    """One seat's turns in one game's log ((seq, seat, source, created_at) in seq order);
    `left_at`: the position at which it resigned or forfeited; `forfeited`: on time."""
    runs: list[tuple[int, int | None, str, datetime]] = []
    for seq, who, source, at in log:
        if runs and runs[-1][1:] == (who, source, at):
            continue                      # the same turn's further events
        runs.append((seq, who, source, at))
    moved, timeouts, waits = 0, 1 if forfeited else 0, []
    for before, run in zip([None, *runs], runs, strict=False):
        seq, who, source, at = run
        if who != seat or source in NOT_MOVES or (left_at is not None and seq > left_at):
            continue
        if source == "timer":
            timeouts += 1
            continue
        moved += 1
        if before is not None:
            waits.append(at - before[3])
    return Activity(moved, timeouts, tuple(waits))


def standing_choices(kind: str) -> frozenset[str]:
    """The event types of a game's standing private choices (none for an unknown game)."""
    try:
        engine = registry.get(kind)
    except registry.UnknownGame:
        return frozenset()
    return frozenset(getattr(engine, "standing_choices", ()))


def activity(session: Session, player_id: int) -> Activity:
    """The player's turns in every game they have held a seat in."""
    seats = session.execute(select(Seat.game_id, Seat.seat, GameRow.kind)
                            .join(GameRow, GameRow.id == Seat.game_id)
                            .where(Seat.player_id == player_id,
                                   GameRow.status != "forming")).all()
    if not seats:
        return NOTHING
    private = {g: standing_choices(kind) for g, _, kind in seats}
    game_ids = sorted(private)
    logs: dict[int, list] = {g: [] for g in game_ids}
    for row in session.execute(select(EventRow.game_id, EventRow.seq, EventRow.seat,
                                      EventRow.source, EventRow.created_at, EventRow.type)
                               .where(EventRow.game_id.in_(game_ids))
                               .order_by(EventRow.game_id, EventRow.seq)):
        if row.type not in private[row.game_id]:
            logs[row.game_id].append((row.seq, row.seat, row.source, row.created_at))
    left: dict[tuple[int, int], tuple[int, bool]] = {}
    for c in session.execute(select(SeatChange.game_id, SeatChange.seat, SeatChange.kind,
                                    SeatChange.seq)
                             .where(SeatChange.game_id.in_(game_ids),
                                    SeatChange.kind.in_(LEFT))
                             .order_by(SeatChange.id)):
        left.setdefault((c.game_id, c.seat), (c.seq, c.kind == "forfeited"))
    total = NOTHING
    for game_id, seat, _kind in seats:
        at, forfeited = left.get((game_id, seat), (None, False))
        total += measure(logs[game_id], seat, at, forfeited)
    return total
