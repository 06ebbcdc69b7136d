"""The games waiting on a player (issue 50, "the player's desk"): every game of theirs, other
than the one in hand, where a seat of theirs is to act. A turn email counts them ("Also your
move in 2 other games"), the done page after a move offers the first as "Next game", and the
API's move answer names it as `nextGame`.

The order is the one a player with many games works in: the soonest deadline first (a game
without a clock after every game with one), then the game that has waited longest (its last
move the oldest). Read from the seats' `to_act` column (service.play.repository.mark_turns),
one indexed statement: no game's log is folded."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, bindparam, func, or_, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from service.games import registry
from service.play.moves import Applied, Intent, runner
from service.play.services import Services
from service.store.models import EventRow, GameRow, Seat
from service.store.statuses import GameStatus

#: the games an email names by title; the rest are counted, and /me lists them all
NAMED = 3


@dataclass(frozen=True)
class Waiting:
    game_id: int
    seat: int
    holder: int                  # the seat's holder, for its signed page link
    title: str
    deadline: datetime | None


_GAMES, _SEATS, _EVENTS = GameRow.__table__, Seat.__table__, EventRow.__table__
_BASE = (select(_SEATS.c.game_id, _SEATS.c.seat, _SEATS.c.holder, _SEATS.c.deadline,
                _GAMES.c.kind, _GAMES.c.options)
         .select_from(_SEATS.join(_GAMES, _GAMES.c.id == _SEATS.c.game_id)
                      .outerjoin(_EVENTS, and_(_EVENTS.c.game_id == _GAMES.c.id,
                                               _EVENTS.c.seq == _GAMES.c.seq)))
         .where(_SEATS.c.to_act.is_(True), _SEATS.c.bot.is_(None),
                _GAMES.c.status != GameStatus.ENDED, _GAMES.c.id != bindparam("besides"))
         .order_by(_SEATS.c.deadline.is_(None), _SEATS.c.deadline,
                   _EVENTS.c.created_at, _SEATS.c.game_id, _SEATS.c.seat))


#: the same, for the player holding a seat (the one that just moved): one statement
_MOVED = Seat.__table__.alias("moved")
_HOLDER = (select(_MOVED.c.player_id).where(_MOVED.c.game_id == bindparam("game_id"),
                                            _MOVED.c.seat == bindparam("seat"))
           .scalar_subquery())
_WAITING = _BASE.where(_SEATS.c.player_id == bindparam("player_id"))
_WAITING_FOR_SEAT = _BASE.where(_SEATS.c.player_id == _HOLDER).limit(1)


def waiting(session: Session | Connection, player_id: int, besides: int | None = None
            ) -> list[Waiting]:
    """The player's games waiting on them, in the order to play them; `besides`: a game left
    out (the one the email or the move is about)."""
    rows = session.execute(_WAITING, {"player_id": player_id,
                                      "besides": -1 if besides is None else besides})
    return [Waiting(r.game_id, r.seat, r.holder, registry.title(r.kind, r.options),
                    r.deadline) for r in rows]


@dataclass(frozen=True)
class Shortlist:
    """A player's desk as an email tells it: how many of their games wait on them, and the
    first few in the order to play them (with every seat in the games asked about, so an
    email about one of those leaves it out exactly)."""

    count: int
    first: tuple[Waiting, ...]

    def line(self, besides: int) -> dict | None:
        """The turn email's line for an email about game `besides` (None: nothing else)."""
        others = [w for w in self.first if w.game_id != besides]
        return email_line(others, self.count - (len(self.first) - len(others)))


_ORDER = (_SEATS.c.deadline.is_(None), _SEATS.c.deadline, _EVENTS.c.created_at,
          _SEATS.c.game_id, _SEATS.c.seat)
_ASKED = _SEATS.c.game_id.in_(bindparam("asked", expanding=True))
_RANKED = (_BASE.with_only_columns(
    _SEATS.c.player_id, _SEATS.c.game_id, _SEATS.c.seat, _SEATS.c.holder, _SEATS.c.deadline,
    _GAMES.c.kind, _GAMES.c.options, _ASKED.label("asked"),
    func.count().over(partition_by=_SEATS.c.player_id).label("total"),
    func.row_number().over(partition_by=_SEATS.c.player_id, order_by=_ORDER).label("place"),
    # the place among the games not asked about: the first NAMED of those are all an email
    # about an asked game may name
    func.row_number().over(partition_by=(_SEATS.c.player_id, _ASKED), order_by=_ORDER)
    .label("rank"))
    .where(_SEATS.c.player_id.in_(bindparam("players", expanding=True)))
    .order_by(None).subquery())
_SHORTLISTS = (select(_RANKED).where(or_(_RANKED.c.asked, _RANKED.c.rank <= NAMED))
               .order_by(_RANKED.c.player_id, _RANKED.c.place))


def shortlists(session: Session | Connection, player_ids: set[int], asked: set[int]
               ) -> dict[int, Shortlist]:
    """Each player's Shortlist, for the emails of a group about the games `asked`, in one
    statement that counts in the database and brings back at most NAMED rows a player besides
    the asked games' (a player of a hundred games was a hundred rows, each its options decoded,
    on every email)."""
    if not player_ids:
        return {}
    found: dict[int, list] = {p: [] for p in player_ids}
    totals = dict.fromkeys(player_ids, 0)
    for r in session.execute(_SHORTLISTS, {"players": sorted(player_ids),
                                           "asked": sorted(asked), "besides": -1}):
        totals[r.player_id] = r.total
        found[r.player_id].append(Waiting(r.game_id, r.seat, r.holder,
                                          registry.title(r.kind, r.options), r.deadline))
    return {p: Shortlist(totals[p], tuple(found[p])) for p in player_ids}


def email_line(found: list[Waiting], count: int | None = None) -> dict | None:
    """What a turn email says of the games in `found` (None: none): `count` of them, when
    `found` holds only the first."""
    count = len(found) if count is None else count
    if not count:
        return None
    return {"line": also_line(count), "count": count,
            "titles": [f"{w.title} #{w.game_id}" for w in found[:NAMED]]}


def also_line(count: int) -> str:
    """The turn email's line: "Also your move in 1 other game" / "in 2 other games"."""
    return f"Also your move in {count} other game{'' if count == 1 else 's'}"


def first_waiting(session: Session | Connection, player_id: int | None,
              besides: int) -> Waiting | None:
    """The game to play next after a move in `besides`: the first waiting, or None."""
    if player_id is None:
        return None
    found = waiting(session, player_id, besides=besides)
    return found[0] if found else None


@dataclass(frozen=True)
class NextGame:
    game_id: int
    title: str
    path: str                    # the seat's own game page (a signed view link)


def next_game(svc: Services, game_id: int, seat: int) -> NextGame | None:
    """"Next game" after a move by the seat's player in `game_id`: the game waiting on them
    longest, with its seat page's link; None when nothing else waits on them. One statement,
    and the move changes no other game's turn, so an adapter may read it before the move
    (a move by link reads nothing after its writes: tests/web/test_links.py)."""
    with svc.db.reading() as session:
        return _next_game(session, svc, game_id, seat)


def submit_then_next(svc: Services, intent: Intent) -> tuple[Applied, NextGame | None]:
    """The move (the runner's batch: its refusals raised as `submit` raises them) and the
    game waiting on its player next, read in the move's own transaction before its writes,
    which change no other game's turn: a move by link costs one transaction, not two (issue
    53: the second was a pool checkout, a ping, BEGIN and COMMIT for one statement)."""
    found: list[NextGame | None] = [None]

    def before(session: Session) -> None:
        found[0] = _next_game(session, svc, intent.game_id, intent.seat)

    ran = runner.run(svc, intent, before=before)
    return ran.applied, found[0]


def _next_game(session: Session, svc: Services, game_id: int, seat: int) -> NextGame | None:
    found = session.execute(_WAITING_FOR_SEAT, {
        "besides": game_id, "game_id": game_id, "seat": seat}).first()
    if found is None:
        return None
    return NextGame(found.game_id, registry.title(found.kind, found.options),
                    svc.urls.game_path(found.game_id, found.seat, found.holder))
