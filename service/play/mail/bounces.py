"""Bounces (VERP): every email goes out with its own return path `bounce+<message id>@domain`,
so a delivery status notification names the email that failed without our trusting what the
report itself says; flufl.bounce reads the report (DSN or any of the formats it knows). A hard
bounce mutes that address everywhere: no game, invitation or sign-in mail goes to it again,
and its tables are told on the game page and in their next email."""
from __future__ import annotations

import email
import re
from collections.abc import Iterable

from flufl.bounce import all_failures
from sqlalchemy import bindparam, or_, select

from service.mailwire.inbound.parse import InboundMail
from service.mailwire.outbound.catalogs import N_
from service.play.players import default_name
from service.play.services import Services
from service.play.time import mailholds
from service.store.models import Invitation, OutboxRow, Player, refuses_mail
from service.store.statuses import InboundStatus

_BOUNCE = re.compile(r"^bounce\+([a-z0-9.]+)@(.+)$")


def token_of(mail: InboundMail, domain: str) -> str | None:
    """The VERP token when the message was sent to one of our bounce addresses."""
    for addr in mail.recipients:
        match = _BOUNCE.match(addr.strip().lower())
        if match and match.group(2) == domain.strip().lower():
            return match.group(1)
    return None


def handle(svc: Services, raw: bytes, token: str) -> tuple[str, str]:
    """(status, detail) for the stored inbound row."""
    _temporary, permanent = all_failures(email.message_from_bytes(raw))
    now = svc.clock.now()
    with svc.db.transaction() as session:
        row = session.scalars(select(OutboxRow).where(OutboxRow.message_id == token)).first()
        if row is None:
            return InboundStatus.IGNORED, "a bounce for no email of ours"
        if not permanent:
            return InboundStatus.IGNORED, f"temporary failure for outbox row {row.id}"
        mute_address(session, row.to_addr, now)
        if row.kind == "turn" and row.game_id is not None:   # they never got the turn
            mailholds.hold(session, svc, row.game_id, row.seat, now, N_("it bounced"))
    return "bounced", f"hard bounce of outbox row {row.id}: its address is muted"


def mute_address(session, address: str, now) -> None:
    """The address is dead (a hard bounce, or the relay's refusals on two days): no mail goes
    to it again, and its pending invitations are declined."""
    addr = address.lower()
    player = session.scalars(select(Player).where(Player.email == addr)).first()
    if player is None:     # an invitation to someone who never answered
        player = Player(email=addr, name=default_name(addr), created_at=now)
        session.add(player)
    if player.bounced_at is None:
        player.bounced_at = now
    for inv in session.scalars(select(Invitation).where(Invitation.email == addr,
                                                        Invitation.status == "pending")):
        inv.status, inv.answered_at = "declined", now   # the creator sees "declined" only


def unmailable(session, addrs: Iterable[str], players: Iterable = ()) -> set[str]:
    """The relay's last look before sending rows queued before their address bounced (or
    asked never to be mailed): which of these addresses (lower case) not to mail, in one
    statement for a whole batch of rows. `players`: players read already (a group's seats'
    records): their addresses are answered from them, and only the others are asked."""
    lowered = {a.lower() for a in addrs}
    known = {p.email: refuses_mail(p) for p in players if p is not None and p.email}
    dead = {a for a in lowered if known.get(a)}
    asked = lowered - known.keys()
    if asked:
        dead |= set(session.scalars(_UNMAILABLE, {"addrs": sorted(asked)}))
    return dead


# built once: the relay asks it for every group of rows
_PLAYERS = Player.__table__
_UNMAILABLE = select(_PLAYERS.c.email).where(
    _PLAYERS.c.email.in_(bindparam("addrs", expanding=True)),
    or_(_PLAYERS.c.suppressed.is_(True), _PLAYERS.c.bounced_at.is_not(None)))
