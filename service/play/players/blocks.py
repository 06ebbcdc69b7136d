"""Blocks between players: the two are kept apart both ways. Neither sees the other's chat,
they are never matched (challenges, open seats, ladders), and neither is seated by the
other's invitation. The blocked player is never told: what they meet is what anyone meets
whose invitation was not accepted, or who came to a table just taken. Only the blocker, who
knows, hears of their own block (inviting the player they blocked is refused, naming it)."""
from __future__ import annotations

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from service.mailwire.outbound.catalogs import N_, _
from service.play import repository
from service.play.errors import PlayError
from service.play.repository import check_holder
from service.play.services import Services
from service.store.models import Block, Player


class BadBlock(PlayError):
    title = N_("That player could not be blocked")


def block(svc: Services, blocker_id: int, blocked_id: int) -> bool:
    """True if the block is new (blocking twice changes nothing)."""
    if blocker_id == blocked_id:
        raise BadBlock(_("You cannot block yourself."))
    with svc.db.transaction() as session:
        if session.get(Player, blocked_id) is None:
            raise BadBlock(_("There is no such player."))
        if session.get(Block, (blocker_id, blocked_id)) is not None:
            return False
        session.add(Block(blocker_id=blocker_id, blocked_id=blocked_id,
                          created_at=svc.clock.now()))
    return True


def block_seat(svc: Services, game_id: int, by_seat: int, holder: int | None,
               seat: int | None) -> bool:
    """From a game's page: the holder of `by_seat` blocks whoever holds `seat`."""
    with svc.db.transaction() as session:
        game = repository.game_row(session, game_id)
        check_holder(game, by_seat, holder)
        rows = {r.seat: r.player_id for r in game.seats}
        if seat not in rows or seat == by_seat:
            raise BadBlock(_("There is no other player in that seat of this game."))
        me, them = rows[by_seat], rows[seat]
    return block(svc, me, them)


def listed(svc: Services, blocker_id: int) -> list[tuple[int, str]]:
    """The players `blocker_id` has blocked, (id, display name), by name: /me lists them,
    each with its Unblock button."""
    with svc.db.reading() as session:
        return listed_in(session, blocker_id)


def listed_in(session, blocker_id: int) -> list[tuple[int, str]]:
    """`listed` in the caller's unit of work (/me reads its parts in one)."""
    return [tuple(r) for r in session.execute(
        select(Player.id, Player.name).join(Block, Block.blocked_id == Player.id)
        .where(Block.blocker_id == blocker_id).order_by(Player.name, Player.id))]


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


def blocked_among(session: Session, player_id: int, addrs: list[str]) -> str | None:
    """The first of these addresses whose player `player_id` has blocked (an inviter may not
    invite them, and is told why: it is their own doing), or None."""
    found = _among(session, addrs, blocked_by(session, player_id))
    return next((addr for addr in addrs if addr in found), None)


def blocking(session: Session, player_id: int, addrs: list[str]) -> set[str]:
    """Those of these addresses whose player has blocked `player_id`: an invitation from
    `player_id` reads "declined" at once, as one to an address that asked for no mail does,
    and nothing is sent to them."""
    blockers = set(session.scalars(select(Block.blocker_id)
                                   .where(Block.blocked_id == player_id)))
    return _among(session, addrs, blockers)


def _among(session: Session, addrs: list[str], ids: set[int]) -> set[str]:
    if not addrs or not ids:
        return set()
    return {p.email for p in session.scalars(select(Player).where(Player.email.in_(addrs)))
            if p.id in ids}


def between(session: Session, a: int, b: int) -> bool:
    """Either of the two has blocked the other."""
    return b in apart(session, a)
