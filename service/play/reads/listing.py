"""A player's games as their rows tell them, for the lists (/me, the API's game list): each
game with its seats and their players, whose move it is (`seats.to_act`), how it ended
(`games.result`, else `games.outcome`) and when it last moved, in two statements for any
number of games. No game's log is folded: that grows with every game a player has
(docs/performance.md, "A player's games")."""
from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from types import SimpleNamespace

from sqlalchemy import DateTime, Select, Text, and_, bindparam, cast, select, type_coerce
from sqlalchemy.orm import Session

from service.games import registry
from service.store.models import EventRow, GameRow, Player, Seat
from service.store.statuses import GameStatus
from service.store.types import UTCDateTime

GAMES, SEATS, PLAYERS, EVENTS = (GameRow.__table__, Seat.__table__, Player.__table__,
                                 EventRow.__table__)
_GAME = ("id", "kind", "status", "seq", "result", "outcome", "public", "public_id",
         "tournament_id", "created_at")
_SEAT = ("seat", "holder", "deadline", "to_act", "player_id")
# Only the columns a list shows: the games' options and the seats' clocks (JSON) cost more to
# read than the rest; of the options, only those a game's name depends on ("Magnate Roller":
# registry.title), read out of the JSON by the database. Each game's last event (its row's
# `seq`: one index lookup) gives the time it last moved. One statement, built once.
_NAMED_BY = registry.PRESET_KEYS
# A game's columns come again with each of its seats: its documents (`result`, `outcome`,
# JSON) are read as their text and its times (its own, its last event's) without the UTC
# type, each made into its value once per game (_found) rather than once per row.
_ONCE_A_GAME = {"result": lambda c: cast(c, Text).label("result"),
                "outcome": lambda c: cast(c, Text).label("outcome"),
                "created_at": lambda c: type_coerce(c, DateTime()).label("created_at")}
_UTC = UTCDateTime()
_ROWS = (select(*(_ONCE_A_GAME.get(c, lambda c: c)(GAMES.c[c]) for c in _GAME),
                *(GAMES.c.options[key].as_string() for key in _NAMED_BY),
                *(SEATS.c[c] for c in _SEAT), PLAYERS.c.name,
                type_coerce(EVENTS.c.created_at, DateTime()).label("moved_at"))
         .select_from(GAMES.join(SEATS, SEATS.c.game_id == GAMES.c.id)
                      .join(PLAYERS, PLAYERS.c.id == SEATS.c.player_id)
                      .outerjoin(EVENTS, and_(EVENTS.c.game_id == GAMES.c.id,
                                              EVENTS.c.seq == GAMES.c.seq)))
         .order_by(GAMES.c.id, SEATS.c.seat))
_LISTED = _ROWS.where(GAMES.c.id.in_(bindparam("game_ids", expanding=True)))


def games(session: Session, game_ids: Iterable[int]
          ) -> dict[int, tuple[SimpleNamespace, datetime | None]]:
    """game id -> (the game's record: the listed columns, its seats in seat order, each
    with its player's name as `seat.player.name` and its player's id as `seat.player_id`;
    the time of its last event, None before its first)."""
    ids = sorted(set(game_ids))
    if not ids:
        return {}
    return _found(session.execute(_LISTED, {"game_ids": ids}))


def games_among(session: Session, game_ids: Select
                ) -> dict[int, tuple[SimpleNamespace, datetime | None]]:
    """As `games`, for the games whose ids `game_ids` selects (one column), read in the same
    statement: /me's seats of a player are not a round trip of their own."""
    return _found(session.execute(_ROWS.where(GAMES.c.id.in_(game_ids))))


def _found(rows) -> dict[int, tuple[SimpleNamespace, datetime | None]]:
    found: dict[int, tuple[SimpleNamespace, datetime | None]] = {}
    ng, no, ns = len(_GAME), len(_NAMED_BY), len(_SEAT)
    at = ng + no                    # where a row's seat columns start
    for row in rows:
        if row[0] not in found:
            values = dict(zip(_GAME, row[:ng], strict=True))
            for name in ("result", "outcome"):
                values[name] = None if values[name] is None else json.loads(values[name])
            values["created_at"] = _UTC.process_result_value(values["created_at"], None)
            game = SimpleNamespace(**values, seats=[],
                                   options=dict(zip(_NAMED_BY, row[ng:ng + no], strict=True)))
            found[row[0]] = (game, _UTC.process_result_value(row[-1], None))
        seat = SimpleNamespace(**dict(zip(_SEAT, row[at:at + ns], strict=True)),
                               player=SimpleNamespace(name=row[at + ns]))
        found[row[0]][0].seats.append(seat)
    return found


def to_act(game: SimpleNamespace) -> list[int]:
    """The seats to act, in seat order; none in a game over (the service's end as the
    engine's: service.play.time.ending.finish clears them)."""
    if game.status == GameStatus.ENDED:
        return []
    return [s.seat for s in game.seats if s.to_act]


def outcome(game: SimpleNamespace) -> dict | None:
    """How the game ended as its page shows it: a result the service decided (a resignation,
    a forfeit) before the engine's outcome (service.play.reads.seatpage)."""
    return game.result or game.outcome


def seat_of(game: SimpleNamespace, seat: int) -> SimpleNamespace:
    return next(s for s in game.seats if s.seat == seat)
