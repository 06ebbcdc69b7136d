"""Who sits at a seat, and whether their clocks run: vacation (every game of a player), resign,
and replacing an absent or resigned player by invitation.

Every refusal is a PlayError whose words name what would work; nothing changes then."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from service.games import registry
from service.linking.signer import Claims
from service.mailwire.outbound import catalogs
from service.mailwire.outbound.catalogs import N_, _
from service.play import notify, ranking, repository, webhooks
from service.play.errors import GameOver, PlayError
from service.play.repository import check_holder
from service.play.services import Services
from service.play.time import calendar, clocks, deadlines, who
from service.store.models import GameRow, Player, Seat, Vacation
from service.store.statuses import GameStatus, SeatStatus

from .addresses import BadAddress
from .addresses import address as read_address


class SeatRefused(PlayError):
    title = N_("Nothing was changed")


# --- vacation ------------------------------------------------------------------------------

@dataclass(frozen=True)
class VacationDone:
    text: str
    outbox_ids: list[int]


def allowance(svc: Services) -> int:
    return int(svc.settings.VACATION_DAYS)


def take_vacation(svc: Services, player_id: int, text: str) -> VacationDone:
    """`vacation 5`, `vacation until 2026-12-24` or `back`: the player's clocks stop (or run
    again) in every game they play, and each table is told."""
    now = svc.clock.now()
    with svc.db.transaction() as session:
        player = session.get(Player, player_id)
        today = clocks.local_today(now, player.zone)
        request, taken, current_row, plan = _vacation_asked(session, svc, player, text, today)
        if request.kind == "back":
            current_row.last_day = plan.last_day
            current_row.resumes_at = now
            current_row.open = False
            ids = _resume_all(session, player, now, f"{player.name} is back; their clocks run "
                              "again", now)
            return VacationDone("Welcome back: your clocks run again.", ids)
        resumes = clocks.resumes_at(plan, player.zone)
        if current_row is None:
            current_row = Vacation(player_id=player_id, first_day=plan.first_day, open=True,
                                   last_day=plan.last_day, resumes_at=resumes, created_at=now)
            session.add(current_row)
        else:
            current_row.last_day, current_row.resumes_at = plan.last_day, resumes
        until = f"{plan.last_day.day} {plan.last_day:%b}"
        ids = []
        for game, row in _active_seats(session, player_id):
            deadlines.set_clock(row, clocks.pause(deadlines.get_clock(row), now))
            ids += deadlines.tell(session, svc, game, row.seat, f"{player.name} is on vacation to the end of "
                               f"{until}; their clocks are stopped", now, offer=False,
                               others_only=True)
        session.flush()
        left = clocks.days_left([(v.first_day, v.last_day) for v in
                                 session.scalars(select(Vacation)
                                                 .where(Vacation.player_id == player_id))],
                                today.year, allowance(svc))
    return VacationDone(f"You are on vacation to the end of {until} (your clocks are stopped in every "
                        f"game); {left} vacation days left this year.", ids)


def check_vacation(session, svc: Services, player_id: int, text: str) -> None:
    """What `take_vacation` would refuse, refused now, changing nothing: a reply's or a
    page's other lines are refused with it (service.play.moves.runner)."""
    player = session.get(Player, player_id)
    _vacation_asked(session, svc, player, text, clocks.local_today(svc.clock.now(),
                                                                   player.zone))


def _vacation_asked(session, svc: Services, player: Player, text: str, today):
    """(the request, the player's vacations, the open one or None, the plan), or SeatRefused
    saying why the request cannot be granted."""
    try:
        request = clocks.parse_vacation(text, today)
        taken = session.scalars(select(Vacation).where(Vacation.player_id == player.id)
                                .with_for_update()).all()
        current_row = next((v for v in taken if v.open), None)
        current = clocks.Vacation(current_row.first_day, current_row.last_day) \
            if current_row else None
        plan = clocks.check_request(request, [(v.first_day, v.last_day) for v in taken],
                                    current, today, allowance(svc))
    except clocks.VacationError as exc:
        raise SeatRefused(str(exc)) from None
    return request, taken, current_row, plan


def _active_seats(session, player_id: int) -> list[tuple[GameRow, Seat]]:
    """The player's seats in active games, each game's row locked first (in id order), as a
    move locks it: a move committed meanwhile is seen, never overwritten."""
    game_ids = session.scalars(select(Seat.game_id).join(GameRow, GameRow.id == Seat.game_id)
                               .where(Seat.player_id == player_id,
                                      GameRow.status == GameStatus.ACTIVE,
                                      deadlines.vacation_stops_clocks())
                               .order_by(Seat.game_id)).all()
    out = []
    for game_id in dict.fromkeys(game_ids):
        game = repository.game_row(session, game_id, lock=True)
        for row in game.seats:
            session.refresh(row)
            if row.player_id == player_id:
                out.append((game, row))
    return out


def _resume_all(session, player: Player, at: datetime, text: str, now: datetime, *,
                quiet_when_due: bool = False) -> list[int]:
    """Every clock of the player runs again from `at`, and each table is told. With
    `quiet_when_due` (the sweep's end of a vacation) no table is told when one of the clocks
    is due at once (a vacation day taken for a clock that ran out restarts it with no time
    left): the same sweep's deadline pass tells what follows, another vacation day or the
    timeout, and "back; clocks run again" in the same second would be untrue. One notice for
    one event."""
    resumed = []
    for game, row in _active_seats(session, player.id):
        if row.mail_held_since is not None:
            continue     # stopped until an email reaches them (service.play.time.mailholds)
        clock = deadlines.get_clock(row)
        deadlines.set_clock(row, calendar.calendarrules.resume(clock, clocks.resume(clock, at), at,
                                                    calendar.of_seat(row, game)))
        resumed.append((game, row))
    if quiet_when_due and any(row.deadline is not None and row.deadline <= now
                              for _, row in resumed):
        return []
    ids = []
    for game, row in resumed:
        ids += deadlines.tell(session, None, game, row.seat, text, now, offer=False,
                           others_only=True)
    return ids


def resume_ended_vacations(svc: Services, now: datetime, outbox_ids: list[int]) -> int:
    """The sweep: vacations whose last day is over restart their player's clocks, counted
    from the midnight they ended (a late sweep costs nobody time)."""
    with svc.db.transaction() as session:
        ended = session.scalars(select(Vacation).where(Vacation.open.is_(True),
                                                       Vacation.resumes_at <= now)
                                .order_by(Vacation.resumes_at).limit(500)
                                .with_for_update()).all()
        for vacation in ended:
            vacation.open = False
            player = session.get(Player, vacation.player_id)
            outbox_ids += _resume_all(session, player, vacation.resumes_at,
                                      f"{player.name} is back from vacation; their clocks run "
                                      "again", now, quiet_when_due=True)
        return len(ended)


def player_of(svc: Services, game_id: int, seat: int, holder: int | None = None) -> int:
    """The player holding a seat now (refused for a link of the seat's previous holder)."""
    with svc.db.transaction() as session:
        return holding_player(session, game_id, seat, holder)


def holding_player(session, game_id: int, seat: int, holder: int | None = None) -> int:
    """`player_of` in the caller's transaction."""
    game = repository.game_row(session, game_id)
    check_holder(game, seat, holder)
    return deadlines.seat_row(game, seat).player_id


# --- resign --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Resigned:
    words: str                   # for the one who resigned
    outbox_ids: list[int]


def resign(svc: Services, game_id: int, seat: int, holder: int | None = None) -> Resigned:
    """The seat gives up. Two players: the game ends, the other wins. More: the seat's turns
    are played by the timeout move from then on, and it ranks last. A tournament's game: the
    player withdraws from the tournament too (its round's end sees the resignation)."""
    with svc.db.transaction() as session:
        return resign_in(session, svc, game_id, seat, holder)


def resign_in(session, svc: Services, game_id: int, seat: int,
              holder: int | None = None) -> Resigned:
    """`resign` in the caller's transaction (a reply's or a page's other lines share it)."""
    now = svc.clock.now()
    pos = repository.load(session, svc.states, game_id, lock=True)
    game = pos.row
    check_holder(game, seat, holder)
    row = deadlines.seat_row(game, seat)
    if game.status == GameStatus.ENDED or pos.engine.outcome(pos.state) is not None:
        raise GameOver(_("This game has finished, so there is nothing to resign; the result "
                         "stands."))
    if row.status in deadlines.OUT:
        raise SeatRefused(_("You have already left this game; its page still shows how it "
                            "goes on."))
    ranking.leave(game, row, SeatStatus.RESIGNED)
    deadlines.change(session, game, row, SeatStatus.RESIGNED,
                     deadlines.said(N_("{player} resigned"), N_("You resigned"), seat), now)
    in_play = [r.seat for r in game.seats if r.status not in deadlines.OUT]
    if len(in_play) <= 1:
        # a clause, as every notice's text: the emails and pages end the sentence
        ids = deadlines.end_game(session, game, seat, f"{who(seat)} resigned", now)
    else:
        deadlines.set_clock(row, deadlines.get_clock(row))   # due at once if in turn
        ids = deadlines.tell(session, svc, game, seat, f"{who(seat)} resigned; the default move "
                          "will be played for them, and they rank last", now,
                          offer=False, others_only=False,
                          own_text="You resigned; the default move will be played for you "
                          "from now on, and you rank last")
    return Resigned("You resigned from this game." + (
        " You have withdrawn from its tournament too: you play none of its later rounds."
        if game.tournament_id is not None else ""), ids)


# --- replace -------------------------------------------------------------------------------

FINISHED = N_("This game has finished; no seat needs a new player.")


def invite_replacement(svc: Services, game_id: int, by_seat: int, target: int, address: str,
                       holder: int | None = None) -> str:
    """Any player may invite an address to take over an absent or resigned seat; the invited
    person accepts by link (service.web: /i/<token>). The inviter is answered in the language
    of the moment (their page's), the invitee written to in theirs."""
    address = address.strip().lower()
    now = svc.clock.now()
    with svc.db.transaction() as session:
        pos = repository.load(session, svc.states, game_id, lock=True)
        game = pos.row
        check_holder(game, by_seat, holder)
        if game.status == GameStatus.ENDED:
            raise GameOver(_(FINISHED))
        row = next((r for r in game.seats if r.seat == target), None)
        if row is None:
            raise SeatRefused(_("There is no seat %(seat)d in this game.", seat=target + 1))
        if row.status not in (SeatStatus.ABSENT, SeatStatus.RESIGNED):
            raise SeatRefused(_("%(name)s is still playing; only an absent or resigned "
                                "player's seat can be taken over.", name=row.player.name))
        try:
            address = read_address(address)
        except BadAddress:
            raise SeatRefused(_("%(address)r is not an email address; write one such as "
                                "carla@example.org.", address=address)) from None
        if any(r.player.email == address for r in game.seats):
            raise SeatRefused(_("%(address)s is already at this table; invite someone who is "
                                "not playing in this game.", address=address))
        token = svc.urls.signer.dumps("invite", _invite_claims(game.id, target, row.holder,
                                                                address))
        url = svc.urls.absolute(f"/i/{token}")
        inviter = deadlines.seat_row(game, by_seat).player.name
        title = registry.title(game.kind, game.options)
        # in the invitee's language when the address is a player's, as the relay composes it
        with catalogs.speaking(session.scalar(select(Player.language)
                                              .where(Player.email == address))):
            why = _("%(inviter)s invites you to take over %(name)s's seat in %(title)s game "
                    "%(id)s. To accept, open this link and press the button: %(url)s",
                    inviter=inviter, name=row.player.name, title=title, id=game.id, url=url)
            subject = _("%(title)s game %(id)s", title=title, id=game.id)
        notify.letter(session, address, "invite", {"why": why, "subject": subject}, now,
                      seq=game.seq)
        # the invitee's webhooks told too, when the address is a player's who keeps any
        webhooks.invited(session, address, game.id, subject, now)   # in their language too
        deadlines.change(session, game, row, "invited", deadlines.said(
            N_("{player} invited {address} to take over {whose}"),
            N_("You invited {address} to take over {whose}"), by_seat, address=address,
            whose=deadlines.about(N_("{player}'s seat"), N_("your seat"), target)), now)
    return _("Invitation sent to %(address)s.", address=address)


def _invite_claims(game_id: int, seat: int, holder: int, address: str):
    return Claims(game_id, seat, move={"email": address}, holder=holder)


def accept_replacement(svc: Services, token: str) -> tuple[int, int]:
    """The invited person accepts: the seat is theirs, the holder counter moves on (the old
    player's links stop acting), the history records the handover. Returns (game, seat)."""
    claims = svc.urls.signer.loads("invite", token)
    now = svc.clock.now()
    with svc.db.transaction() as session:
        pos = repository.load(session, svc.states, claims.game, lock=True)
        game = pos.row
        row = deadlines.seat_row(game, claims.seat)
        if row.holder != claims.holder:
            raise SeatRefused(_("This invitation is no longer open: the seat has been taken "
                                "over already."))
        if game.status == GameStatus.ENDED:
            raise GameOver(_(FINISHED))
        address = claims.move["email"]
        if any(r.player.email == address for r in game.seats):
            raise SeatRefused(_("%(address)s is already at this table.", address=address))
        old = row.player.name
        player = session.scalars(select(Player).where(Player.email == address)).first()
        if player is None:
            player = Player(email=address, name=address.split("@")[0], created_at=now)
            session.add(player)
            session.flush()
        row.player_id, row.holder, row.status, row.on_timeout = player.id, row.holder + 1, \
            SeatStatus.ACTIVE, None
        row.left_order = None               # the seat plays again: it has not left
        row.muted = False
        before = deadlines.get_clock(row)
        clock = clocks.SeatClock(bank=before.bank)
        if before.in_turn:   # a fresh turn for the new player, from where the turn began
            clock = calendar.calendarrules.start_turn(    # their rest days, not the old player's
                clocks.start_turn(deadlines.control(game), clock, now, before.turn_at),
                calendar.of_seat(row, game, player=player))
        deadlines.set_clock(row, clock)
        session.flush()
        session.refresh(row)
        new = player.name

        def took_over(reader: int) -> str:     # each other player's notice in their language
            return _("%(new)s took over %(old)s's seat", new=new, old=old)
        # names, not seats: the players as they were called then (erasure renames them)
        deadlines.change(session, game, row, "replaced", deadlines.said(
            N_("{new} took over {old}'s seat"), new=new, old=old), now)
        notify.queue(session, game, row.seat, "turn", game.seq, now)
        deadlines.tell(session, svc, game, row.seat, took_over, now, offer=False,
                       others_only=True)
        session.flush()
    return claims.game, claims.seat
