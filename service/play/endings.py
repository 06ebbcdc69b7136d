"""What else happens when a game ends, in the transaction that ends it. The families below
the community (moves, time, players) end games; the community (ladders) must hear of it
without their importing it, so it registers a hook here and they call `ended`.

A hook gets (session, game row, now, outcome) (the engine's Outcome, or None when the
service ended the game and wrote its `result`: winners, last, how) and must be idempotent: a hook that missed an end (a
process that never imported the community) is made good by the community's own catch-up."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

Hook = Callable[[Session, Any, datetime, Any], None]
_hooks: list[Hook] = []


def when_a_game_ends(hook: Hook) -> Hook:
    if hook not in _hooks:
        _hooks.append(hook)
    return hook


def ended(session: Session, game: Any, now: datetime, outcome: Any = None) -> None:
    """`game` (a GameRow) has just been marked ended: run every hook on it."""
    for hook in list(_hooks):
        hook(session, game, now, outcome)
