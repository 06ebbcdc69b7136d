"""Rebuilding a game's state from its log, with a small in-memory cache per service.

States are immutable by the engine contract (evolve copies; the invariant tests check it), so a
cached state can be shared between requests and extended by replaying only newer events. The
cache belongs to one `Services` (one app): two apps in one process never share game states."""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.games import registry
from service.games.contract import Game
from service.store import events as event_store
from service.store.models import GameRow

from .errors import NoSuchGame

#: the service's event for a move taken back by agreement (play.undo): folding it means
#: "the state as it was after event data["to"]"
TAKEN_BACK = "MoveTakenBack"

# ids beyond this are no game of ours (and overflow PostgreSQL's integer)
MAX_GAME_ID = 2**31 - 1


class StateCache:
    def __init__(self, size: int = 256):
        self.size = size
        self._states: OrderedDict[int, tuple[int, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: int) -> tuple[int, Any] | None:
        with self._lock:
            return self._states.get(game_id)

    def remember(self, game_id: int, seq: int, state: Any) -> None:
        with self._lock:
            old = self._states.get(game_id)
            if old is None or old[0] <= seq:
                self._states[game_id] = (seq, state)
            self._states.move_to_end(game_id)
            while len(self._states) > self.size:
                self._states.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._states.clear()


@dataclass(frozen=True)
class Position:
    row: GameRow
    engine: Game
    state: Any
    seq: int


def game_row(session: Session, game_id: int, *, lock: bool = False) -> GameRow:
    if not 0 < game_id <= MAX_GAME_ID:
        raise NoSuchGame(f"There is no game number {game_id}.")
    q = select(GameRow).where(GameRow.id == game_id)
    if lock:
        q = q.with_for_update()   # PostgreSQL: writers to one game queue here
    row = session.scalars(q).first()
    if row is None:
        raise NoSuchGame(f"There is no game number {game_id}.")
    return row


def load(session: Session, cache: StateCache, game_id: int, upto: int | None = None, *,
         lock: bool = False) -> Position:
    """The game's state after event `upto` (default: the latest)."""
    row = game_row(session, game_id, lock=lock)
    engine = registry.get(row.kind)
    cached = cache.get(game_id)
    base_seq, state = (0, None)
    if cached and cached[0] <= (upto if upto is not None else cached[0]):
        base_seq, state = cached
    newer = event_store.load(session, row, after=base_seq, upto=upto)
    for recorded in newer:
        if recorded.event.type == TAKEN_BACK:
            # the service's own event (play.undo): the game goes on from the state it had
            # after event `to`; the engine never sees it
            state = load(session, cache, game_id, upto=recorded.event.data["to"]).state
        else:
            state = engine.evolve(state, recorded.event)
    seq = newer[-1].seq if newer else base_seq
    if state is None:
        raise NoSuchGame(f"Game {game_id} has no events.")
    if upto is None:
        cache.remember(game_id, seq, state)
    return Position(row, engine, state, seq)
