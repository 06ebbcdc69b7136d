"""Every way a game ends comes through `finish`: the last move (moves.submit), a game that
ends as it is dealt (players.start), a resignation or forfeit that leaves one player
(time.deadlines.close_game, for the per-game sweep and the batched one alike), and a timeout
move the batched sweep plays. A tournament's game marks its tournament due in the same
transaction, and once that commits the services kick the tournament's next round
(Services: the database's `committed` hook)."""
from __future__ import annotations

from sqlalchemy import update
from sqlalchemy.orm import Session

from service.store.models import Tournament

#: session.info's key: the tournaments whose games ended in this transaction
TOURNAMENTS_DUE = "tournaments_due"


def finish(session: Session | None, game, *, result: dict | None = None) -> None:
    """The game (a GameRow or a record of one) is over: by the engine's outcome, or by the
    service's `result` (winners, last, how)."""
    game.status = "ended"
    if result is not None:
        game.result = result
    tournament = getattr(game, "tournament_id", None)
    if tournament is not None and session is not None:
        session.execute(update(Tournament).where(Tournament.id == tournament).values(due=True))
        session.info.setdefault(TOURNAMENTS_DUE, set()).add(tournament)
