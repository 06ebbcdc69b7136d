"""`flask ratings rebuild [GAME]`: the ratings made again from the games' logs, in the order
they were first made (the changes' ids; games that ended before ratings existed first, by the
time of their last event), so the numbers equal those the games' ends made one by one.

A game that ended before its places were stored (service.play.ranking, RULINGS P1) is ranked
again first, from its log and its seats' leaving order, and its result stored: after a
rebuild its text, its tournament points and its ratings say the same."""
from __future__ import annotations

from sqlalchemy import func, select

from service.store.models import EventRow, GameRow, RatingChange

from .. import ranking, repository
from ..services import Services
from . import ratings


def rebuild(svc: Services, kind: str | None = None) -> int:
    """Rebuild the ratings of one game (kind), or of all; how many games were rated."""
    with svc.db.transaction() as session:
        made = dict(session.execute(select(RatingChange.game_id, func.min(RatingChange.id))
                                    .group_by(RatingChange.game_id)).all())
        when = dict(session.execute(select(RatingChange.game_id,
                                           func.min(RatingChange.created_at))
                                    .group_by(RatingChange.game_id)).all())
        query = select(GameRow).where(GameRow.status == "ended", GameRow.rated.is_(True))
        if kind is not None:
            query = query.where(GameRow.kind == kind)
        games = session.scalars(query).all()
        last = dict(session.execute(
            select(EventRow.game_id, func.max(EventRow.created_at))
            .where(EventRow.game_id.in_([g.id for g in games]))
            .group_by(EventRow.game_id)).all()) if games else {}
        ratings.forget(session, [kind] if kind is not None else None)
        session.flush()

        def order(game):
            if game.id in made:
                return (1, made[game.id], game.created_at, game.id)
            return (0, 0, last.get(game.id) or game.created_at, game.id)

        rated = 0
        for game in sorted(games, key=order):
            if not (game.result or {}).get("places"):
                pos = repository.load(session, svc.states, game.id)
                game.result = ranking.result_of(game, pos.engine.outcome(pos.state))
            now = when.get(game.id) or last.get(game.id) or game.created_at
            rated += ratings.rate_end(session, game, now)
    return rated
