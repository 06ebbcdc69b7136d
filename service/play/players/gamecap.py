"""A cap on games at once for new players (issue 50, item 6; Board Game Arena's rule): a
player may be in at most TURNPOST_NEW_PLAYER_GAME_CAP games at once, plus one for each game
of theirs that has finished, so a newcomer cannot take on a hundred games and abandon them,
and a player with a history is never held back. 0 turns the cap off.

A game "at once" is one still running in which their seat plays (a seat that resigned or
forfeited no longer counts), or one still forming whose seat they accepted. It is checked
where a player takes on a game of their own accord: making one in the lobby (or a rematch),
accepting an invitation, taking an open seat, accepting a standing challenge. The operator's
`flask start-game` and a tournament's rounds are not held to it: a tournament's entrant
agreed to all its rounds when entering."""
from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from service.play.errors import Refused
from service.play.services import Services
from service.store.models import GameRow, Invitation, Seat
from service.store.statuses import GameStatus, SeatStatus


class GameCapReached(Refused):
    title = "Too many games at once"


def at_once(session: Session, player_id: int) -> int:
    """The games the player is in now: running with their seat playing, or forming with
    their seat accepted."""
    running = select(Seat.game_id).join(GameRow, GameRow.id == Seat.game_id).where(
        Seat.player_id == player_id, GameRow.status == GameStatus.ACTIVE,
        Seat.status.in_((SeatStatus.ACTIVE, SeatStatus.ABSENT)))
    forming = select(Invitation.game_id).join(GameRow, GameRow.id == Invitation.game_id).where(
        Invitation.player_id == player_id, Invitation.status == "accepted",
        GameRow.status == GameStatus.FORMING)
    return session.scalar(select(func.count()).select_from(
        running.union(forming).subquery())) or 0


def finished(session: Session, player_id: int) -> int:
    """The games of theirs that have ended, however they ended."""
    return session.scalar(select(func.count(func.distinct(Seat.game_id)))
                          .join(GameRow, GameRow.id == Seat.game_id)
                          .where(Seat.player_id == player_id,
                                 GameRow.status == GameStatus.ENDED)) or 0


def check(session: Session, svc: Services, player_id: int, *, you: bool = True) -> None:
    """Refuse one more game to a player at their cap, saying why and when it lifts.
    `you`: the refusal speaks to that player (False: about them, to whoever asked)."""
    base = svc.settings.NEW_PLAYER_GAME_CAP
    if not base:
        return
    done = finished(session, player_id)
    cap, now = base + done, at_once(session, player_id)
    if now < cap:
        return
    who, has = ("You are", "you have") if you else ("That player is", "they have")
    raise GameCapReached(
        f"{who} in {now} games at once, the most allowed: a player may be in {base} games "
        f"at once, plus one for each game finished ({has} finished {done}). It lifts as "
        "soon as one of those games ends (each finished game also allows one more for "
        "good); nothing was changed.")
