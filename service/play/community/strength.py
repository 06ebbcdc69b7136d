"""The seam to the ratings: a player's rating in a game and their reliability, as matching
reads them. The ratings (community.ratings, community.activity) are built beside this
family; until they are merged these read nothing, and every player stands at the newcomer's
rating with no record of reliability.

When merged: `rating_of` is `ratings.standing(session, kind, player_rater(id)).rating`
(None before a first rated game), `reliability_of` is `activity(session, id).reliability`."""
from __future__ import annotations

from sqlalchemy.orm import Session

#: a player with no rating yet is matched as a newcomer: the ratings' starting point
NEWCOMER_RATING = 1500


def rating_of(session: Session, player_id: int, kind: str) -> float | None:
    """The player's rating in the game, None before their first rated game."""
    return None


def reliability_of(session: Session, player_id: int) -> float | None:
    """The share (0..1) of their turns moved before the deadline, None before any turn."""
    return None


def game_rated(game) -> bool:
    """Whether a game counts for the ratings (the ratings add `games.rated`; a game is rated
    unless made unrated)."""
    return bool(getattr(game, "rated", True))


def rated_option(rated: bool) -> dict:
    """The start option that makes a game rated or not (the ratings read `rated=`); nothing
    until they are merged, since the engines refuse options they do not know."""
    return {}
