"""Erasing an account (issue 52): the player's games in progress are resigned, every row of the
map (personaldata.MAP) that names them is deleted or made anonymous, and the address, with every
address that was theirs before, is gone from the database once the goodbye email has been sent.

On /me a signed-in player asks for it and gets a link by email (signed, an hour long, used
once: changes.open_change); its page says what will happen and changes nothing until its button
is pressed. The operator's `flask players erase ADDRESS` erases at once.

In order:

1. `resign`: each game in progress is resigned through the resignation use case, one game at a
   time, each in its own transaction with its after-commit work (emails, bots, a tournament's
   next round), as any resignation. With two players the other wins; with more the seat is
   played by the game's default move from then on (the seat handed to the timeout bot), and
   the game plays on.
2. One transaction: `forming` (a game still forming that they made is called off; their seat
   in another's reads declined), the hooks of the families above (community: ladders and
   tournaments), the map's deletions and anonymous rows (datarows.erase), `anonymize` (the
   players row becomes "former player N": no address, no name, never mailed, so finished games,
   ratings and tournaments still name a player; the seats' holder moves on, so the links in
   their old emails stop acting, and a browser still signed in is signed out), and the
   goodbye email.
3. The relay deletes the goodbye's row once it is sent (service.play.mail.relay). The address
   may sign up again later as a new player."""
from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, or_, select, update
from sqlalchemy.orm import Session

from service.games.contract import english
from service.mailwire.outbound.catalogs import N_, _
from service.play.errors import GameOver
from service.play.services import Services
from service.play.time import deadlines
from service.store.models import (
    AccountChange,
    GameRow,
    Invitation,
    OutboxRow,
    Player,
    Seat,
    SeatChange,
)
from service.store.statuses import GameStatus

from . import datarows
from .addresses import ERASED_DOMAIN, erased
from .changes import LINK_LIFETIME, ChangeRefused, letter, open_change
from .datarows import Who
from .personaltokens import UnknownPlayer
from .readdress import CONFIRM as READDRESS_CONFIRM
from .seatchanges import SeatRefused, resign
from .start import bot_level

CONFIRM, GOODBYE = "erase_confirm", "goodbye"
#: the steps of personaldata.MAP's `Step` entries this module takes
STEPS = ("resign", "forming", "anonymize")

Hook = Callable[[Session, Services, Who, datetime], None]
_HOOKS: list[Hook] = []


def when_a_player_is_erased(hook: Hook) -> Hook:
    """Families above this one register what an erasure means to their own rows (community:
    the ladders close their gap, a tournament withdraws its entrant), run in the erasure's
    transaction before the map's rows are deleted."""
    _HOOKS.append(hook)
    return hook


@dataclass(frozen=True)
class Erased:
    player_id: int
    name: str                    # what the seats show now: "former player N"
    resigned: list[int]          # the games resigned
    goodbye: bool                # a goodbye email was queued


@dataclass(frozen=True)
class EraseView:
    """What the confirmation page shows before its button is pressed."""
    name: str
    email: str
    in_progress: int


def request(svc: Services, player_id: int) -> str:
    """Mail the player the link that erases their account; returns the address mailed."""
    now = svc.clock.now()
    with svc.db.transaction() as session:
        player = session.get(Player, player_id)
        if player.unmailable:
            why = N_("you asked never to be emailed") if player.suppressed else N_("it bounced")
            raise ChangeRefused(_("No mail reaches %(address)s (%(why)s), so the link that "
                                  "confirms an erasure cannot be sent. Ask the service's "
                                  "operator to erase the account.", address=player.email,
                                  why=_(why)))
        change = AccountChange(player_id=player.id, kind="erase", old_email=player.email,
                               created_at=now, expires_at=now + LINK_LIFETIME)
        session.add(change)
        session.flush()
        letter(session, player.email, CONFIRM, now, change=change.id)
        mailed = player.email
    return mailed


def look(svc: Services, token: str) -> EraseView:
    with svc.db.transaction() as session:
        change = open_change(session, svc, "erase", token)
        player = session.get(Player, change.player_id)
        return EraseView(player.name, player.email, len(_in_progress(session, player.id)))


def confirm(svc: Services, token: str) -> Erased:
    with svc.db.transaction() as session:
        change = open_change(session, svc, "erase", token)
        player_id = change.player_id
    return erase_player(svc, player_id)


def erase(svc: Services, addr: str) -> Erased:
    """The operator's erasure of the player of `addr`, at once."""
    with svc.db.transaction() as session:
        player_id = session.scalar(select(Player.id).where(
            Player.email == addr.strip().lower()))
    if player_id is None:
        raise UnknownPlayer(f"No player has the address {addr.strip()!r}.")
    return erase_player(svc, player_id)


def erase_player(svc: Services, player_id: int) -> Erased:
    with svc.db.transaction() as session:
        player = session.get(Player, player_id)
        if player is None or _erased(player):
            raise ChangeRefused(_("This account has been erased already."))
        if bot_level(player.email):
            # one bot player sits at every table of its level and number: nobody's data
            raise ChangeRefused(f"{player.email} is a bot, not a person: it has nothing of "
                                "anyone's to erase.")
        playing = _in_progress(session, player_id)
    resigned = []
    for game_id, seat in playing:           # 1. each a resignation like any other
        try:
            resign(svc, game_id, seat)
            resigned.append(game_id)
        except (GameOver, SeatRefused):
            continue                        # it ended, or they left it, meanwhile
    now = svc.clock.now()
    with svc.db.transaction() as session:   # 2.
        player = session.get(Player, player_id, with_for_update=True)
        if _erased(player):
            raise ChangeRefused(_("This account has been erased already."))
        address = player.email
        mailable = not player.unmailable and not address.endswith(".invalid")
        person = datarows.who(session, player.id)
        _forming(session, person, now)
        for hook in _HOOKS:
            hook(session, svc, person, now)
        _unconfirmed(session, player.id)
        datarows.erase(session, person, _anonymous_address(player.id))
        name = player.name
        _anonymize(player)
        _unnamed(session, person, name, player.name)
        # every link in their old emails stops acting for their seats, as after a take-over
        session.execute(update(Seat).where(Seat.player_id == player.id)
                        .values(holder=Seat.holder + 1))
        ids = [letter(session, address, GOODBYE, now).id] if mailable else []
        erased = Erased(player.id, player.name, resigned, bool(ids))
    return erased


def _erased(player: Player) -> bool:
    return erased(player.email)


def _anonymous_address(player_id: int) -> str:
    return f"erased-{player_id}@{ERASED_DOMAIN}"


def _in_progress(session: Session, player_id: int) -> list[tuple[int, int]]:
    """(game, seat) of each game in progress where the player still plays."""
    return [(g, s) for g, s in session.execute(
        select(Seat.game_id, Seat.seat).join(GameRow, GameRow.id == Seat.game_id).where(
            Seat.player_id == player_id, GameRow.status == GameStatus.ACTIVE,
            Seat.status.not_in(deadlines.OUT)).order_by(Seat.game_id))]


def _forming(session: Session, person: Who, now: datetime) -> None:
    """A game still forming that they made is called off, with its invitations and their
    emails; their seat in another's forming game reads declined, so its maker can give it to
    someone else."""
    made = list(session.scalars(select(GameRow.id).where(
        GameRow.status == GameStatus.FORMING, GameRow.created_by == person.player_id)))
    if made:
        session.execute(delete(OutboxRow).where(OutboxRow.game_id.in_(made)))
        session.execute(delete(Invitation).where(Invitation.game_id.in_(made)))
        session.execute(delete(GameRow).where(GameRow.id.in_(made)))
    theirs = session.scalars(select(Invitation).join(GameRow, GameRow.id == Invitation.game_id)
                             .where(GameRow.status == GameStatus.FORMING,
                                    Invitation.status.in_(("pending", "accepted")),
                                    or_(Invitation.player_id == person.player_id,
                                        Invitation.email.in_(person.addresses))))
    for inv in theirs:
        inv.status, inv.player_id, inv.answered_at = "declined", None, now
    session.flush()


def _unconfirmed(session: Session, player_id: int) -> None:
    """A change of address asked for and never confirmed: its link to the address typed (not
    theirs: never confirmed) goes with the request."""
    for change in session.scalars(select(AccountChange).where(
            AccountChange.player_id == player_id, AccountChange.kind == "readdress",
            AccountChange.used_at.is_(None))):
        session.execute(delete(OutboxRow).where(OutboxRow.kind == READDRESS_CONFIRM,
                                                OutboxRow.to_addr == change.new_email))


def _unnamed(session: Session, person: Who, name: str, anonymous: str) -> None:
    """A take-over's history line names both players as they were then ("Carla took over
    Ben's seat", service.play.players.seatchanges): in the games the player sat in, their old
    display name there becomes the anonymous one. Every other line names seats, not people."""
    if len(name) < 2:
        return                  # a one-letter name would be found inside other words
    games = {g for g, _ in person.seats} | set(session.scalars(select(SeatChange.game_id).where(
        SeatChange.player_id == person.player_id)))
    pattern = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
    for change in session.scalars(select(SeatChange).where(
            SeatChange.game_id.in_(games), SeatChange.kind == "replaced")):
        change.text = _renamed(change.text, lambda words: pattern.sub(anonymous, words))


def _renamed(text: str, rename: Callable[[str], str]) -> str:
    """A seat change's line with `rename` done on its values: a line kept as JSON
    (deadlines.seat_line) is renamed in its parameters, never in its templates (a player
    called "took" is not the "took" of "{new} took over {old}'s seat") nor the JSON's keys,
    and its English made again from them; a line stored as plain text before, in that text."""
    line = deadlines.seat_line(text)
    if "say" not in line:
        return rename(text)

    def values(say: dict) -> dict:
        return dict(say, args={k: values(v) if isinstance(v, dict) else
                               rename(v) if isinstance(v, str) else v
                               for k, v in say["args"].items()})
    say = values(line["say"])
    return deadlines.line_text({"text": english(say["template"], say["args"]), "say": say})


#: the players row's columns an erasure sets; every other column but these two goes back to
#: its default (None when it has none), so a preference added later is erased too
_KEPT = ("id", "created_at")


def _anonymize(player: Player) -> None:
    table = Player.__table__
    for column in table.columns:
        if column.name in _KEPT:
            continue
        default = column.default
        if default is not None and default.is_scalar:
            value = default.arg
        elif column.nullable:
            value = None
        elif column.name in ("email", "name", "handle"):
            value = None          # set below
        else:
            raise RuntimeError(f"players.{column.name} has no default to erase it to: give "
                               "it one, or set it in erasure._anonymize")
        setattr(player, column.key, value)
    player.email = _anonymous_address(player.id)
    player.name = f"former player {player.id}"
    player.handle = f"erased-{secrets.token_hex(6)}"
    player.suppressed = True         # never mailed again
    player.profile_hidden = True
