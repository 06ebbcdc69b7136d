"""Leagues (issue 50, item 5; Little Golem's championships, OGS's leagues): seasons that
repeat, in divisions, with promotion and relegation.

A league waits until `divisions x size` players have joined (by its signed link on /leagues,
or entered by the operator, bots too); the first to join fill the top division. Each season
is a round robin inside each division: one round-robin tournament per division
(service.play.community.tournaments), so its games, their clocks, withdrawals and standings
are the tournaments' own (the one ranking, RULINGS P1). When the last division's tournament of
a season ends (the tournaments' end hook, in that transaction) the season is over: the top
`promote` of each division but the first move up, the bottom `promote` of each but the last
move down, and the next season starts with everyone who did not leave. A player who resigns a
game of a season withdraws from it (as from any tournament) and leaves the league; one who
stops playing is handled by the clocks already there. Each member is told by email when a
season starts (their division, their opponents) and ends (their place, up or down).

A season's games move at one move per `max(1, season_days // 10)` days: a round robin of
ten players plays nine games each, all at once, so a season runs its days when moves come
at that pace."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from service.games import registry
from service.play import notify
from service.play.errors import NoSuchGame, PlayError
from service.play.players import BadStart, Entry, bot_entries, find_player, parse_entry
from service.play.services import Services
from service.store.models import League, LeagueMember, LeagueSeason, Player, Tournament

from . import standings, tournaments

MAX_DIVISIONS = 10
MAX_SIZE = 20


class LeagueRefused(PlayError):
    title = "That cannot be done in this league"


class NoSuchLeague(NoSuchGame):
    title = "No such league"


@dataclass(frozen=True)
class Division:
    number: int
    members: list[str]               # names, in their division's standing order
    tournament_id: int | None        # this season's round robin


@dataclass(frozen=True)
class LeagueView:
    id: int
    title: str
    kind: str
    divisions: int
    size: int
    season_days: int
    promote: int
    season: int
    status: str
    joined: int
    table: list[Division]


def create(svc: Services, kind: str, divisions: int, size: int, season_days: int,
           promote: int) -> int:
    """A league of `kind`, waiting for its players. Everything is checked first."""
    try:
        engine = registry.get(kind)
    except registry.UnknownGame:
        raise LeagueRefused(f"There is no game called {kind!r}.") from None
    try:
        tournaments.table_size(engine, "round-robin")      # two-player games only
    except tournaments.BadTournament as exc:
        raise LeagueRefused(exc.detail) from None
    if not 1 <= divisions <= MAX_DIVISIONS:
        raise LeagueRefused(f"A league has 1 to {MAX_DIVISIONS} divisions, not {divisions}.")
    if not 2 <= size <= MAX_SIZE:
        raise LeagueRefused(f"A division has 2 to {MAX_SIZE} players, not {size}.")
    if season_days < 1:
        raise LeagueRefused("A season lasts at least one day.")
    if divisions > 1 and not 1 <= promote <= size // 2:
        raise LeagueRefused(f"With {size} in a division, 1 to {size // 2} can move up and "
                            f"down at each season's end, not {promote}.")
    with svc.db.transaction() as session:
        league = League(kind=kind, divisions=divisions, size=size, season_days=season_days,
                        promote=promote if divisions > 1 else 0, season=0, status="forming",
                        created_at=svc.clock.now())
        session.add(league)
        session.flush()
        return league.id


def enter(svc: Services, league_id: int, entrants: list[str]) -> int:
    """The operator enters players (addresses, or bot:easy / bot:normal); the first season
    starts once the league is full. Returns the members it has then."""
    try:
        entries = bot_entries([parse_entry(e, svc.urls.domain) for e in entrants])
    except BadStart as exc:
        raise LeagueRefused(exc.detail) from None
    now = svc.clock.now()
    with svc.db.transaction() as session:
        league = _locked(session, league_id)
        for e in entries:
            if e.bot:
                e = _free_bot(session, league_id, e)
            _add(session, svc, league, find_player(session, e.addr, e.name, now), e.bot)
        return _members_count(session, league_id)


def _free_bot(session: Session, league_id: int, e: Entry) -> Entry:
    """A bot of that level not in the league yet (bots are players of their own, numbered:
    a second `bot:easy` entered later is "Easy bot 2")."""
    taken = set(session.scalars(select(Player.email).join(
        LeagueMember, LeagueMember.player_id == Player.id).where(
        LeagueMember.league_id == league_id)))
    n = 1
    while f"bot-{e.bot}-{n}@bots.invalid" in taken:
        n += 1
    return Entry(f"bot-{e.bot}-{n}@bots.invalid", f"{e.bot.title()} bot {n}", e.bot)


def join(svc: Services, league_id: int, player_id: int) -> str:
    """A signed-in player joins by the league's signed link."""
    with svc.db.transaction() as session:
        league = _locked(session, league_id)
        _add(session, svc, league, session.get(Player, player_id), None)
        if league.status == "forming":
            left = league.divisions * league.size - _members_count(session, league_id)
            return (f"You joined; the first season starts when {left} more have joined."
                    if left else "You joined, and the league was full: the first season "
                    "has started. Your games' emails are on their way.")
        return "You joined; you play from the next season on, in the bottom division."


def _add(session: Session, svc: Services, league: League, player: Player,
         bot: str | None) -> None:
    if session.get(LeagueMember, (league.id, player.id)) is not None:
        raise LeagueRefused(f"{player.name} is in this league already.")
    count = _members_count(session, league.id)
    if league.status == "forming":
        division = count // league.size + 1
        if division > league.divisions:
            raise LeagueRefused("This league is full; its first season has started.")
    else:
        division = league.divisions          # later joiners start at the bottom
    session.add(LeagueMember(league_id=league.id, player_id=player.id, division=division,
                             entry=count, bot=bot, left=False, joined_at=svc.clock.now()))
    session.flush()
    if league.status == "forming" and count + 1 == league.divisions * league.size:
        league.status = "running"
        start_season(session, svc, league)


def _members_count(session: Session, league_id: int) -> int:
    return session.scalar(select(func.count()).select_from(LeagueMember)
                          .where(LeagueMember.league_id == league_id)) or 0


def _locked(session: Session, league_id: int) -> League:
    league = session.scalars(select(League).where(League.id == league_id)
                             .with_for_update()).one_or_none()
    if league is None:
        raise NoSuchLeague(f"There is no league {league_id}.")
    return league


def members(session: Session, league_id: int, division: int | None = None
            ) -> list[LeagueMember]:
    q = select(LeagueMember).where(LeagueMember.league_id == league_id,
                                   LeagueMember.left.is_(False))
    if division is not None:
        q = q.where(LeagueMember.division == division)
    return list(session.scalars(q.order_by(LeagueMember.division, LeagueMember.entry)))


def start_season(session: Session, svc: Services, league: League) -> list[int]:
    """The next season: a round robin in each division of two or more who stay. Returns the
    tournaments' ids."""
    league.season += 1
    now = svc.clock.now()
    made = []
    clock = f"{max(1, league.season_days // 10)}d"
    for division in range(1, league.divisions + 1):
        playing = members(session, league.id, division)
        if len(playing) < 2:
            continue             # waits for the next season with company
        checked = tournaments.Checked(
            league.kind, "round-robin", tournaments.rounds_of("round-robin", None, len(playing)),
            {"clock": clock, "seats": 2},
            [Entry(m.player.email, m.player.name, m.bot) for m in playing])
        t = tournaments.new_tournament(session, checked, True, False, "running", now)
        for n, e in enumerate(checked.entries):
            tournaments.enter(session, t, e, n, now)
        session.add(LeagueSeason(league_id=league.id, season=league.season,
                                 division=division, tournament_id=t.id))
        session.flush()
        tournaments.first_round(session, svc, t)
        made.append(t.id)
        names, path = [p.player.name for p in playing], f"/tournaments/{t.id}"
        _tell(session, svc, league, playing, "league_season", lambda m, names=names,
              path=path: {"division": m.division, "path": path,
                          "opponents": [n for n in names if n != m.player.name]})
    return made


def season_over(session: Session, svc: Services, t: Tournament) -> None:
    """The tournaments' end hook: when `t` is a league's division and every division of its
    season has ended, promote and relegate and start the next season."""
    mine = session.scalars(select(LeagueSeason).where(
        LeagueSeason.tournament_id == t.id)).one_or_none()
    if mine is None:
        return
    league = _locked(session, mine.league_id)
    if league.season != mine.season:
        return                     # seen already
    rows = session.scalars(select(LeagueSeason).where(
        LeagueSeason.league_id == league.id, LeagueSeason.season == league.season)).all()
    ts = {r.division: session.get(Tournament, r.tournament_id) for r in rows}
    if any(x.status != "ended" for x in ts.values()):
        return
    moved: dict[int, tuple[int, int, str]] = {}    # player: (place, division, words)
    for division, tournament in sorted(ts.items()):
        board = standings.compute(session, svc, tournament)
        staying = [line for line in board if not line.withdrawn]
        for line in board:
            if line.withdrawn:
                member = session.get(LeagueMember, (league.id, line.player_id))
                member.left = True
        up = {line.player_id for line in staying[:league.promote]} if division > 1 else set()
        down = {line.player_id for line in staying[-league.promote:]} \
            if division < league.divisions and league.promote else set()
        down -= up
        for place, line in enumerate(board, 1):
            member = session.get(LeagueMember, (league.id, line.player_id))
            if member.left:
                words = "you left the league (you resigned a game of the season)"
            elif line.player_id in up:
                member.division, words = division - 1, f"up to division {division - 1}"
            elif line.player_id in down:
                member.division, words = division + 1, f"down to division {division + 1}"
            else:
                words = f"you stay in division {division}"
            moved[line.player_id] = (place, division, words)
    ended = [m for m in session.scalars(select(LeagueMember).where(
        LeagueMember.league_id == league.id)) if m.player_id in moved]
    _tell(session, svc, league, ended, "league_end", lambda m: {
        "place": moved[m.player_id][0], "division": moved[m.player_id][1],
        "moved": moved[m.player_id][2], "path": f"/leagues#league-{league.id}"})
    session.flush()
    start_season(session, svc, league)


def _tell(session: Session, svc: Services, league: League, who: list[LeagueMember],
          kind: str, words) -> None:
    """A letter to each person (not a bot) of `who`: `words(member)` says their part."""
    title = registry.get(league.kind).title
    for m in who:
        if m.bot or m.player.unmailable or m.player.email.endswith(".invalid"):
            continue
        notify.letter(session, m.player.email, kind, {
            "league": league.id, "title": title, "season": league.season, "name": m.player.name,
            **words(m)}, svc.clock.now())


def show(svc: Services, league_id: int) -> LeagueView:
    with svc.db.reading() as session:
        league = session.get(League, league_id)
        if league is None:
            raise NoSuchLeague(f"There is no league {league_id}.")
        return _view(session, svc, league)


def listed(svc: Services) -> list[LeagueView]:
    with svc.db.reading() as session:
        return [_view(session, svc, x) for x in session.scalars(select(League)
                                                                .order_by(League.id))]


def _view(session: Session, svc: Services, league: League) -> LeagueView:
    table = []
    for division in range(1, league.divisions + 1):
        row = session.get(LeagueSeason, (league.id, league.season, division))
        t = session.get(Tournament, row.tournament_id) if row else None
        names = [line.name for line in standings.compute(session, svc, t)] if t else [
            m.player.name for m in members(session, league.id, division)]
        table.append(Division(division, names, t.id if t else None))
    return LeagueView(league.id, registry.get(league.kind).title, league.kind,
                      league.divisions, league.size, league.season_days, league.promote,
                      league.season, league.status, _members_count(session, league.id), table)


tournaments.when_a_tournament_ends(season_over)
