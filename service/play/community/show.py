"""What a tournament's page, the API and `flask tournaments show` read: the standings, each
round's tables with their results, and the byes."""
from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import func, select

from service.games import registry
from service.play import readpolicy
from service.play.services import Services
from service.store.models import GameRow, Player, Tournament, TournamentEntrant, TournamentRound

from . import standings
from .invites import invites_of, status_of
from .tournaments import tournament_of


@dataclass(frozen=True)
class Table:
    game_id: int
    public_id: str                  # "" when its players keep its page off
    players: list[str]
    over: bool
    points: list[float | None]      # each seat's points once the game is over


@dataclass(frozen=True)
class RoundView:
    number: int
    tables: list[Table]
    byes: list[str]


@dataclass(frozen=True)
class TournamentView:
    id: int
    kind: str
    title: str
    format: str
    rounds: int
    round: int
    status: str
    rated: bool
    no_vacation: bool
    clock: str
    table: int
    standings: list[standings.Line]
    played: list[RoundView]
    created_by: int | None = None       # a lobby tournament's maker
    invited: list[Invited] = field(default_factory=list)

    @property
    def tie_breaks(self) -> list[tuple[str, str]]:
        """(Line attribute, name) of each tie-break the format ranks by, in order: the
        standings show these and no other."""
        return [(name, standings.TIE_BREAK_NAMES[name])
                for name in standings.tie_breaks(self.format)]


@dataclass(frozen=True)
class Invited:
    """An address invited to a lobby tournament: shown to its maker only."""
    email: str
    status: str         # pending | accepted | declined | expired | closed


@dataclass(frozen=True)
class Listed:
    id: int
    title: str
    format: str
    status: str
    round: int
    rounds: int
    entrants: int


def listed(svc: Services, limit: int = 50) -> list[Listed]:
    """The latest tournaments, newest first: the /tournaments page."""
    with svc.db.transaction() as session:
        counts = dict(session.execute(select(TournamentEntrant.tournament_id, func.count())
                                      .group_by(TournamentEntrant.tournament_id)).all())
        rows = session.scalars(select(Tournament).order_by(Tournament.id.desc()).limit(limit))
        return [Listed(t.id, registry.get(t.kind).title, t.format, t.status, t.round, t.rounds,
                       counts.get(t.id, 0)) for t in rows]


def show(svc: Services, tournament_id: int) -> TournamentView:
    with svc.db.transaction() as session:
        t = tournament_of(session, tournament_id)
        board = standings.compute(session, svc, t)
        finished = {g.game_id: g for g in standings.finished_games(session, svc, t)}
        names = {line.player_id: line.name for line in board}
        played = []
        for r in session.scalars(select(TournamentRound).where(
                TournamentRound.tournament_id == t.id).order_by(TournamentRound.round)):
            tables = []
            for game_id in r.games:
                game = session.get(GameRow, game_id)
                seated = [s.player_id for s in game.seats]
                done = finished.get(game_id)
                points = standings.game_points(done.versus, seated) if done else {}
                # a tournament's games are shown to everyone (players, points), each linked
                # to its public page where that page is on (readpolicy.public_page)
                tables.append(Table(game_id, readpolicy.public_page(game) or "",
                                    [names.get(p) or session.get(Player, p).name for p in seated],
                                    done is not None, [points.get(p) for p in seated]))
            played.append(RoundView(r.round, tables, [names[p] for p in r.byes]))
        now = svc.clock.now()
        invited = [Invited(i.email, status_of(i, now)) for i in invites_of(session, t.id)]
        return TournamentView(t.id, t.kind, registry.get(t.kind).title, t.format, t.rounds,
                              t.round, t.status, t.rated, t.no_vacation,
                              t.options.get("clock") or "", t.options.get("seats", 2), board,
                              played, t.created_by, invited)

