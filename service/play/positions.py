"""Rebuilding a game's state from its log, with a small in-process cache.

States are immutable by the engine contract (evolve copies; the invariant tests check it), so a
cached state can be shared between requests and extended by replaying only newer events."""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.games import registry
from service.games.contract import Event, Game
from service.store.models import EventRow, GameRow

from .errors import NoSuchGame

CACHE_SIZE = 256
_cache: OrderedDict[int, tuple[int, Any]] = OrderedDict()
_lock = threading.Lock()


@dataclass(frozen=True)
class Position:
    row: GameRow
    engine: Game
    state: Any
    seq: int


def load_events(session: Session, game_id: int, after: int = 0,
                upto: int | None = None) -> list[tuple[int, Event, EventRow]]:
    q = select(EventRow).where(EventRow.game_id == game_id, EventRow.seq > after)
    if upto is not None:
        q = q.where(EventRow.seq <= upto)
    rows = session.scalars(q.order_by(EventRow.seq)).all()
    return [(r.seq, Event(r.type, r.data), r) for r in rows]


def load(session: Session, game_id: int, upto: int | None = None, *, lock: bool = False) -> Position:
    """The game's state after event `upto` (default: the latest)."""
    q = select(GameRow).where(GameRow.id == game_id)
    if lock:
        q = q.with_for_update()   # PostgreSQL: writers to one game queue here
    row = session.scalars(q).first()
    if row is None:
        raise NoSuchGame(f"There is no game number {game_id}.")
    engine = registry.get(row.kind)
    with _lock:
        cached = _cache.get(game_id)
    base_seq, state = (0, None)
    if cached and cached[0] <= (upto if upto is not None else cached[0]):
        base_seq, state = cached
    newer = load_events(session, game_id, after=base_seq, upto=upto)
    for _, event, _ in newer:
        state = engine.evolve(state, event)
    seq = newer[-1][0] if newer else base_seq
    if state is None:
        raise NoSuchGame(f"Game {game_id} has no events.")
    if upto is None:
        remember(game_id, seq, state)
    return Position(row, engine, state, seq)


def remember(game_id: int, seq: int, state: Any) -> None:
    with _lock:
        old = _cache.get(game_id)
        if old is None or old[0] <= seq:
            _cache[game_id] = (seq, state)
        _cache.move_to_end(game_id)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)


def forget_all() -> None:
    with _lock:
        _cache.clear()
