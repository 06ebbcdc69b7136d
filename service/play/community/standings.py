"""A tournament's standings from its finished games: points, then the tie-breaks.

A game's points for a seat are its share of the tablemates it finished above (a win at a
two-player table is 1, a shared result 1/2, a loss 0), by the game's places
(service.play.ranking, RULINGS P1: a seat that resigned or forfeited below every seat that
stayed, the first to leave lowest). A bye (or a forfeit by a withdrawn opponent) scores as a
win. Tie-breaks (`TIE_BREAKS`): a Swiss uses Buchholz (the tablemates' points, averaged per
table), then Sonneborn-Berger (each tablemate's points weighted by the result against them);
a round robin, where everyone meets everyone, Sonneborn-Berger alone."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from itertools import combinations

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.mailwire.outbound.catalogs import _
from service.play import ranking, repository
from service.play.services import Services
from service.store.models import GameRow, Tournament, TournamentEntrant, TournamentRound

from .pairing import pair_key


@dataclass
class Line:
    player_id: int
    name: str
    entry: int
    points: float = 0.0
    played: int = 0
    byes: int = 0
    buchholz: float = 0.0
    berger: float = 0.0
    withdrawn: bool = False
    games: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Finished:
    game_id: int
    players: list[int]                    # by seat
    versus: dict[tuple[int, int], float]  # (a, b): a's result against b: 1, 1/2 or 0


#: the tie-breaks each format ranks by after points, in order (the page shows these only)
TIE_BREAKS = {"swiss": ("buchholz", "berger"), "round-robin": ("berger",)}
TIE_BREAK_NAMES = {"buchholz": "Buchholz", "berger": "Sonneborn-Berger"}


def finished_games(session: Session, svc: Services, t: Tournament) -> list[Finished]:
    out = []
    games = session.scalars(select(GameRow).where(GameRow.tournament_id == t.id,
                                                  GameRow.status == "ended")
                            .order_by(GameRow.id)).all()
    for game in games:
        outcome = None
        if not (game.result or {}).get("places"):   # ended before places were stored
            pos = repository.load(session, svc.states, game.id)
            outcome = pos.engine.outcome(pos.state)
        ranked = ranking.of_game(game, outcome)
        if ranked is None:
            continue
        players = [r.player_id for r in game.seats]
        versus = {}
        for a, b in combinations(range(len(players)), 2):
            versus[(players[a], players[b])] = ranked.against(a, b)
            versus[(players[b], players[a])] = ranked.against(b, a)
        out.append(Finished(game.id, players, versus))
    return out


def compute(session: Session, svc: Services, t: Tournament) -> list[Line]:
    entrants = session.scalars(select(TournamentEntrant)
                               .where(TournamentEntrant.tournament_id == t.id)).all()
    lines = {e.player_id: Line(e.player_id, e.player.name, e.entry,
                               withdrawn=e.withdrawn_round is not None) for e in entrants}
    games = finished_games(session, svc, t)
    for g in games:
        share = 1 / (len(g.players) - 1)
        for p in g.players:
            lines[p].points += share * sum(v for (a, _), v in g.versus.items() if a == p)
            lines[p].played += 1
            lines[p].games.append(g.game_id)
    for r in session.scalars(select(TournamentRound).where(TournamentRound.tournament_id == t.id)):
        for p in r.byes:
            lines[p].points += 1
            lines[p].byes += 1
    for g in games:
        share = 1 / (len(g.players) - 1)
        for p in g.players:
            mates = [q for q in g.players if q != p]
            lines[p].buchholz += share * sum(lines[q].points for q in mates)
            lines[p].berger += share * sum(g.versus[(p, q)] * lines[q].points for q in mates)
    used = tie_breaks(t.format)

    def rank(line: Line) -> tuple:
        return (-line.points, *(-getattr(line, name) for name in used), line.entry)

    return sorted(lines.values(), key=rank)


def tie_breaks(fmt: str) -> tuple[str, ...]:
    """The tie-breaks a format ranks by (Line attributes), in order."""
    return TIE_BREAKS.get(fmt, TIE_BREAKS["swiss"])


def history(session: Session, tournament_id: int) -> tuple[set[frozenset], set[int]]:
    """The pairs that have shared a table, and who has had a bye."""
    met: set[frozenset] = set()
    games = session.scalars(select(GameRow).where(GameRow.tournament_id == tournament_id)).all()
    for game in games:
        seated = [r.player_id for r in game.seats]
        met.update(pair_key(a, b) for a, b in combinations(seated, 2))
    had_bye = {p for r in session.scalars(select(TournamentRound).where(
        TournamentRound.tournament_id == tournament_id)) for p in r.byes}
    return met, had_bye


def figure(x: float) -> str:
    return f"{x:g}" if x == int(x) else f"{x:.2f}".rstrip("0")


def points_text(points: float | None) -> str:
    return "" if points is None else figure(points)


def line_text(place: int, line: Line, fmt: str = "swiss") -> str:
    """One line of the standings in words (the language of the moment's), with the
    tie-breaks the format uses."""
    mark = " " + _("(withdrew)") if line.withdrawn else ""
    breaks = ", ".join(f"{TIE_BREAK_NAMES[name]} {figure(getattr(line, name))}"
                       for name in tie_breaks(fmt))
    return f"{place:>2}. {line.name}{mark}: " + _("%(points)s points (%(breaks)s)",
                                                   points=figure(line.points), breaks=breaks)


def game_points(versus: dict, players: list[int]) -> dict[int, float]:
    """Each seat's points in one game (for the page's result column)."""
    share = 1 / (len(players) - 1)
    points: dict[int, float] = defaultdict(float)
    for (a, _b), v in versus.items():
        points[a] += share * v
    return dict(points)
