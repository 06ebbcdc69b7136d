"""What the /leagues lobby, a league's page and `flask leagues show` read: the league's terms,
the season being played (or the last one, while the league forms again) division by division
with its standings, and who waits for a place."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select

from service.games import registry
from service.play.services import Services
from service.play.time import clocks
from service.store.models import League, LeagueMember, Tournament

from . import standings
from .leagues import clock_of, divisions_of, members_of, missing


@dataclass(frozen=True)
class DivisionView:
    number: int                     # 1 is the top
    tournament_id: int              # its games and rounds: the tournament's page
    standings: list[standings.Line]
    over: bool


@dataclass(frozen=True)
class LeagueView:
    id: int
    kind: str
    title: str
    divisions: int
    size: int
    season_days: int
    promote: int
    status: str                     # forming | running | closing | closed
    season: int
    clock: str                      # each game's clock, in words
    shown: list[DivisionView]       # the season being played, or the last one
    waiting: list[str]              # members without a division this season
    members: frozenset[int]         # the player ids in the league (not left)


@dataclass(frozen=True)
class Listed:
    id: int
    title: str
    status: str
    season: int
    divisions: int
    size: int
    members: int


def listed(svc: Services, limit: int = 50) -> list[Listed]:
    """The latest leagues, newest first: the /leagues lobby."""
    with svc.db.transaction() as session:
        counts = dict(session.execute(
            select(LeagueMember.league_id, func.count()).where(LeagueMember.left_at.is_(None))
            .group_by(LeagueMember.league_id)).all())
        rows = session.scalars(select(League).order_by(League.id.desc()).limit(limit))
        return [Listed(lg.id, registry.get(lg.kind).title, lg.status, lg.season, lg.divisions,
                       lg.size, counts.get(lg.id, 0)) for lg in rows]


def show(svc: Services, league_id: int) -> LeagueView:
    with svc.db.transaction() as session:
        league = session.get(League, league_id)
        if league is None:
            raise missing(league_id)
        shown = []
        for number, tid in enumerate(divisions_of(session, league.id, league.season), 1):
            t = session.get(Tournament, tid)
            shown.append(DivisionView(number, tid, standings.compute(session, svc, t),
                                      t.status == "ended"))
        active = [m for m in members_of(session, league.id) if m.left_at is None]
        waiting = [m.player.name for m in active if m.division is None]
        words = clocks.describe(clocks.parse_clock(clock_of(league.size, league.season_days)))
        return LeagueView(league.id, league.kind, registry.get(league.kind).title,
                          league.divisions, league.size, league.season_days, league.promote,
                          league.status, league.season, words, shown, waiting,
                          frozenset(m.player_id for m in active))
