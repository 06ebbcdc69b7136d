"""Games with consent (docs/architecture.md: nobody is mailed about a game before they accept). A game
made in the lobby forms first: the creator's seat is taken, each invited address gets one
invitation email and nothing else, open seats wait for any signed-in player. When every seat
has accepted, the game is dealt (start.deal) and the first turn emails go out.

The creator only ever learns "declined": whether an address declined, asked never to be
mailed, or bounced is that address's business."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.display.seatview import waiting_for
from service.games import registry
from service.games.contract import OptionError
from service.linking.signer import TokenError
from service.mailwire.outbound.catalogs import N_, _, ngettext
from service.play import notify, readpolicy, repository, webhooks
from service.play.errors import PlayError, reason
from service.play.readpolicy import Reader
from service.play.services import Services
from service.play.time import ClockError, calendar, deadlines, extensions
from service.store.models import GameRow, Invitation, OutboxRow, Player, Seat
from service.store.statuses import GameStatus

from . import blocks, gamecap, start
from .addresses import BadAddress, address, default_name

INVITATION_LIFETIME = timedelta(days=7)
MAX_INVITES = 12            # more addresses than any game has seats is not a table
# Options that fix the cards' order or the deal: only the operator's CLI may set them (whoever
# starts a game with them would know every hand), and a rematch never copies them.
TABLE_ONLY = frozenset({"deck", "roots", "aces", "dealer", "moon_set"})
#: what joining answers for a number that is no game, for a game without an open seat any
#: more, and for a table where someone has blocked the joiner (who is told nothing of it)
NO_OPEN_SEAT = N_("There is no open seat at a game with that number; the open seats are "
                  "listed on Open seats.")
#: an answered invitation's status, as a refusal to answer it again names it
ANSWERED = {"accepted": N_("accepted"), "declined": N_("declined"), "replaced": N_("replaced")}
#: added to a refusal of the invitations' form: none of them went out
NOTHING_SENT = N_("%(why)s Nothing was sent.")


class BadInvitation(PlayError):
    title = N_("The game could not be made")


class InvitationClosed(PlayError):
    title = N_("This invitation cannot be used")


@dataclass(frozen=True)
class Formed:
    game_id: int
    public_id: str
    outbox_ids: list[int]
    started: bool = False


def create_game(svc: Services, creator_id: int, kind: str, invitees: list[str], *,
                open_seats: int = 0, options: dict[str, Any] | None = None,
                public: bool = True, rematch_of: int | None = None) -> Formed:
    with svc.db.transaction() as session:
        return form_game(session, svc, creator_id, kind, invitees, open_seats=open_seats,
                         options=options, public=public, rematch_of=rematch_of)


def form_game(session: Session, svc: Services, creator_id: int, kind: str,
              invitees: list[str], *, open_seats: int = 0,
              options: dict[str, Any] | None = None, public: bool = True,
              rematch_of: int | None = None, quiet: bool = False) -> Formed:
    """`create_game` in the caller's transaction (its mail follows that commit).
    `quiet`: the creator's seat starts muted if the game is dealt at once (a table of bots:
    a rematch of a practice game, which mails nobody)."""
    engine = _engine(kind)
    if len(invitees) > MAX_INVITES:
        raise BadInvitation(_("That is %(n)d addresses; a table has at most %(most)d seats. "
                              "Nothing was sent.", n=len(invitees), most=max(engine.seats)))
    # "bot", "bot:easy", "bot:normal" seat a bot: it accepts at once and is never mailed
    try:
        bots = {n: e for n, e in enumerate(
            start.bot_entries([start.parse_entry(a, svc.urls.domain) if start.is_bot_entry(a)
                               else start.Entry(a, "") for a in invitees])) if e.bot}
    except PlayError as exc:
        raise BadInvitation(exc.detail) from None
    addrs = [_address(a) for n, a in enumerate(invitees) if n not in bots]
    seats = 1 + len(invitees) + open_seats
    asked = _("%(seats)d (you, %(invited)d invited, %(open)d open)", seats=seats,
              invited=len(invitees), open=open_seats)
    if not 0 <= open_seats <= max(engine.seats):
        raise BadInvitation(_("%(game)s is for %(players)s; you asked for %(asked)s.",
                              game=engine.title, players=_wording(engine.seats), asked=asked))
    try:
        # clock=, on_timeout=, rest_days= and extensions= are the service's options, not the engine's
        rest_days = calendar.game_rest_days(dict(options or {}))
        options, allowed_extensions = extensions.read_option(dict(options or {}))
        options, clock, on_timeout = deadlines.read_options(options)
        options, rated = start.read_rated(options)     # the service's option too
        # the count in the chosen game's own words, and the variant a count needs (M21)
        options = start.fit_seats(engine, seats, options, asked)
    except OptionError as exc:
        raise BadInvitation(reason(exc)) from None
    except ClockError as exc:
        raise BadInvitation(str(exc)) from None
    except start.BadStart as exc:
        raise BadInvitation(exc.detail) from None
    now = svc.clock.now()
    creator = session.get(Player, creator_id)
    gamecap.check(session, svc, creator_id)
    if len(set(addrs + [creator.email])) != seats - open_seats - len(bots):
        raise BadInvitation(_("Each seat needs a different address (and yours is taken by "
                              "you). Nothing was sent."))
    _refuse_blocked(session, creator_id, addrs)
    silent = blocks.blocking(session, creator_id, addrs)
    game = start.new_game_row(session, engine, kind, options, GameStatus.FORMING, now,
                              created_by=creator_id, public=public, rematch_of=rematch_of,
                              clock=clock, on_timeout=on_timeout, rated=rated,
                              rest_days=rest_days, extensions=allowed_extensions)
    session.add(Invitation(game_id=game.id, seat=0, email=creator.email,
                           player_id=creator_id, status="accepted", created_at=now,
                           answered_at=now))
    people = iter(addrs)
    mails = []
    for seat, n in enumerate(range(len(invitees)), start=1):
        if n in bots:
            bot = start.find_player(session, bots[n].addr, bots[n].name, now)
            session.add(Invitation(game_id=game.id, seat=seat, email=bot.email,
                                   player_id=bot.id, status="accepted", created_at=now,
                                   answered_at=now))
        else:
            mails.append(_invite(session, svc, game, seat, next(people), now, silent))
    for seat in range(1 + len(invitees), seats):
        session.add(Invitation(game_id=game.id, seat=seat, status="open", created_at=now))
    session.flush()
    # the creator and bots only: a table of bots is dealt at once
    outcome, dealt = _maybe_deal(session, svc, game, quiet={0} if quiet else set())
    return Formed(game.id, game.public_id, [m.id for m in mails if m is not None] + dealt,
                  started=outcome == "started")


def _refuse_blocked(session: Session, creator_id: int, addrs: list[str]) -> None:
    """A player the creator blocked is not invited: refused before anything is made, naming
    the creator's own block. (One who blocked the creator is invited and reads "declined" at
    once, with no email: `_invite`. Refusing that would tell the creator of the block.)"""
    blocked = blocks.blocked_among(session, creator_id, addrs)
    if blocked:
        raise BadInvitation(_("You have blocked %(blocked)s, so you cannot invite them; "
                              "unblock them on /me first. Nothing was sent.", blocked=blocked))


@dataclass(frozen=True)
class Answered:
    """What an answer did: "accepted", "started" (this acceptance completed the table) or
    "declined"; once started, the seat's own game page, and whether the game waits on it
    now or on whom it waits (the others' first turn emails go to them, not to this seat)."""
    outcome: str
    game_link: str = ""
    your_move: bool = False
    waiting_for: str = ""


def answer(svc: Services, token: str, choice: str) -> Answered:
    """accept | decline | never, from the invitation email's links."""
    invitation_id, game_id = read_token(svc, token)
    now = svc.clock.now()
    ids: list[int] = []
    answered = None
    with svc.db.transaction() as session:
        game = repository.game_row(session, game_id, lock=True)
        inv = _open_invitation(session, invitation_id, game_id, now)
        player = session.scalars(select(Player).where(Player.email == inv.email)).first()
        if player is None:
            player = Player(email=inv.email, name=default_name(inv.email), created_at=now)
            session.add(player)
            session.flush()
        if choice == "accept":
            gamecap.check(session, svc, player.id)
        inv.answered_at = now
        if choice == "accept":
            inv.status, inv.player_id = "accepted", player.id
            outcome, ids = _maybe_deal(session, svc, game)
            if outcome == "started":
                answered = _seat_news(session, svc, game, inv.seat)
        else:
            inv.status = "declined"
            outcome = "declined"
            if choice == "never":
                never_mail(session, player, now)
    return answered or Answered(outcome)


def never_mail(session: Session, player: Player, now) -> None:
    """The address asked never to be mailed again (a link in any invitation): every table
    still waiting on it hears "declined" too. Other families decline their own (tournaments)."""
    player.suppressed = True
    for other in session.scalars(select(Invitation).where(
            Invitation.email == player.email, Invitation.status == "pending")):
        other.status, other.answered_at = "declined", now


def _seat_news(session: Session, svc: Services, game: GameRow, seat: int) -> Answered:
    """A dealt game as one seat sees it: its page, and whose move it is."""
    pos = repository.load(session, svc.states, game.id)
    acting = sorted(pos.engine.to_act(pos.state)) if game.status != GameStatus.ENDED else []
    row = next(s for s in game.seats if s.seat == seat)
    return Answered("started", svc.urls.game_path(game.id, seat, row.holder),
                    your_move=seat in acting,
                    waiting_for=waiting_for([s.player.name for s in game.seats], acting, seat))


def read_token(svc: Services, token: str) -> tuple[int, int]:
    try:
        claims = svc.urls.signer.loads("invite", token)
    except TokenError as exc:
        raise InvitationClosed(exc.detail) from None
    if claims.mark is None or not str(claims.mark).isdigit():
        raise InvitationClosed(N_("This is not an invitation link."))
    return int(claims.mark), claims.game


@dataclass(frozen=True)
class InvitationView:
    inviter: str
    title: str
    seats: int
    status: str


def look(svc: Services, token: str) -> InvitationView:
    """What an invitation link's page shows before anything is pressed (a GET changes
    nothing: mail scanners follow links)."""
    invitation_id, game_id = read_token(svc, token)
    with svc.db.transaction() as session:
        inv = session.get(Invitation, invitation_id)
        game = session.get(GameRow, game_id)
        if inv is None or game is None or inv.game_id != game_id:
            raise InvitationClosed(N_("This invitation is not one of ours."))
        creator = session.get(Player, game.created_by) if game.created_by else None
        count = len(_seats(session, game_id))
        expired = inv.expires_at is not None and svc.clock.now() > inv.expires_at
        status = "expired" if inv.status == "pending" and expired else inv.status
        return InvitationView(creator.name if creator else "Someone",
                              registry.title(game.kind, game.options), count, status)


def refill(svc: Services, creator_id: int, game_id: int, seat: int, typed: str) -> Formed:
    """The creator gives a declined seat to another address, or to a bot (`bot`,
    `bot:easy`, `bot:normal`), which takes it at once."""
    bot = _bot_for(svc, typed) if start.is_bot_entry(typed) else None
    addr = bot.addr if bot else _address(typed)
    now = svc.clock.now()
    with svc.db.transaction() as session:
        # its maker learns why not (the game has started); to anyone else it does not exist
        game = readpolicy.admit(lambda: repository.game_row(session, game_id, lock=True),
                                Reader.player(creator_id), readpolicy.fills_seats)
        if game.status != GameStatus.FORMING:
            raise BadInvitation(_("This game has started: its seats can be given to someone "
                                  "else only before it starts."))
        current = {i.seat: i for i in _seats(session, game_id)}
        inv = current.get(seat)
        if inv is None or not declined(inv, now):
            raise BadInvitation(_("Only a declined seat can be given to someone else."))
        if bot is not None:
            taken = {i.email for i in current.values()}
            n = 1
            while addr in taken:       # a second bot of that level at this table
                n += 1
                addr = f"bot-{bot.bot}-{n}@bots.invalid"
        elif addr in {i.email for i in current.values()}:
            raise BadInvitation(_("That address already has a seat at this table."))
        else:
            _refuse_blocked(session, creator_id, [addr])
        inv.status = "replaced"
        if bot is not None:
            player = start.find_player(session, addr, f"{bot.bot.title()} bot {n}", now)
            session.add(Invitation(game_id=game.id, seat=seat, email=addr, player_id=player.id,
                                   status="accepted", created_at=now, answered_at=now))
            session.flush()
            outcome, ids = _maybe_deal(session, svc, game)
        else:
            row = _invite(session, svc, game, seat, addr, now,
                          blocks.blocking(session, creator_id, [addr]))
            outcome, ids = "invited", [row.id] if row is not None else []
        session.flush()
        return Formed(game.id, game.public_id, ids, started=outcome == "started")


def _bot_for(svc: Services, typed: str) -> start.Entry:
    try:
        return start.bot_entries([start.parse_entry(typed, svc.urls.domain)])[0]
    except PlayError as exc:
        raise BadInvitation(exc.detail) from None


def join_open_seat(svc: Services, player_id: int, game_id: int) -> str:
    """A signed-in player takes the first open seat: "joined" or "started"."""
    with svc.db.transaction() as session:
        outcome, _ids = take_open_seat(session, svc, player_id, game_id)
    return outcome


def take_open_seat(session: Session, svc: Services, player_id: int,
                   game_id: int) -> tuple[str, list[int]]:
    """`join_open_seat` in the caller's transaction: ("joined" or "started", the outbox ids
    queued). The game row is locked, so one seat is taken once. A game with no open seat is
    shown only to those at its table (readpolicy.sees_open_seat): to anyone else it answers as
    a number that is no game."""
    game = readpolicy.found(lambda: repository.game_row(session, game_id, lock=True),
                            NO_OPEN_SEAT)
    seats = _seats(session, game_id)
    free = next((i for i in seats if i.status == "open"), None)
    player = session.get(Player, player_id)
    at_table = player.email in {i.email for i in seats if i.status in ("accepted", "pending")}
    if not (at_table or readpolicy.is_player(game, Reader.player(player_id))
            or readpolicy.sees_open_seat(game, free is not None)):
        raise readpolicy.hidden(NO_OPEN_SEAT)
    if game.status != "forming" or free is None:
        raise BadInvitation(_(NO_OPEN_SEAT))
    if at_table:
        raise BadInvitation(_("You already have a seat at this table."))
    gamecap.check(session, svc, player_id)
    seated = {i.player_id for i in seats if i.player_id}
    mine = blocks.blocked_by(session, player_id) & seated
    if mine:
        raise BadInvitation(_("You have blocked %(name)s, who plays at this table, so you "
                              "cannot join it (unblock them on /me first).",
                              name=session.get(Player, min(mine)).name))
    if blocks.apart(session, player_id) & seated:
        # a player there blocked this one: as a table just filled, which a stranger to it
        # cannot tell from no game at all (readpolicy), telling nothing of the block
        raise readpolicy.hidden(NO_OPEN_SEAT)
    free.email, free.player_id, free.status, free.answered_at = \
        player.email, player.id, "accepted", svc.clock.now()
    outcome, ids = _maybe_deal(session, svc, game)
    return ("started" if outcome == "started" else "joined"), ids


@dataclass(frozen=True)
class OpenGame:
    game_id: int
    title: str
    creator: str
    taken: int
    seats: int


def open_games(svc: Services) -> list[OpenGame]:
    with svc.db.transaction() as session:
        games = session.scalars(select(GameRow).where(GameRow.status == GameStatus.FORMING)
                                .order_by(GameRow.id.desc()).limit(100)).all()
        out = []
        for game in games:
            seats = _seats(session, game.id)
            if readpolicy.sees_open_seat(game, any(i.status == "open" for i in seats)):
                creator = session.get(Player, game.created_by) if game.created_by else None
                out.append(OpenGame(game.id, registry.title(game.kind, game.options),
                                    creator.name if creator else "Someone",
                                    sum(i.status == "accepted" for i in seats), len(seats)))
        return out


@dataclass(frozen=True)
class Rematch:
    """A finished game's rematch as the player who pressed for it finds it."""
    game_id: int
    made: bool                  # False: offered before (another press, or another player)
    started: bool               # dealt already (a table of bots is dealt at once)
    link: str = ""              # the asker's seat page once dealt; their invitation's answer
    #                             page while they have not answered it; "" otherwise
    answered: bool = True       # the asker has accepted (or made) it


def rematch(svc: Services, game_id: int, seat: int) -> Rematch:
    """The same table, a new game of the same kind and options (a fixed deal excepted); the
    seat that asks sits first, the other people are invited and accept like any invitation,
    and each bot seat gets a bot of its level again. One rematch per game: a second press
    (a double click, or another player of the table) finds the one offered and makes and
    sends nothing."""
    with svc.db.transaction() as session:
        # under the finished game's lock, so two presses at once cannot both make one
        game = repository.game_row(session, game_id, lock=True)
        if game.status != GameStatus.ENDED:
            raise BadInvitation(_("A rematch is offered once a game has ended."))
        me = next((s for s in game.seats if s.seat == seat), None)
        if me is None:
            raise BadInvitation(_("Only a player of that game can ask for a rematch."))
        offered = session.scalars(select(GameRow).where(GameRow.rematch_of == game_id)
                                  .order_by(GameRow.id)).first()
        if offered is not None:
            return _rematch_for(session, svc, offered, me.player, made=False)
        others = []
        for s in sorted(game.seats, key=lambda s: s.seat):
            if s.seat != seat:
                level = start.bot_level(s.player.email)     # a bot seat stays that bot
                others.append(f"bot:{level}" if level else s.player.email)
        options = {k: v for k, v in game.options.items() if k not in TABLE_ONLY}
        options["rated"] = "on" if game.rated else "off"     # a practice game's stays unrated
        if game.clock:                       # the same time control too
            options.update(clock=game.clock, on_timeout=game.on_timeout or "bot")
        # a practice seat that was never mailed (muted) stays so
        formed = form_game(session, svc, me.player_id, game.kind, others, options=options,
                           public=game.public, rematch_of=game_id, quiet=me.muted)
        return _rematch_for(session, svc, session.get(GameRow, formed.game_id), me.player,
                            made=True)


def _rematch_for(session: Session, svc: Services, game: GameRow, player: Player, *,
                 made: bool) -> Rematch:
    session.flush()
    session.refresh(game)
    if game.status != GameStatus.FORMING:
        mine = next((s for s in game.seats if s.player_id == player.id), None)
        link = svc.urls.game_path(game.id, mine.seat, mine.holder) if mine is not None else ""
        return Rematch(game.id, made, True, link)
    inv = next((i for i in _seats(session, game.id)
                if i.player_id == player.id or i.email == player.email), None)
    if inv is not None and inv.status == "pending" and not declined(inv, svc.clock.now()):
        return Rematch(game.id, made, False,
                       svc.urls.invitation_path(game.id, inv.seat, inv.id, "accept"),
                       answered=False)
    return Rematch(game.id, made, False)


# -- inside the transaction -------------------------------------------------------------------

def _invite(session: Session, svc: Services, game: GameRow, seat: int, addr: str,
            now, silent: set[str] = frozenset()) -> OutboxRow | None:
    """One invitation row and its one email. An address that asked never to be mailed (or
    bounced), or one of `silent` (its player blocked the creator), is not mailed: its seat
    reads "declined", as if it had said no."""
    player = session.scalars(select(Player).where(Player.email == addr)).first()
    unmailable = (player is not None and player.unmailable) or addr in silent
    inv = Invitation(game_id=game.id, seat=seat, email=addr,
                     status="declined" if unmailable else "pending", created_at=now,
                     expires_at=now + INVITATION_LIFETIME, answered_at=now if unmailable else None)
    session.add(inv)
    session.flush()
    if unmailable:
        return None
    # the invitee's webhooks told too, when the address is a player's who keeps any
    webhooks.invited(session, addr, game.id,
                     f"{registry.title(game.kind, game.options)} game {game.id}", now)
    return notify.letter(session, addr, "invitation", {"invitation": inv.id}, now,
                         game_id=game.id)


def declined(inv: Invitation, now) -> bool:
    """Declined, or never answered in time: to the creator both are "declined"."""
    expired = inv.status == "pending" and inv.expires_at is not None and now > inv.expires_at
    return inv.status == "declined" or expired


def _open_invitation(session: Session, invitation_id: int, game_id: int, now) -> Invitation:
    inv = session.get(Invitation, invitation_id)
    if inv is None or inv.game_id != game_id:
        raise InvitationClosed(N_("This invitation is not one of ours."))
    if inv.status in ("accepted", "declined", "replaced"):
        raise InvitationClosed(_("This invitation was answered already (%(status)s); nothing "
                                 "was changed.", status=_(ANSWERED[inv.status])))
    if inv.status != "pending" or (inv.expires_at is not None and now > inv.expires_at):
        raise InvitationClosed(N_("This invitation has expired; ask the player who invited "
                                  "you for a new one."))
    return inv


def _maybe_deal(session: Session, svc: Services, game: GameRow,
                quiet: set[int] | None = None) -> tuple[str, list[int]]:
    """Deal the game if every seat has accepted; `quiet`: seats that start muted."""
    seats = _seats(session, game.id)
    if game.status != GameStatus.FORMING or any(i.status != "accepted" for i in seats):
        return "accepted", []
    for inv in seats:
        session.add(Seat(game_id=game.id, seat=inv.seat, player_id=inv.player_id,
                         muted=inv.seat in (quiet or set()), bot=start.bot_level(inv.email)))
    started = start.deal(session, svc, game)
    return "started", started.outbox_ids


def _seats(session: Session, game_id: int) -> list[Invitation]:
    """The current invitation of each seat (a replaced one is history)."""
    return list(session.scalars(select(Invitation).where(
        Invitation.game_id == game_id, Invitation.status != "replaced")
        .order_by(Invitation.seat)))


def _engine(kind: str):
    try:
        return registry.get(kind)
    except registry.UnknownGame:
        raise BadInvitation(_("There is no game called %(kind)r.", kind=kind)) from None


def _address(typed: str) -> str:
    try:
        return address(start.parse_player(typed)[0] if "<" in typed else typed)
    except (BadAddress, start.BadStart) as exc:
        raise BadInvitation(_(NOTHING_SENT, why=exc.detail)) from None


def _wording(seats: range) -> str:
    lo, hi = seats.start, seats.stop - 1
    if lo == hi:
        return ngettext("%(num)d player", "%(num)d players", lo)
    return _("%(low)d to %(high)d players", low=lo, high=hi)
