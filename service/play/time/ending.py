"""Every way a game ends comes through `finish`: the last move (service.play.moves.submit), a game
that ends as it is dealt (service.play.players.start), a resignation or forfeit that leaves one player
(service.play.time.deadlines.close_game, for the per-game sweep and the batched one alike), and a
timeout move the batched sweep plays. The end is recorded and rated in the caller's
transaction, so a game is never ended without its rating, nor rated without ending."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from service.play.community import rate_end


def finish(session: Session, game, now: datetime, *, outcome=None,
           result: dict | None = None) -> None:
    """The game (a GameRow or a record of one) is over: by the engine's `outcome`, or by the
    service's `result` (winners, last, how). Its rated players' ratings change now, once."""
    game.status = "ended"
    if result is not None:
        game.result = result
    rate_end(session, game, now, outcome)
