"""Leagues: seasons that repeat, in divisions, with promotion and relegation (issue 50, item 5).

A league is made by the operator (`flask leagues create`), with bots entered at once if asked;
people join by its signed link. When its divisions' places are all taken the first season
starts: each division is a round-robin tournament (service.play.community.tournaments: its
pairing, its games, its next round when a round's last game ends, its standings by the one
ranking). The season ends when the last of its divisions does: that tournament's end calls
`season_over` in the same transaction (tournaments.when_a_tournament_ends), so the after-commit
seam and the sweep that advance tournaments end seasons too, and the league's locked row and
the season's key (league, season) make it happen once. Then the top `promote` of each division
move up and the bottom `promote` down (service.play.community.promotion), and the next season
starts with everyone who did not leave, and with whoever joined meanwhile.

Time: each game has a clock sized to the season (`clock_of`), and a seat out of time forfeits
(on_timeout=forfeit), so a player who stops playing loses their games and the season still
ends. A member leaves by the league page's Leave, by resigning a league game (it withdraws
them from the season, as in a tournament) or by losing every game of a season on time; those
are not entered into the next season."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.display import rulebook
from service.games import registry
from service.mailwire.outbound.catalogs import N_, _
from service.play.errors import NoSuchGame, PlayError
from service.play.players import BadStart, Entry, bot_entries, find_player, parse_entry
from service.play.services import Services
from service.play.time import ClockError, clocks
from service.store.models import (
    GameRow,
    League,
    LeagueDivision,
    LeagueMember,
    LeagueSeason,
    Tournament,
)
from service.store.statuses import SeatStatus

from . import leagueletters, pairing, promotion, standings, tournaments

MAX_DIVISIONS = 10
MAX_SIZE = 20
MAX_SEASON_DAYS = 365
#: each move adds this to a seat's bank: a prompt player keeps the season's share
INCREMENT_HOURS = 1


class BadLeague(PlayError):
    title = "The league could not be made"


class NoSuchLeague(NoSuchGame):
    title = N_("No such league")


class JoinRefused(PlayError):
    title = N_("You cannot join this league")


@dataclass(frozen=True)
class Made:
    league_id: int
    started: bool           # its divisions were filled at once: the first season is on


def clock_of(size: int, season_days: int) -> str:
    """Each game's clock: every seat's bank is the season's days shared over the division's
    rounds and the game's two seats (a round lasts at most both banks), plus an hour a move,
    at most the longest a clock takes."""
    rounds = pairing.round_robin_rounds(size)
    bank = min(season_days * 24 // (2 * rounds), clocks.LONGEST.days * 24)
    return f"{bank}h+{INCREMENT_HOURS}h"


def check(kind: str, divisions: int, size: int, season_days: int, promote: int) -> str:
    """The league's terms, each refused in words that say what would work; returns the
    clock its games will have."""
    try:
        engine = registry.get(kind)
    except registry.UnknownGame:
        raise BadLeague(f"There is no game called {kind!r}.") from None
    try:
        tournaments.table_size(engine, "round-robin")
    except tournaments.BadTournament:
        raise BadLeague(_("A league's divisions play round robins of two-player games; "
                          "%(title)s is for %(players)s.", title=engine.title,
                          players=rulebook.players_wording(engine, {}))) from None
    if not 1 <= divisions <= MAX_DIVISIONS:
        raise BadLeague(f"A league has from 1 to {MAX_DIVISIONS} divisions, not {divisions}.")
    if not 2 <= size <= MAX_SIZE:
        raise BadLeague(f"A division holds from 2 to {MAX_SIZE} players, not {size}.")
    if not 1 <= season_days <= MAX_SEASON_DAYS:
        raise BadLeague(f"A season lasts from 1 to {MAX_SEASON_DAYS} days, not {season_days}.")
    if divisions > 1 and not 1 <= promote <= size // 2:
        raise BadLeague(f"With divisions of {size}, from 1 to {size // 2} players move up and "
                        f"down at a season's end (--promote), not {promote}.")
    clock = clock_of(size, season_days)
    try:
        clocks.parse_clock(clock)
    except ClockError:
        rounds = pairing.round_robin_rounds(size)
        raise BadLeague(f"A season of {season_days} days is too short for divisions of {size} "
                        f"({rounds} rounds): give it at least {-(-rounds // 12)} days.") from None
    return clock


def create(svc: Services, kind: str, divisions: int, size: int, season_days: int,
           promote: int, entrants: list[str] = ()) -> Made:
    """A league, with `entrants` (addresses, or bot:easy / bot:normal) in it at once; the
    first season starts when its divisions' places are all taken. Everything is checked
    before anything is written."""
    check(kind, divisions, size, season_days, promote)
    try:
        entries = bot_entries([parse_entry(e, svc.urls.domain) for e in entrants])
    except BadStart as exc:
        raise BadLeague(exc.detail) from None
    addrs = [e.addr for e in entries]
    if len(set(addrs)) != len(addrs):
        raise BadLeague("Each entrant needs a different email address.")
    if len(entries) > divisions * size:
        raise BadLeague(f"{divisions} divisions of {size} hold {divisions * size} players; "
                        f"{len(entries)} were entered.")
    now = svc.clock.now()
    with svc.db.transaction() as session:
        league = League(kind=kind, divisions=divisions, size=size, season_days=season_days,
                        promote=promote if divisions > 1 else 0, status="forming", season=0,
                        created_at=now)
        session.add(league)
        session.flush()
        for n, e in enumerate(entries):
            player = find_player(session, e.addr, e.name, now)
            session.add(LeagueMember(league_id=league.id, player_id=player.id, entry=n,
                                     bot=e.bot, joined_at=now))
        session.flush()
        started = _start_if_full(session, svc, league)
        return Made(league.id, started)


def read_token(svc: Services, token: str) -> int:
    """The league a join link names; a damaged, foreign or expired link raises the signer's
    TokenError, answered as every link's is."""
    return svc.urls.signer.loads("league_join", token).game


def join(svc: Services, token: str, player_id: int) -> str:
    """The signed-in player joins the league of the link: "started" (theirs was its last
    place: the first season is on), "joined" (it still forms), "waiting" (a season is on:
    they play from the next one) or "already" (a member already: nothing changes)."""
    league_id = read_token(svc, token)
    now = svc.clock.now()
    with svc.db.transaction() as session:
        league = locked(session, league_id)
        if league.status in ("closing", "closed"):
            raise JoinRefused(_("This league is closed, or closes at the end of this season: "
                                "nobody can join it. Nothing was changed."))
        member = session.get(LeagueMember, (league.id, player_id))
        if member is not None and member.left_at is None:
            return "already"
        entry = 1 + max((m.entry for m in members_of(session, league.id)), default=-1)
        if member is None:
            session.add(LeagueMember(league_id=league.id, player_id=player_id, entry=entry,
                                     joined_at=now))
        else:                           # back after leaving: at the end of the line again
            member.entry, member.joined_at, member.left_at = entry, now, None
            member.division = None
        session.flush()
        if league.status == "forming":
            return "started" if _start_if_full(session, svc, league) else "joined"
        return "waiting"


def leave(svc: Services, league_id: int, player_id: int) -> None:
    """The player leaves: they finish this season's games (or resign them) and are not in the
    next season."""
    with svc.db.transaction() as session:
        league = locked(session, league_id)
        member = session.get(LeagueMember, (league.id, player_id))
        if member is None or member.left_at is not None:
            raise JoinRefused(_("You are not in this league; nothing was changed."))
        member.left_at = svc.clock.now()
        if league.status == "forming":
            member.division = None


def close(svc: Services, league_id: int) -> str:
    """The operator closes the league: at once while it forms ("closed"), else at the end of
    the season being played, which plays to its end ("closing")."""
    with svc.db.transaction() as session:
        league = locked(session, league_id)
        if league.status in ("closing", "closed"):
            raise BadLeague(f"League {league_id} is {league.status} already; nothing was "
                            "changed.")
        if league.status == "forming":
            league.status = "closed"
            for m in members_of(session, league.id):
                m.division = None
        else:
            league.status = "closing"
        return league.status


def left_everything(session: Session, player_id: int, now) -> None:
    """An erased player leaves every league (community's erasure hook)."""
    for member in session.scalars(select(LeagueMember).where(
            LeagueMember.player_id == player_id, LeagueMember.left_at.is_(None))):
        member.left_at = now


# -- a season's end: inside the transaction that ends a division's tournament -----------------

def season_over(session: Session, svc: Services, t: Tournament) -> None:
    """A division's tournament ended: when it was the season's last, end the season and start
    the next one (tournaments.when_a_tournament_ends; the caller holds the tournament's row)."""
    division = session.get(LeagueDivision, t.id)
    if division is None:
        return
    league = locked(session, division.league_id)
    season = session.get(LeagueSeason, (league.id, division.season))
    if season is None or season.ended_at is not None or league.season != division.season:
        return
    tids = divisions_of(session, league.id, division.season)
    # read from the database as it is now, not the session's copies: another division may
    # have ended in a transaction that committed while this one waited for the league's lock
    statuses = session.scalars(select(Tournament.status).where(Tournament.id.in_(tids))).all()
    if any(s != "ended" for s in statuses):
        return
    now = svc.clock.now()
    season.ended_at = now
    boards = [standings.compute(session, svc, session.get(Tournament, tid)) for tid in tids]
    finals = [[line.player_id for line in board] for board in boards]
    members = {m.player_id: m for m in members_of(session, league.id)}
    for pid in stopped(session, tids, boards, members):
        members[pid].left_at = now
    placed = {pid for order in finals for pid in order}
    gone = {pid for pid, m in members.items() if m.left_at is not None} | (placed - set(members))
    newcomers = [pid for pid, m in sorted(members.items(), key=lambda kv: kv[1].entry)
                 if pid not in placed and m.left_at is None]
    closing = league.status == "closing"
    after = [] if closing else promotion.next_divisions(
        finals, league.promote, gone, newcomers, league.size, league.divisions)
    if not any(members[p].bot is None for division in after for p in division):
        # bots alone would play season after season for nobody, as fast as they move
        after = []
    leagueletters.season_end(session, svc, league, boards, members,
                             promotion.moves(finals, league.promote), after)
    if after:
        start_season(session, svc, league, [[members[p] for p in d] for d in after])
        return
    # the last season of a league closing, too few left to play, or no person left in it:
    # it waits for people
    league.status = "closed" if closing else "forming"
    for m in members.values():
        m.division = None


def stopped(session: Session, tids: list[int], boards: list[list[standings.Line]],
            members: dict[int, LeagueMember]) -> set[int]:
    """The season's players who left it: withdrawn (they resigned a game), or every game of
    theirs lost on time (they stopped playing: the clocks found them). Never a bot."""
    out = {line.player_id for board in boards for line in board if line.withdrawn}
    timed_out: dict[int, list[bool]] = {}
    for game in session.scalars(select(GameRow).where(GameRow.tournament_id.in_(tids))):
        for seat in game.seats:
            timed_out.setdefault(seat.player_id, []).append(
                seat.status == SeatStatus.FORFEITED)
    out |= {pid for pid, lost in timed_out.items() if lost and all(lost)}
    return {pid for pid in out if pid in members and members[pid].bot is None}


# -- starting a season ----------------------------------------------------------------------

def _start_if_full(session: Session, svc: Services, league: League) -> bool:
    """A forming league whose places are all taken starts its next season: divisions by
    last season's division (the first time, by order of joining)."""
    active = [m for m in members_of(session, league.id) if m.left_at is None]
    if len(active) < league.divisions * league.size:
        return False
    active.sort(key=lambda m: (m.division is None, m.division or 0, m.entry))
    divisions = promotion.cut(active, league.size, league.divisions)
    start_season(session, svc, league, divisions)
    return True


def start_season(session: Session, svc: Services, league: League,
                 divisions: list[list[LeagueMember]]) -> None:
    """The next season: a round-robin tournament per division, its first round's games
    started, and each member told their division and opponents (the caller holds the
    league's row)."""
    now = svc.clock.now()
    number = league.season + 1
    session.add(LeagueSeason(league_id=league.id, season=number, started_at=now))
    session.flush()     # the key (league, season): a second start of this season fails here
    league.season, league.status = number, "running"
    for m in members_of(session, league.id):
        m.division = None
    # a league's game lost on time is lost: it ends then, and the season with it
    options = {"clock": clock_of(league.size, league.season_days), "on_timeout": "forfeit",
               "seats": 2, "league": league.id}
    for d, members in enumerate(divisions, 1):
        terms = tournaments.Checked(league.kind, "round-robin",
                                    pairing.round_robin_rounds(len(members)), options, [])
        t = tournaments.new_tournament(session, terms, True, False, "running", now)
        for n, m in enumerate(members):
            tournaments.enter(session, t, Entry(m.player.email, m.player.name, m.bot), n, now)
            m.division = d
        session.add(LeagueDivision(tournament_id=t.id, league_id=league.id, season=number,
                                   division=d))
        session.flush()
        tournaments.first_round(session, svc, t)
    leagueletters.season_start(session, svc, league, divisions, options["clock"])


# -- reading --------------------------------------------------------------------------------

def locked(session: Session, league_id: int) -> League:
    league = session.scalars(select(League).where(League.id == league_id)
                             .with_for_update()).one_or_none()
    if league is None:
        raise missing(league_id)
    return league


def missing(league_id) -> NoSuchLeague:
    """The one answer for a league number that is none, in the reader's language."""
    return NoSuchLeague(_("There is no league %(id)s.", id=league_id))


def members_of(session: Session, league_id: int) -> list[LeagueMember]:
    return list(session.scalars(select(LeagueMember).where(
        LeagueMember.league_id == league_id).order_by(LeagueMember.entry)))


def divisions_of(session: Session, league_id: int, season: int) -> list[int]:
    """The season's divisions' tournaments, top division first."""
    return list(session.scalars(select(LeagueDivision.tournament_id).where(
        LeagueDivision.league_id == league_id, LeagueDivision.season == season)
        .order_by(LeagueDivision.division)))
