"""A player's games for `/me`: whose move it is first, then games waiting on others (on whom,
since when), then games still forming, then finished ones with their result. Reads only, and
only rows (service.play.reads.listing): no game's log is folded."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from sqlalchemy import literal_column, select, union_all

from service.display.seatview import result_text
from service.games import registry
from service.mailwire.outbound.catalogs import N_, _
from service.play import readpolicy, repository
from service.play.community import invites
from service.play.players import blocks, declined, hooks
from service.play.readpolicy import Reader
from service.play.services import Services
from service.play.time import calendar, clocks
from service.store.models import GameRow, Invitation, Player, Seat
from service.store.statuses import GameStatus

from . import listing

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
AT_RISK_WITHIN = timedelta(hours=24)
# finished games shown at once, newest first (a player may have thousands)
FINISHED_SHOWN = 30
# a game not over, with 'ended' written into the statement: PostgreSQL's plan for a prepared
# statement then probes the index of the games not ended (store.models.UNENDED, migration
# 0040) for each of the player's games, where a parameter would read every game's row
NOT_ENDED = GameRow.status != literal_column(f"'{GameStatus.ENDED}'")


@dataclass(frozen=True)
class GameLine:
    game_id: int
    title: str
    others: list[str]            # the other players' display names
    link: str                    # the seat's own game page (a signed view link)
    waiting_on: list[str] = field(default_factory=list)
    since: datetime | None = None
    result: str = ""
    seats: list[tuple[int, str, str]] = field(default_factory=list)  # forming: seat, who, status
    mine: bool = False           # forming: this player made it (may fill declined seats)
    public_path: str = ""
    time_left: str = ""          # at risk: the deadline in the player's zone, and how soon
    tournament_path: str = ""    # a tournament's game: the tournament's page


@dataclass(frozen=True)
class MyGames:
    your_move: list[GameLine]
    waiting: list[GameLine]
    forming: list[GameLine]
    finished: list[GameLine]
    invited: list[GameLine] = field(default_factory=list)   # waiting on my answer
    at_risk: list[GameLine] = field(default_factory=list)   # my deadline within 24 hours
    older_finished: int | None = None   # more finished games, before this game id


@dataclass(frozen=True)
class MyPage:
    """What /me shows of the player's own rows, read in one unit of work."""
    games: MyGames
    own_time: dict[str, str]     # the calendar preferences as the player writes them
    profile: tuple[str, bool]    # their handle, and whether their profile is hidden
    blocked: list[tuple[int, str]] = field(default_factory=list)   # blocks.listed
    tournaments: list = field(default_factory=list)   # community.invites.waiting_for
    hooks: list = field(default_factory=list)         # hooks.listed


def my_page(svc: Services, player_id: int, finished_before: int | None = None) -> MyPage:
    """The player's games (as my_games), their own time (calendar.read_preferences), their
    profile's setting (community.profile_setting), the players they blocked, their
    tournaments waiting and their webhooks: one unit of work, one read of the player's row
    (each part on its own was a pool checkout, a ping, BEGIN and COMMIT)."""
    with svc.db.reading() as session:
        games, player = _my_games(session, svc, player_id, finished_before)
        return MyPage(games, calendar.preferences(player),
                      (player.handle, player.profile_hidden),
                      blocks.listed_in(session, player_id),
                      invites.waiting_for_in(session, svc, player),
                      hooks.listed_in(session, player_id))


def my_games(svc: Services, player_id: int, finished_before: int | None = None) -> MyGames:
    """`finished_before`: the finished games listed are the FINISHED_SHOWN newest before that
    game id (the next page of them)."""
    with svc.db.reading() as session:
        return _my_games(session, svc, player_id, finished_before)[0]


def _my_games(session, svc: Services, player_id: int, finished_before: int | None
              ) -> tuple[MyGames, Player | None]:
    out: dict[str, list[GameLine]] = {"move": [], "wait": [], "forming": [], "done": []}
    # the player's games not over and their FINISHED_SHOWN + 1 newest finished ones (one more
    # says there are older), read with their rows in one statement
    mine = select(Seat.game_id).join(GameRow, GameRow.id == Seat.game_id).where(
        Seat.player_id == player_id)
    ended = (mine.where(GameRow.status == GameStatus.ENDED)
             .order_by(Seat.game_id.desc()).limit(FINISHED_SHOWN + 1))
    if finished_before is not None:
        ended = ended.where(Seat.game_id < finished_before)
    ended = ended.subquery()
    games = listing.games_among(session, union_all(mine.where(NOT_ENDED),
                                                   select(ended.c.game_id)))
    newest_first = sorted(games, reverse=True)
    finished = [g for g in newest_first if games[g][0].status == GameStatus.ENDED]
    older = finished[FINISHED_SHOWN - 1] if len(finished) > FINISHED_SHOWN else None
    seats = [(game_id, seat.seat)
             for game_id in [*(g for g in newest_first if games[g][0].status != GameStatus.ENDED),
                             *finished[:FINISHED_SHOWN]]
             for seat in games[game_id][0].seats if seat.player_id == player_id]
    player = session.get(Player, player_id)
    zone = ZoneInfo(player.zone) if player is not None and player.zone else timezone.utc
    risky = []
    for game_id, seat in seats:
        game, moved_at = games[game_id]
        where, line = _line(svc, game, seat, moved_at, zone)
        out[where].append(line)
        deadline = listing.seat_of(game, seat).deadline
        if where == "move" and at_risk(deadline, svc.clock.now()):
            risky.append((deadline, replace(line, time_left=clocks.format_deadline(
                deadline, svc.clock.now(), player.zone if player else None))))
    out["forming"] = _forming(session, svc, player_id)
    out["invited"] = _invited(session, svc, player)
    out["wait"].sort(key=lambda g: g.since or EPOCH)        # waiting longest first
    return MyGames(out["move"], out["wait"], out["forming"], out["done"], out["invited"],
                   [line for _, line in sorted(risky, key=lambda pair: pair[0])],
                   older), player


def at_risk(deadline: datetime | None, now: datetime) -> bool:
    """A running deadline within the next 24 hours (or passed, not yet swept)."""
    return deadline is not None and deadline <= now + AT_RISK_WITHIN


def seat_link(svc: Services, player_id: int, game_id: int) -> str:
    """The player's own game page in `game_id` (a fresh signed link), for a signed-in player
    whose emailed link expired; a game they have no seat in is "no such game", as one that
    does not exist (readpolicy.is_player)."""
    with svc.db.reading() as session:
        reader = Reader.player(player_id)
        game = readpolicy.admit(lambda: repository.game_record(session.connection(), game_id),
                                reader, readpolicy.is_player, NOT_MINE)
        seat = readpolicy.seat_shown(game, reader)
        holder = next(s.holder for s in game.seats if s.seat == seat)
        return svc.urls.game_path(game_id, seat, holder)


#: what /me/games/<number> answers for a game the signed-in player has no seat in
NOT_MINE = N_("You have no seat in a game with that number; your games are listed on My "
               "games.")


def _public_path(svc: Services, game) -> str:
    """The game's public page, where its players keep one (readpolicy.public_page)."""
    public_id = readpolicy.public_page(game)
    return svc.urls.public_game_path(public_id) if public_id else ""


def _line(svc: Services, game, seat: int, moved_at: datetime | None,
          zone) -> tuple[str, GameLine]:
    """`game`: its record (service.play.reads.listing); `moved_at`: its last event's time."""
    names = [s.player.name for s in game.seats]
    # a game the service ended (a resignation, a forfeit) is over even though its engine has
    # no outcome, and waits on nobody (listing.to_act)
    acting, outcome = listing.to_act(game), listing.outcome(game)
    ended = game.status == GameStatus.ENDED
    since = moved_at.astimezone(zone) if moved_at is not None else None  # the player's time
    line = GameLine(game.id, registry.title(game.kind, game.options),
                    [n for i, n in enumerate(names) if i != seat],
                    svc.urls.game_path(game.id, seat, listing.seat_of(game, seat).holder),
                    waiting_on=[names[i] for i in acting if i != seat], since=since,
                    result=result_text(outcome, names, seat) or ("Ended." if ended else ""),
                    public_path=_public_path(svc, game),
                    tournament_path=f"/tournaments/{game.tournament_id}"
                    if game.tournament_id else "")
    if outcome or ended:
        return "done", line
    return ("move" if seat in acting else "wait"), line


def _forming(session, svc: Services, player_id: int) -> list[GameLine]:
    games = session.scalars(
        select(GameRow).join(Invitation, Invitation.game_id == GameRow.id)
        .where(GameRow.status == GameStatus.FORMING, Invitation.player_id == player_id,
               Invitation.status == "accepted").order_by(GameRow.id.desc())).all()
    lines = []
    for game in games:
        invs = session.scalars(select(Invitation).where(
            Invitation.game_id == game.id, Invitation.status != "replaced")
            .order_by(Invitation.seat)).all()
        now = svc.clock.now()
        seats = [(i.seat, _who(session, i), _shown_status(i, now)) for i in invs]
        lines.append(GameLine(game.id, registry.title(game.kind, game.options),
                              [who for _, who, _ in seats], "", seats=seats,
                              mine=game.created_by == player_id,
                              public_path=_public_path(svc, game)))
    return lines


def _invited(session, svc: Services, player: Player | None) -> list[GameLine]:
    """Invitations to this address still open: the page links to their answer page."""
    if player is None:
        return []
    now = svc.clock.now()
    lines = []
    for inv in session.scalars(select(Invitation).where(
            Invitation.email == player.email, Invitation.status == "pending")
            .order_by(Invitation.id.desc())):
        if declined(inv, now):
            continue                     # expired
        game = session.get(GameRow, inv.game_id)
        creator = session.get(Player, game.created_by) if game.created_by else None
        lines.append(GameLine(game.id, registry.title(game.kind, game.options),
                              [creator.name if creator else "someone"],
                              svc.urls.invitation_path(game.id, inv.seat, inv.id, "accept")))
    return lines


def _who(session, inv: Invitation) -> str:
    """Display names only: an invited address is shown as "an invited player" until it accepts
    (the creator typed it, but the page may be seen by the other players too)."""
    if inv.status == "open":
        return _("an open seat")
    if inv.player_id is not None:
        return session.get(Player, inv.player_id).name
    return _("an invited player")


def _shown_status(inv: Invitation, now) -> str:
    if declined(inv, now):
        return "declined"        # declined, expired, never-email-me or bounced: all the same
    return {"pending": "invited", "accepted": "accepted", "declined": "declined",
            "open": "open"}.get(inv.status, inv.status)
