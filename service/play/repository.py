"""Rebuilding a game's state: from a small in-memory cache per service, else from the newest
snapshot in the database (service.store.snapshots), plus the events after it — never the
whole log of a long game, so a move, an email and a page cost the same at event 2,000 as at
event 20, in a worker that has never seen the game as in one that has.

States are immutable by the engine contract (evolve copies; the invariant tests check it), so a
cached state can be shared between requests and extended by replaying only newer events. The
cache belongs to one `Services` (one app): two apps in one process never share game states."""
from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache as once
from pathlib import Path
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy import event as sa_event
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session, joinedload

from service import games
from service.games import registry
from service.games.contract import Event, Game
from service.mailwire.outbound.catalogs import _
from service.store import eventstore, records, snapshots
from service.store.models import GameRow
from service.store.statuses import GameStatus

from .errors import TAKEN_OVER, NoSuchGame, NotYourSeat

#: the service's event for a move taken back by agreement (play.undo): folding it means
#: "the state as it was after event data["to"]"
TAKEN_BACK = "MoveTakenBack"

# ids beyond this are no game of ours (and overflow PostgreSQL's integer)
MAX_GAME_ID = 2**31 - 1
# a snapshot is written whenever this many events were folded since the last one: replaying
# 50 events costs about a millisecond; a snapshot is a row of a kilobyte or two
SNAPSHOT_EVERY = 50
#: a snapshot to write: (game id, seq, format, state)
Snapshot = tuple[int, int, str, Any]


class StateCache:
    """The newest few states of each of the most recently used games: an email renders the
    position at its row's `seq`, often just behind the newest."""

    def __init__(self, size: int = 256, per_game: int = 4):
        self.size, self.per_game = size, per_game
        self._states: OrderedDict[int, list[tuple[int, Any]]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: int, upto: int | None = None) -> tuple[int, Any] | None:
        """The newest cached (seq, state) of the game at or before `upto`."""
        with self._lock:
            for seq, state in reversed(self._states.get(game_id, ())):
                if upto is None or seq <= upto:
                    return seq, state
        return None

    def remember(self, game_id: int, seq: int, state: Any) -> None:
        with self._lock:
            kept = [(s, st) for s, st in self._states.get(game_id, ()) if s != seq]
            kept.append((seq, state))
            kept.sort(key=lambda pair: pair[0])
            self._states[game_id] = kept[-self.per_game:]
            self._states.move_to_end(game_id)
            while len(self._states) > self.size:
                self._states.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._states.clear()


@once
def _engine_code() -> str:
    """A digest of the engines' source: a snapshot folded by other code is not trusted."""
    digest = hashlib.sha256()
    root = Path(games.__file__).parent
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:24]


def snapshot_format(row: GameRow) -> str:
    return f"r{row.rules_version}:{_engine_code()}"


@dataclass(frozen=True)
class Position:
    row: GameRow
    engine: Game
    state: Any
    seq: int


# built once: every page, email and write reads a game's row (built per call, the query cost
# as much as running it)
_GAME = select(GameRow).where(GameRow.id == bindparam("game_id"))
# PostgreSQL: writers to one game queue here. A writer needs the seats (its emails'
# addresses): read them in the same round trip, locking only the game's row.
_GAME_LOCKED = _GAME.options(joinedload(GameRow.seats)).with_for_update(of=GameRow)


def _no_game(game_id) -> NoSuchGame:
    return NoSuchGame(_("There is no game number %(id)s.", id=game_id))


def game_row(session: Session, game_id: int, *, lock: bool = False) -> GameRow:
    if not 0 < game_id <= MAX_GAME_ID:
        raise _no_game(game_id)
    row = session.scalars(_GAME_LOCKED if lock else _GAME,
                          {"game_id": game_id}).unique().first()
    if row is None:
        raise _no_game(game_id)
    return row


_SEQ = select(GameRow.seq).where(GameRow.id == bindparam("game_id"))


def current_seq(session: Session, game_id: int) -> int:
    """The game's latest event's sequence number, read as it stands in this transaction (one
    column: no row nor seats loaded for it)."""
    seq = session.scalar(_SEQ, {"game_id": game_id})
    if seq is None:
        raise _no_game(game_id)
    return seq


def game_record(session: Session | Connection, game_id: int):
    """The game with its seats and their players as plain records (read only), in one
    prebuilt statement: as ORM objects they took three statements and a large share of a cold
    game page (docs/performance.md)."""
    row = records.read_one(session, game_id) if 0 < game_id <= MAX_GAME_ID else None
    if row is None:
        raise _no_game(game_id)
    return row


def load_locked(session: Session, cache: StateCache, game_id: int,
                tracked: records.Tracked) -> Position:
    """The game's latest state, its row read under the game's write lock as plain records
    that `tracked.write()` writes back (a move: service.store.records says why)."""
    if not 0 < game_id <= MAX_GAME_ID:
        raise _no_game(game_id)
    row = tracked.lock_one(game_id)
    if row is None:
        raise _no_game(game_id)
    return load(session, cache, game_id, row=row)


def load(session: Session, cache: StateCache, game_id: int, upto: int | None = None, *,
         lock: bool = False, row: GameRow | None = None,
         known: Sequence[eventstore.Recorded] = ()) -> Position:
    """The game's state after event `upto` (default: the latest). `row`: the game's row if
    the caller has read it in this session already (a batch of emails reads them at once);
    `known`: consecutive events the caller has read already (an email's news), used instead
    of reading them again when they cover the events to fold."""
    if row is None or lock:
        row = game_row(session, game_id, lock=lock)
    engine = registry.get(row.kind)
    target = row.seq if upto is None else min(upto, row.seq)
    base_seq, state = cache.get(game_id, target) or (0, None)
    if target - base_seq > SNAPSHOT_EVERY:
        base_seq, state = snapshots.latest(session, game_id, snapshot_format(row), base_seq,
                                           target) or (base_seq, state)
    seq = base_seq
    if base_seq < target or state is None:
        recorded = _events(session, row, base_seq, upto, known)
        seq, state = fold(session, cache, row, base_seq, state,
                          [(r.seq, r.event) for r in recorded])
    if state is None:
        raise NoSuchGame(_("Game %(id)s has no events.", id=game_id))
    snapshot = snapshot_after_fold(row, base_seq, seq, state)
    if snapshot:
        snapshots.save(session, *snapshot)
    cache.remember(game_id, seq, state)
    return Position(row, engine, state, seq)


def fold_starts(session: Session, cache: StateCache, wanted: Mapping[int, tuple[Any, int]]
                ) -> dict[int, tuple[int, Any]]:
    """Where `load` would start folding each of many games to a position, found for all of
    them at once: {game_id: (game row, seq)} to {game_id: (seq, state)}, the cache's newest
    state at or before the position, else the newest snapshot at or before it (one statement
    for the games that need one), else (0, None)."""
    found = {gid: cache.get(gid, upto) or (0, None) for gid, (_, upto) in wanted.items()}
    far = {gid: (snapshot_format(row), found[gid][0], upto)
           for gid, (row, upto) in wanted.items() if upto - found[gid][0] > SNAPSHOT_EVERY}
    found.update(snapshots.latest_many(session, far, ends={gid: wanted[gid][0].seq
                                                           for gid in far}))
    return found


def load_many(session: Session, cache: StateCache,
              rows: Sequence[GameRow]) -> tuple[dict[int, Position], list[Snapshot]]:
    """Many games' latest states as `load` finds each (the cache, else the newest snapshot,
    plus the events after it), for the whole batch in two queries; and the snapshots the
    folds call for, for the caller to write with the rest of its rows. A game without events
    has no position."""
    found = fold_starts(session, cache, {game.id: (game, game.seq) for game in rows})
    behind = {g.id: (g, found[g.id][0]) for g in rows
              if found[g.id][0] < g.seq or found[g.id][1] is None}
    logs = eventstore.load_many(session, behind)
    loaded: dict[int, Position] = {}
    due: list[Snapshot] = []
    for game in rows:
        base, state = found[game.id]
        seq, state = fold(session, cache, game, base, state, logs.get(game.id, []))
        if state is None:
            continue
        snapshot = snapshot_after_fold(game, base, seq, state)
        if snapshot:
            due.append(snapshot)
        cache.remember(game.id, seq, state)
        loaded[game.id] = Position(game, registry.get(game.kind), state, seq)
    return loaded, due


def fold_ahead(session: Session, cache: StateCache,
               wanted: Mapping[int, tuple[Any, Sequence[int]]],
               starts: Mapping[int, tuple[int, Any]],
               logs: Mapping[int, Sequence[eventstore.Recorded]]) -> None:
    """Fold each game of `starts` (fold_starts', found for its earliest position) to each of
    its positions in `wanted` ({game_id: (game row, seqs)}) from the events the caller read
    with its own (`logs`), and cache the states, leaving the snapshot `load` would: the
    loads of those positions that follow fold nothing and read nothing. A game whose events
    do not reach back to its start is left to `load`."""
    due: list[Snapshot] = []
    for gid, (base, state) in starts.items():
        row, positions = wanted[gid]
        events = {r.seq: r.event for r in logs.get(gid, ()) if r.seq > base}
        if any(at not in events for at in range(base + 1, max(positions) + 1)):
            continue
        seq = base
        for upto in sorted(set(positions)):
            seq, state = fold(session, cache, row, seq, state,
                              [(at, events[at]) for at in range(seq + 1, upto + 1)])
            if state is not None:       # (a snapshot's own position included)
                cache.remember(gid, upto, state)
        snapshot = snapshot_after_fold(row, base, seq, state) if state is not None else None
        if snapshot:
            due.append(snapshot)
    snapshots.save_many(session, due)


def fold(session: Session, cache: StateCache, row: GameRow, base_seq: int, state: Any,
         recorded: Sequence[tuple[int, Event]]) -> tuple[int, Any]:
    """The one fold of a game's log: `state` (after event `base_seq`; None before the first)
    evolved by the events after it, in order. Returns the last event's seq and the state."""
    engine = registry.get(row.kind)
    seq = base_seq
    for at, event in recorded:
        if event.type == TAKEN_BACK:
            # the service's own event (play.undo): the game goes on from the state it had
            # after event `to`; the engine never sees it
            state = load(session, cache, row.id, upto=event.data["to"], row=row).state
        else:
            state = engine.evolve(state, event)
        seq = at
    return seq, state


def fold_log(engine: Game, recorded: Sequence[tuple[int, Event]], state: Any = None,
             base_seq: int = 0) -> Any:
    """A log folded in memory, with no database nor cache (migration 0029's back-fill, the
    tests that check the rows against the fold): `fold` without its snapshots, from `state`
    after event `base_seq` (default: the start). A take-back goes on from the state after its
    event `to`, kept for it on the way (one behind `base_seq` cannot be: the caller folds the
    whole log)."""
    wanted = {event.data["to"] for _, event in recorded if event.type == TAKEN_BACK}
    kept: dict[int, Any] = {base_seq: state}
    for at, event in recorded:
        state = kept[event.data["to"]] if event.type == TAKEN_BACK else engine.evolve(state,
                                                                                     event)
        if at in wanted:
            kept[at] = state
    return state


def acting(game, engine: Game, state: Any) -> frozenset[int]:
    """The seats to act now: the engine's to_act, nobody once the game is over (by its rules
    or by the service: a resignation, a forfeit)."""
    if game.status == GameStatus.ENDED or engine.outcome(state) is not None:
        return frozenset()
    return frozenset(engine.to_act(state))


def mark_turns(game, engine: Game, state: Any) -> None:
    """Each seat's `to_act` column as `state` says, set in the transaction that appends the
    events that made it (a move, a timeout, a take-back, a game's start; an end sets them
    all false: service.play.time.ending.finish), on a GameRow or a record of one alike: the
    lists of a player's games read whose move it is from the rows, folding no log."""
    now_acting = acting(game, engine, state)
    for row in game.seats:
        row.to_act = row.seat in now_acting


def snapshot_after_fold(row: GameRow, base_seq: int, seq: int, state: Any) -> Snapshot | None:
    """A fold of SNAPSHOT_EVERY events or more leaves a snapshot for the next reader."""
    if seq - base_seq >= SNAPSHOT_EVERY:
        return (row.id, seq, snapshot_format(row), state)
    return None


def snapshot_after_move(pos: Position, last: int, state: Any) -> Snapshot | None:
    """A move whose events pass a multiple of SNAPSHOT_EVERY leaves a snapshot at its last."""
    if last // SNAPSHOT_EVERY > pos.seq // SNAPSHOT_EVERY:
        return (pos.row.id, last, snapshot_format(pos.row), state)
    return None


def _events(session: Session, row: GameRow, after: int, upto: int | None,
            known: Sequence[eventstore.Recorded]) -> Sequence[eventstore.Recorded]:
    last = row.seq if upto is None else upto
    if known and known[0].seq <= after + 1 and known[-1].seq >= last:
        return [r for r in known if after < r.seq <= last]
    return eventstore.load(session, row, after=after, upto=upto)


def moved(session: Session, cache: StateCache, pos: Position, last: int, state: Any) -> None:
    """After a move appended events up to `last` in this session: a snapshot each time the log
    passes a multiple of SNAPSHOT_EVERY (in the move's transaction), and the new state cached
    once the transaction commits (not before: a rolled-back move never happened)."""
    snapshot = snapshot_after_move(pos, last, state)
    if snapshot:
        snapshots.save(session, *snapshot)
    game_id = pos.row.id
    sa_event.listen(session, "after_commit", lambda _s: cache.remember(game_id, last, state),
                    once=True)


def batches(recorded: list[eventstore.Recorded]) -> list[list[eventstore.Recorded]]:
    """The events in the commits that made them: one start, move, turn or take-back each."""
    out: list[list[eventstore.Recorded]] = []
    for r in recorded:
        if out and (out[-1][-1].seat, out[-1][-1].source, out[-1][-1].at) == (r.seat, r.source,
                                                                              r.at):
            out[-1].append(r)
        else:
            out.append([r])
    return out

def check_holder(game, seat: int | None, holder: int | None) -> None:
    """Links carry the seat's holder: once a seat has been taken over, the old links no longer
    act for it."""
    if seat is None or holder is None:
        return
    row = next((s for s in game.seats if s.seat == seat), None)
    if row is not None and row.holder != holder:
        raise NotYourSeat(_(TAKEN_OVER))
