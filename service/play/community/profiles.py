"""What others may see of a player (/players/<handle>: never the address) and a game's
leaderboard (/ratings/<game>), and the player's own choice to hide their profile."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select

from service.games import registry
from service.mailwire.outbound.catalogs import N_, _
from service.store.models import GameRow, Player, Rating, Seat
from service.store.statuses import GameStatus

from ..errors import PlayError
from ..services import Services
from . import ratings
from .activity import activity

BOT_NAMES = {"easy": "Easy bot", "normal": "Normal bot"}


class NoSuchBoard(PlayError):
    title = N_("No such game")


@dataclass(frozen=True)
class GameRating:
    kind: str
    title: str
    rating: int
    sigma: float
    games: int
    provisional: bool
    history: tuple[tuple[datetime, float], ...]    # (when, rating after) per rated game


@dataclass(frozen=True)
class Profile:
    handle: str
    name: str
    ratings: tuple[GameRating, ...]
    played: int                     # games they have held a seat in
    finished: int                   # of those, ended (resigned and lost on time included)
    turns: int
    reliability: float | None       # 0..1: turns moved before the deadline
    quickness: timedelta | None     # median time to move


@dataclass(frozen=True)
class BoardLine:
    place: int | None               # None: provisional (listed after, unnumbered)
    name: str
    handle: str | None              # None: a bot level, or a hidden profile
    rater: str
    rating: int
    games: int
    provisional: bool


@dataclass(frozen=True)
class Board:
    kind: str
    title: str
    lines: tuple[BoardLine, ...]


def _title(kind: str) -> str:
    try:
        return registry.get(kind).title
    except registry.UnknownGame:
        return kind


def profile(svc: Services, handle: str, viewer_id: int | None = None) -> Profile | None:
    """The player's public profile; None for no such handle, and for a hidden profile seen by
    anyone but its owner (the two answer alike)."""
    with svc.db.transaction() as session:
        player = session.scalars(select(Player).where(Player.handle == handle)).first()
        if player is None or (player.profile_hidden and player.id != viewer_id):
            return None
        rater = bot_rater(player) or ratings.player_rater(player.id)
        shown = tuple(GameRating(s.kind, _title(s.kind), s.rating, s.sigma, s.games,
                                 s.provisional, tuple(ratings.history(session, s.kind, rater)))
                      for s in ratings.standings_of(session, rater))
        games = session.execute(select(GameRow.status)
                                .join(Seat, GameRow.id == Seat.game_id)
                                .where(Seat.player_id == player.id,
                                       GameRow.status != GameStatus.FORMING)).scalars().all()
        done = activity(session, player.id)
        # a game they resigned or lost on time is finished too: it has its result (a loss)
        return Profile(player.handle, player.name, shown, len(games),
                       sum(1 for status in games if status == GameStatus.ENDED),
                       done.turns, done.reliability, done.quickness)


def bot_rater(player: Player) -> str | None:
    """A bot's player (bot-normal-2@bots.invalid) is rated as its level."""
    local, _, domain = player.email.partition("@")
    parts = local.split("-")
    if domain == "bots.invalid" and len(parts) == 3 and parts[1] in BOT_NAMES:
        return f"bot:{parts[1]}"
    return None


def board(svc: Services, kind: str) -> Board:
    """A game's leaderboard: established ratings first, numbered, then provisional ones."""
    try:
        engine = registry.get(kind)
    except registry.UnknownGame:
        games = ", ".join(sorted(registry.available()))
        raise NoSuchBoard(_("There is no game called %(kind)r; the games are %(games)s.",
                            kind=kind[:40], games=games)) from None
    with svc.db.transaction() as session:
        standings = ratings.leaderboard(session, kind)
        ids = [int(s.rater.split(":")[1]) for s in standings if s.rater.startswith("player:")]
        people = {p.id: p for p in session.scalars(select(Player).where(Player.id.in_(ids)))}
        lines, place = [], 0
        for s in standings:
            who, what = s.rater.split(":", 1)
            if who == "bot":
                name, handle = f"{BOT_NAMES.get(what, what)} ({s.rater})", None
            else:
                p = people.get(int(what))
                name = p.name if p else "(gone)"
                handle = p.handle if p and not p.profile_hidden else None
            if not s.provisional:
                place += 1
            lines.append(BoardLine(None if s.provisional else place, name, handle, s.rater,
                                   s.rating, s.games, s.provisional))
    return Board(kind, engine.title, tuple(lines))


def profile_setting(svc: Services, player_id: int) -> tuple[str, bool]:
    """The player's own handle and whether their profile is hidden (for /me)."""
    with svc.db.transaction() as session:
        player = session.get(Player, player_id)
        return player.handle, player.profile_hidden


def hide_profile(svc: Services, player_id: int, hidden: bool) -> None:
    with svc.db.transaction() as session:
        session.get(Player, player_id).profile_hidden = hidden


def rated_games(svc: Services) -> list[tuple[str, str, int]]:
    """(kind, title, rated players) of every game with ratings."""
    with svc.db.transaction() as session:
        rows = session.execute(select(Rating.kind, func.count()).group_by(Rating.kind)).all()
    return [(k, _title(k), n) for k, n in sorted(rows)]
