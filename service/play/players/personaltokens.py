"""Personal tokens: a player's bearer tokens for the JSON API, and the secret in their calendar
and feed URLs. A token is random (`tp_` + 32 bytes); only its SHA-256 is stored, so a database
leak hands out no credentials, and a token is shown once, when it is made."""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from service.mailwire.outbound.catalogs import N_, _
from service.play.errors import PlayError
from service.play.services import Services
from service.store.models import ApiToken, Player, Seat

SCOPES = ("api", "feed")
PREFIX = {"api": "tp_", "feed": "tpf_"}


class UnknownPlayer(PlayError):
    title = N_("No such player")


@dataclass(frozen=True)
class Holder:
    """Who a token belongs to."""

    player_id: int
    email: str
    token_id: int


@dataclass(frozen=True)
class TokenLine:
    id: int
    scope: str
    label: str
    created_at: datetime
    revoked_at: datetime | None


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create(svc: Services, email: str, label: str = "", scope: str = "api") -> tuple[int, str]:
    """A new token for the player of `email`: (its id, the token, shown this once)."""
    token = PREFIX[scope] + secrets.token_urlsafe(32)
    with svc.db.transaction() as session:
        player = _player(session, email)
        row = ApiToken(player_id=player.id, token_hash=digest(token), scope=scope,
                       label=label[:100], created_at=svc.clock.now())
        session.add(row)
        session.flush()
        return row.id, token


def revoke(svc: Services, email: str, token_id: int) -> bool:
    """Revoke one of the player's tokens; False if it is not theirs or was revoked already."""
    with svc.db.transaction() as session:
        player = _player(session, email)
        row = session.get(ApiToken, token_id)
        if row is None or row.player_id != player.id or row.revoked_at is not None:
            return False
        row.revoked_at = svc.clock.now()
        return True


def listed(svc: Services, email: str) -> list[TokenLine]:
    with svc.db.transaction() as session:
        player = _player(session, email)
        rows = session.scalars(select(ApiToken).where(ApiToken.player_id == player.id)
                               .order_by(ApiToken.id)).all()
        return [TokenLine(r.id, r.scope, r.label, r.created_at, r.revoked_at) for r in rows]


def holder(svc: Services, token: str, scope: str = "api") -> Holder | None:
    """The player a presented token belongs to, or None (unknown, revoked, other scope)."""
    if not token.startswith(PREFIX[scope]) or len(token) > 100:
        return None
    with svc.db.transaction() as session:
        row = session.scalar(select(ApiToken).where(ApiToken.token_hash == digest(token)))
        if row is None or row.revoked_at is not None or row.scope != scope:
            return None
        return Holder(row.player_id, row.player.email, row.id)


def seat_email(svc: Services, game_id: int, seat: int | None) -> str:
    """The address playing a seat (the token page is reached from that seat's game page)."""
    with svc.db.transaction() as session:
        row = session.get(Seat, (game_id, seat)) if seat is not None else None
        if row is None:
            raise UnknownPlayer(_("That game page belongs to no player."))
        return row.player.email


def _player(session, email: str) -> Player:
    player = session.scalar(select(Player).where(Player.email == email.strip().lower()))
    if player is None:
        raise UnknownPlayer(f"No player has the address {email!r}: a player exists once they "
                            "have a seat in a game.")
    return player
