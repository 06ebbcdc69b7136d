"""Every way a game ends comes through `finish`: the last move (service.play.moves.submit), a game
that ends as it is dealt (service.play.players.start), a resignation or forfeit that leaves one player
(service.play.time.deadlines.close_game, for the per-game sweep and the batched one alike), and a
timeout move the batched sweep plays. The end is ranked (service.play.ranking: RULINGS P1),
recorded and rated in the caller's transaction (the hooks below: its rating, its ladder, its
tournament), so a game is never ended without them, and every hook reads the same places."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from service.games.contract import Outcome
from service.play import ranking

# What else happens when a game ends, in the transaction that ends it: the community (ratings,
# ladders) sits above the families that end games, so it registers its hooks here as it is
# imported. A hook gets (session, game, now, outcome: the engine's Outcome, or None when the
# service ended the game) and must be idempotent; the game's places are in its `result`
# already (service.play.ranking.of_game reads them).
Hook = Callable[[Session, Any, datetime, Any], None]
_hooks: list[Hook] = []


def when_a_game_ends(hook: Hook) -> Hook:
    if hook not in _hooks:
        _hooks.append(hook)
    return hook


def finish(session: Session, game, now: datetime, *, outcome: Outcome | None = None) -> None:
    """The game (a GameRow or a record of one) is over: by the engine's `outcome`, or, with
    none, by the service, because every seat but one left. Its places are stored in its
    `result` and its rated players' ratings change now, once."""
    game.status = "ended"
    game.result = ranking.result_of(game, outcome)
    if outcome is not None:
        game.outcome = outcome.to_json()    # lists show the result without folding the log
    for seat in game.seats:
        seat.to_act = False                 # nobody is to move in an ended game
    for hook in list(_hooks):
        hook(session, game, now, outcome)
