"""Position marks: what a link or form remembers of the position its player was looking at.

A mark is a short hash of the seat's *freshness* view — by default its whole view; an engine
may leave out what changes without touching the seat's decision (others' progress in a sealed
round). Links carry the mark, never the log's sequence number: the sequence number counts
events a seat may not see (a Magnate player's hidden standing choices), so showing it would
tell others that something happened and when."""
from __future__ import annotations

import hashlib
import json
from typing import Any

from service.games.contract import Game


def freshness(engine: Game, state: Any, seat: int | None, view: Any = None) -> Any:
    """`view`: the seat's whole view, when the caller made it already (engine.view(state,
    seat), unchanged): an engine whose freshness is its whole view is not asked again."""
    custom = getattr(engine, "freshness", None)
    if custom is not None:
        return custom(state, seat)
    return view if view is not None else engine.view(state, seat)


def mark(engine: Game, state: Any, seat: int | None, view: Any = None) -> str:
    blob = json.dumps(freshness(engine, state, seat, view), sort_keys=True,
                      separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:20]
