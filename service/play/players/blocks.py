"""Blocks between players: the blocker takes no invitations from the blocked player, is
never matched with them (challenges, open seats, ladders) and does not see their chat."""
from __future__ import annotations

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from service.play import repository as positions
from service.play.errors import PlayError
from service.play.repository import check_holder
from service.play.services import Services
from service.store.models import Block, Player


class BadBlock(PlayError):
    title = "That player could not be blocked"


def block(svc: Services, blocker_id: int, blocked_id: int) -> bool:
    """True if the block is new (blocking twice changes nothing)."""
    if blocker_id == blocked_id:
        raise BadBlock("You cannot block yourself.")
    with svc.db.transaction() as session:
        if session.get(Player, blocked_id) is None:
            raise BadBlock("There is no such player.")
        if session.get(Block, (blocker_id, blocked_id)) is not None:
            return False
        session.add(Block(blocker_id=blocker_id, blocked_id=blocked_id,
                          created_at=svc.clock.now()))
    return True


def block_seat(svc: Services, game_id: int, by_seat: int, holder: int | None,
               seat: int | None) -> bool:
    """From a game's page: the holder of `by_seat` blocks whoever holds `seat`."""
    with svc.db.transaction() as session:
        game = positions.game_row(session, game_id)
        check_holder(game, by_seat, holder)
        rows = {r.seat: r.player_id for r in game.seats}
        if seat not in rows or seat == by_seat:
            raise BadBlock("There is no other player in that seat of this game.")
        me, them = rows[by_seat], rows[seat]
    return block(svc, me, them)


def unblock(svc: Services, blocker_id: int, blocked_id: int) -> bool:
    with svc.db.transaction() as session:
        row = session.get(Block, (blocker_id, blocked_id))
        if row is None:
            return False
        session.delete(row)
    return True


def blocked_by(session: Session, player_id: int) -> set[int]:
    """The players `player_id` has blocked."""
    return set(session.scalars(select(Block.blocked_id).where(Block.blocker_id == player_id)))


def apart(session: Session, player_id: int) -> set[int]:
    """The players kept apart from `player_id`: blocked by them, or blocking them."""
    rows = session.execute(select(Block.blocker_id, Block.blocked_id).where(
        or_(Block.blocker_id == player_id, Block.blocked_id == player_id))).all()
    return {b if a == player_id else a for a, b in rows}


def kept_apart(session: Session, player_id: int, addrs: list[str]) -> str | None:
    """The first of these addresses whose player is kept apart from `player_id` (an inviter
    may not invite them, and learns only that), or None."""
    if not addrs:
        return None
    apart_ids = apart(session, player_id)
    return next((p.email for p in session.scalars(select(Player).where(Player.email.in_(addrs)))
                 if p.id in apart_ids), None)


def between(session: Session, a: int, b: int) -> bool:
    """Either of the two has blocked the other."""
    return b in apart(session, a)
