"""What matching reads of a player: their rating in a game and their reliability
(community.ratings, community.activity), a game's rated flag and the start option for it."""
from __future__ import annotations

from sqlalchemy.orm import Session

from .activity import activity
from .ratings import player_rater, standing

#: a player with no rating yet is matched as a newcomer: the ratings' starting point
NEWCOMER_RATING = 1500


def rating_of(session: Session, player_id: int, kind: str) -> float | None:
    """The player's rating in the game, None before their first rated game."""
    found = standing(session, kind, player_rater(player_id))
    return found.rating if found is not None else None


def reliability_of(session: Session, player_id: int) -> float | None:
    """The share (0..1) of their turns moved before the deadline, None before any turn."""
    return activity(session, player_id).reliability


def game_rated(game) -> bool:
    """Whether a game counts for the ratings (a game is rated unless made unrated)."""
    return bool(getattr(game, "rated", True))


def rated_option(rated: bool) -> dict:
    """The start option that makes a game rated or not."""
    return {"rated": "on" if rated else "off"}
