"""Following a game or a tournament (issue 50, item 4): a signed-in player follows a public
game, or a whole tournament, and gets one digest email a day of the moves made, as spectators
see them (the history with no seat's eyes: never a hand, never a chat line, which lives
elsewhere), with a one-click unfollow link. The game page shows "Follow" and how many follow.

Who may follow is who may read: a game is followed only where its public page is on, or by
its own players (readpolicy.sees_table), and a private game is refused word for word as
reading it is. A game whose page is turned off later is left out of the digest from then on.
A tournament is public by design; the digest tells its games whose public page is on."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from service.display.seatview import history
from service.games import registry
from service.mailwire.outbound.catalogs import N_, _
from service.play import notify, readpolicy, repository
from service.play.errors import Refused
from service.play.readpolicy import Reader
from service.play.services import Services
from service.store import eventstore
from service.store.models import Follow, GameRow, Player, Tournament

#: a follower hears at most once in this long
EVERY = timedelta(days=1)
#: lines one game contributes to a digest (the rest are counted, the page has them all)
LINES_PER_GAME = 30
#: follows one player may keep
MAX_FOLLOWS = 200
NO_TOURNAMENT = N_("There is no such tournament.")


class FollowRefused(Refused):
    title = N_("That cannot be followed")


@dataclass(frozen=True)
class Followed:
    follow_id: int
    words: str


def follow_game(svc: Services, player_id: int, game_id: int,
                public_id: str | None = None) -> Followed:
    """Follow a game the player may read (its public page named by `public_id`, or their own
    game); a game they may not read is "no such game", as reading it would be."""
    now = svc.clock.now()
    with svc.db.transaction() as session:
        readpolicy.admit(lambda: repository.game_row(session, game_id),
                         Reader.player(player_id, public_id), readpolicy.sees_table)
        return _follow(session, player_id, now, game_id=game_id)


def follow_tournament(svc: Services, player_id: int, tournament_id: int) -> Followed:
    now = svc.clock.now()
    with svc.db.transaction() as session:
        if session.get(Tournament, tournament_id) is None:
            raise FollowRefused(_(NO_TOURNAMENT))
        return _follow(session, player_id, now, tournament_id=tournament_id)


def _follow(session: Session, player_id: int, now: datetime, **target: int) -> Followed:
    found = session.scalars(select(Follow).where(Follow.player_id == player_id, *(
        getattr(Follow, k) == v for k, v in target.items()))).first()
    if found is not None:
        return Followed(found.id, _("You follow it already: its moves come in your daily "
                                    "digest."))
    kept = session.scalar(select(func.count()).select_from(Follow)
                          .where(Follow.player_id == player_id)) or 0
    if kept >= MAX_FOLLOWS:
        raise FollowRefused(_("You follow %(n)s games and tournaments, the most one may; "
                              "unfollow some (each digest has the link) to follow more.",
                              n=kept))
    row = Follow(player_id=player_id, created_at=now, sent_until=now, **target)
    session.add(row)
    session.flush()
    return Followed(row.id, _("Followed: a digest of its moves comes by email once a day, "
                              "each with a link to stop."))


def unfollow(svc: Services, follow_id: int) -> str:
    """The digest's one-click link (a signed link naming the follow; POST only)."""
    with svc.db.transaction() as session:
        row = session.get(Follow, follow_id)
        if row is None:
            return _("You no longer follow it; nothing more will come.")
        session.delete(row)
    return _("Unfollowed: no more digests of it will come.")


def followers(session, game_id: int) -> int:
    """How many follow the game (the game page shows it)."""
    return session.scalar(select(func.count()).select_from(Follow)
                          .where(Follow.game_id == game_id)) or 0


def follows_game(session, player_id: int | None, game_id: int) -> bool:
    return player_id is not None and session.scalar(select(Follow.id).where(
        Follow.player_id == player_id, Follow.game_id == game_id)) is not None


def send_digests(svc: Services) -> list[int]:
    """The daily digests that are due: each follow whose last digest is a day old gets one
    email of the moves made since, if any were (the sweep calls it)."""
    now = svc.clock.now()
    queued: list[int] = []
    with svc.db.transaction() as session:
        due = session.scalars(select(Follow).where(Follow.sent_until <= now - EVERY)
                              .order_by(Follow.id)).all()
        for row in due:
            player = session.get(Player, row.player_id)
            games = _games(session, row)
            told = [g for g in (_told(session, svc, game, row.sent_until, now)
                                for game in games) if g["lines"]]
            row.sent_until = now
            if not told or player.suppressed or player.bounced_at is not None:
                continue
            queued.append(notify.letter(session, player.email, "follow_digest", {
                "name": player.name, "what": _what(session, row), "games": told,
                "follow": row.id}, now).id)
    return queued


def _games(session: Session, row: Follow) -> list[GameRow]:
    """The followed games whose public page is on (a tournament's games, or the one)."""
    if row.game_id is not None:
        games = [session.get(GameRow, row.game_id)]
    else:
        games = session.scalars(select(GameRow).where(GameRow.tournament_id ==
                                                      row.tournament_id)
                                .order_by(GameRow.id)).all()
    return [g for g in games if g is not None and readpolicy.public_page(g)]


def _told(session: Session, svc: Services, game: GameRow, since: datetime,
          now: datetime) -> dict:
    """The game's moves between `since` and `now`, as spectators see them."""
    recorded = [r for r in eventstore.load(session, game) if since < r.at <= now]
    engine = registry.get(game.kind)
    names = [s.player.name for s in game.seats]
    lines = [h["text"] for h in history(engine, [(r.seq, r.event) for r in recorded], None,
                                        names)]
    return {"title": f"{registry.title(game.kind, game.options)} #{game.id}",
            "path": svc.urls.public_game_path(game.public_id),
            "lines": lines[:LINES_PER_GAME], "more": max(0, len(lines) - LINES_PER_GAME)}


def _what(session: Session, row: Follow) -> str:
    if row.game_id is not None:
        game = session.get(GameRow, row.game_id)
        return f"{registry.title(game.kind, game.options)} #{game.id}"
    t = session.get(Tournament, row.tournament_id)
    return f"the {registry.title(t.kind, {})} tournament #{t.id}"
