"""A change of address (issue 52): the account, its seats, ratings, tokens, preferences and
blocks move to a new address, and mail goes there only.

On /me a signed-in player asks for it: the new address gets a link (signed, an hour long, used
once: changes.open_change), the old one a notice; nothing moves until the link's button is
pressed. The operator's `flask players readdress OLD NEW` moves at once. Either way every table
of the map (personaldata.MAP) is followed by datarows.readdress, and the change is kept
(account_changes, for as long as the account) so that a reply from the old address is
answered once, with where to write now (`answer_once`, asked by service.play.mail.replies),
and then no more, and so that an erasure finds the old address too."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from service.mailwire.outbound.catalogs import _
from service.play import notify, repository
from service.play.services import Services
from service.store.models import AccountChange, GameRow, OutboxRow, Player, Seat
from service.store.statuses import GameStatus, OutboxStatus

from . import datarows
from .addresses import BadAddress, address
from .changes import LINK_LIFETIME, ChangeRefused, letter, open_change
from .personaltokens import UnknownPlayer
from .start import bot_level

#: the letters about a change of address (service.play.mail.letters composes them)
CONFIRM, NOTICE, DONE, MOVED = "readdress_confirm", "readdress_notice", "readdress_done", "moved"


@dataclass(frozen=True)
class Moved:
    player_id: int
    old: str
    new: str


@dataclass(frozen=True)
class ChangeView:
    """What the confirmation page shows before its button is pressed."""
    name: str
    old: str
    new: str


def request(svc: Services, player_id: int, typed: str) -> str:
    """Mail the new address its link and the current one a notice; returns the new address.
    Refused, with nothing sent, for an address that is not one, is the same, or belongs to
    another player."""
    now = svc.clock.now()
    with svc.db.transaction() as session:
        player = session.get(Player, player_id)
        new = _new_address(session, svc, player, typed)
        change = AccountChange(player_id=player.id, kind="readdress", old_email=player.email,
                               new_email=new, created_at=now, expires_at=now + LINK_LIFETIME)
        session.add(change)
        session.flush()
        letter(session, new, CONFIRM, now, change=change.id)
        letter(session, player.email, NOTICE, now, change=change.id)
    return new


def look(svc: Services, token: str) -> ChangeView:
    """The link's page: whose account moves where (a GET changes nothing)."""
    with svc.db.transaction() as session:
        change = open_change(session, svc, "readdress", token)
        player = session.get(Player, change.player_id)
        return ChangeView(player.name, change.old_email, change.new_email or "")


def confirm(svc: Services, token: str) -> Moved:
    """The link's button: the account moves now (refused if the link is spent, too old, or
    the new address was taken meanwhile)."""
    now = svc.clock.now()
    with svc.db.transaction() as session:
        change = open_change(session, svc, "readdress", token, lock=True)
        player = session.get(Player, change.player_id, with_for_update=True)
        if player.email != change.old_email:
            raise ChangeRefused(_("The account's address has changed since this link was "
                                  "sent; nothing more was changed."))
        new = _new_address(session, svc, player, change.new_email or "")
        change.used_at = now
        # the old address's notice says "nothing moves until ...": moot once it has
        session.execute(update(OutboxRow).where(
            OutboxRow.kind == NOTICE, OutboxRow.to_addr == change.old_email,
            OutboxRow.status.in_((OutboxStatus.PENDING, OutboxStatus.HELD)))
            .values(status=OutboxStatus.SKIPPED))
        _move(session, player, new, now)
        moved = Moved(player.id, change.old_email, new)
    return moved


def move(svc: Services, old: str, typed: str) -> Moved:
    """The operator's change of address: at once, the new address told."""
    now = svc.clock.now()
    with svc.db.transaction() as session:
        player = session.scalars(select(Player).where(Player.email == old.strip().lower())
                                 .with_for_update()).first()
        if player is None:
            raise UnknownPlayer(f"No player has the address {old.strip()!r}.")
        if bot_level(player.email):
            raise ChangeRefused(f"{player.email} is a bot, not a person: it has no address "
                                "to change.")
        new = _new_address(session, svc, player, typed)
        change = AccountChange(player_id=player.id, kind="readdress", old_email=player.email,
                               new_email=new, created_at=now, expires_at=now, used_at=now)
        session.add(change)
        session.flush()
        moved = Moved(player.id, player.email, new)
        _move(session, player, new, now)
        letter(session, new, DONE, now, change=change.id)
    return moved


def _new_address(session: Session, svc: Services, player: Player, typed: str) -> str:
    try:
        new = address(typed)
    except BadAddress as exc:
        raise ChangeRefused(exc.detail) from None
    if new == player.email:
        raise ChangeRefused(_("%(address)s is the account's address already.", address=new))
    if new.endswith("@" + svc.urls.domain.lower()):       # (.invalid: address() refuses)
        raise ChangeRefused(_("%(address)s cannot receive mail from Turnpost; give an address "
                              "you read.", address=new))
    if session.scalar(select(Player.id).where(Player.email == new)) is not None:
        raise ChangeRefused(_("%(address)s already belongs to another Turnpost player, and "
                              "two accounts cannot share an address. If that account is yours "
                              "too, sign in with it and erase it (on its page, Erase my "
                              "account), then move this one.", address=new))
    return new


def _move(session: Session, player: Player, new: str, now: datetime) -> list[int]:
    """Every table of the map follows the new address; returns the turn emails queued again
    for a player whose old address had bounced (their mail stopped; the new one gets it)."""
    old, bounced = player.email, player.bounced_at is not None
    datarows.readdress(session, old, new)
    session.refresh(player)
    player.bounced_at = None        # evidence about the old address, not the new one
    if not bounced:
        return []
    games = session.scalars(select(GameRow.id).join(Seat, Seat.game_id == GameRow.id).where(
        Seat.player_id == player.id, Seat.to_act.is_(True),
        GameRow.status == GameStatus.ACTIVE)).all()
    rows = []
    for game_id in games:
        game = repository.game_row(session, game_id)
        for seat in game.seats:
            if seat.player_id == player.id:
                rows.append(notify.queue(session, game, seat.seat, "turn", game.seq, now))
    session.flush()
    return [r.id for r in rows]


def answer_once(session: Session, sender: str, player_id: int, now: datetime,
                in_reply_to: str | None = None) -> int | None:
    """A reply from an address this player moved away from: the one answer it gets, with where
    to write now (the letter `moved`), queued, its row id returned. None when this address was
    never theirs, or was answered already: once only, taken by a conditional UPDATE, so two
    replies at once are answered once."""
    change = session.scalars(select(AccountChange).where(
        AccountChange.kind == "readdress", AccountChange.player_id == player_id,
        AccountChange.old_email == sender.lower(), AccountChange.used_at.is_not(None))
        .order_by(AccountChange.id.desc())).first()
    if change is None:
        return None
    taken = session.execute(update(AccountChange).where(
        AccountChange.player_id == player_id, AccountChange.old_email == change.old_email,
        AccountChange.answered_at.is_(None)).values(answered_at=now)).rowcount
    if not taken:
        return None
    return letter(session, change.old_email, MOVED, now, change=change.id,
                  in_reply_to=in_reply_to).id
