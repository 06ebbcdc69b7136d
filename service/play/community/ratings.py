"""Ratings per game (kind), by openskill's Weng-Lin Plackett-Luce model: it rates tables of 2-5
and shared places. A game's end changes its players' ratings in the transaction that records
the end (service.play.time.ending), once: `rating_changes` has one row per game and rated player,
and a game with rows already is not rated again (a replay, an import, a second sweeper).

A rated player is a person ("player:<id>") or a bot level ("bot:normal"), every bot of that
level at every table being one player, so that people can see how strong it is. The scale is
openskill's own multiplied by 60 (a newcomer stands at 1500 ± 500); the rating shown is `mu`.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from service.play import ranking
from service.store.models import Rating, RatingChange

#: openskill's defaults (25, 25/3, 25/6, 25/300) on the familiar scale of 1500
MODEL = PlackettLuce(mu=1500.0, sigma=500.0, beta=250.0, tau=5.0)
#: a rating is provisional (marked) until its player has this many rated games
PROVISIONAL_UNTIL = 10

RATINGS, CHANGES = Rating.__table__, RatingChange.__table__


@dataclass(frozen=True)
class Standing:
    """A rated player's rating in one game."""
    kind: str
    rater: str
    mu: float
    sigma: float
    games: int

    @property
    def rating(self) -> int:
        return round(self.mu)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_UNTIL


def rater_of(seat) -> str:
    """Who a seat's result rates: its bot level, else the person holding it."""
    return f"bot:{seat.bot}" if seat.bot else player_rater(seat.player_id)


def player_rater(player_id: int) -> str:
    """A person as a rated player."""
    return f"player:{player_id}"


def places(game, outcome=None) -> dict[int, int]:
    """Each seat's place (service.play.ranking, RULINGS P1), {} for a game with no result;
    `outcome`: the engine's, for a game that ended before its places were stored."""
    ranked = ranking.of_game(game, outcome)
    return dict(enumerate(ranked.places)) if ranked is not None else {}


def rate_end(session: Session, game, now: datetime, outcome=None) -> bool:
    """Rate a game that has just ended (`game` a GameRow or the sweep's record of one, its
    seats with them): False when it is not rated (unrated, fewer than two rated players, no
    result) or was rated already."""
    if not getattr(game, "rated", True):
        return False
    placed = places(game, outcome)
    seats: dict[str, Any] = {}
    for r in sorted(game.seats, key=lambda r: (placed.get(r.seat, 0), r.seat)):
        # the same bot level twice at one table: its best-placed seat counts, once
        seats.setdefault(rater_of(r), r)
    if len(seats) < 2 or not placed:
        return False
    if session.execute(select(CHANGES.c.id).where(CHANGES.c.game_id == game.id)
                       .limit(1)).first() is not None:
        return False
    before = _locked(session, game.kind, seats, now)
    raters = sorted(seats)
    teams = [[MODEL.rating(mu=before[x].mu, sigma=before[x].sigma)] for x in raters]
    after = MODEL.rate(teams, ranks=[placed[seats[x].seat] for x in raters])
    rows = []
    for x, [new] in zip(raters, after, strict=True):
        old = before[x]
        session.execute(RATINGS.update()
                        .where(RATINGS.c.kind == game.kind, RATINGS.c.rater == x)
                        .values(mu=new.mu, sigma=new.sigma, games=old.games + 1,
                                updated_at=now))
        rows.append(dict(game_id=game.id, rater=x, kind=game.kind,
                         player_id=None if seats[x].bot else seats[x].player_id,
                         seat=seats[x].seat, rank=placed[seats[x].seat], mu_before=old.mu,
                         sigma_before=old.sigma, mu=new.mu, sigma=new.sigma,
                         games=old.games + 1, created_at=now))
    session.execute(CHANGES.insert(), rows)
    return True


def _locked(session: Session, kind: str, seats: dict[str, Any],
            now: datetime) -> dict[str, Standing]:
    """The players' ratings in this game, made at the start if new, under a row lock taken in
    rater order (two games ending at once for one player: the second reads the first's
    result, and the order of the changes' ids is the order they were made in)."""
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    fresh = [dict(kind=kind, rater=x, player_id=None if r.bot else r.player_id,
                  mu=MODEL.mu, sigma=MODEL.sigma, games=0, updated_at=now)
             for x, r in sorted(seats.items())]
    session.execute(dialect.insert(Rating).on_conflict_do_nothing(
        index_elements=["kind", "rater"]), fresh)
    found = session.execute(select(RATINGS).where(RATINGS.c.kind == kind,
                                                  RATINGS.c.rater.in_(sorted(seats)))
                            .order_by(RATINGS.c.rater).with_for_update()).mappings().all()
    return {r["rater"]: Standing(kind, r["rater"], r["mu"], r["sigma"], r["games"])
            for r in found}


def standing(session: Session, kind: str, rater: str) -> Standing | None:
    """A player's rating in one game; None before their first rated game of it."""
    row = session.execute(select(RATINGS).where(RATINGS.c.kind == kind,
                                                RATINGS.c.rater == rater)).mappings().first()
    return Standing(kind, rater, row["mu"], row["sigma"], row["games"]) if row else None


def standings_of(session: Session, rater: str) -> list[Standing]:
    """Every game a player is rated in, by game."""
    rows = session.execute(select(RATINGS).where(RATINGS.c.rater == rater)
                           .order_by(RATINGS.c.kind)).mappings().all()
    return [Standing(r["kind"], rater, r["mu"], r["sigma"], r["games"]) for r in rows]


def leaderboard(session: Session, kind: str) -> list[Standing]:
    """A game's rated players: established ratings first, then provisional ones, each
    highest first (ties: more games, then by name of rater for a stable order)."""
    rows = session.execute(select(RATINGS).where(RATINGS.c.kind == kind)).mappings().all()
    found = [Standing(kind, r["rater"], r["mu"], r["sigma"], r["games"]) for r in rows]
    return sorted(found, key=lambda s: (s.provisional, -s.mu, -s.games, s.rater))


def history(session: Session, kind: str, rater: str) -> list[tuple[datetime, float]]:
    """(when, rating after) of each of a player's rated games of one kind, oldest first."""
    return [(r.created_at, r.mu) for r in session.execute(
        select(CHANGES.c.created_at, CHANGES.c.mu)
        .where(CHANGES.c.kind == kind, CHANGES.c.rater == rater).order_by(CHANGES.c.id))]


def forget(session: Session, kinds: Iterable[str] | None) -> None:
    """Drop the ratings (of these kinds, or all) before a rebuild."""
    for table in (CHANGES, RATINGS):
        stmt = table.delete()
        if kinds is not None:
            stmt = stmt.where(table.c.kind.in_(list(kinds)))
        session.execute(stmt)


