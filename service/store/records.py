"""Games read as plain records under their write lock, and written back column by column: the
two hottest writers, a move and the clock sweep's batch, read a game with its seats and their
players and change a few columns. Built as ORM objects, the read cost a move more than its
inserts, and the unit of work's flush more again; here a move reads its game in one prebuilt
statement and writes back, in one UPDATE per table, only the columns that changed.

A record has the model's attribute names (`game.seats[i].player.email`, `seat.clock`), so the
rules that read and set them (service.play.time.deadlines, service.play.notify) take either. Only the
columns in GAME_COLUMNS and SEAT_COLUMNS are written back: what a move or a timeout changes.
"""
from __future__ import annotations

import functools
from types import SimpleNamespace

from sqlalchemy import and_, bindparam, case, exists, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from .models import PLANS_WAITING, GameRow, Note, Plan, Player, Seat, Webhook

GAMES, SEATS, PLAYERS = GameRow.__table__, Seat.__table__, Player.__table__

# the columns a move or the sweep may change
GAME_COLUMNS = ("seq", "status", "result", "outcome", "bots_due")
SEAT_COLUMNS = ("status", "left_order", "clock", "deadline", "remind_at", "mail_held_since",
                "to_act")

_GAME_NAMES = [c.name for c in GAMES.c]
_SEAT_NAMES = [c.name for c in SEATS.c]
_PLAYER_NAMES = [c.name for c in PLAYERS.c]
_GAME_ID = _GAME_NAMES.index("id")

# Games with their seats and players, one row per seat, in one round trip.
_JOINED = (select(*GAMES.c, *SEATS.c, *PLAYERS.c)
           .select_from(GAMES.outerjoin(SEATS, SEATS.c.game_id == GAMES.c.id)
                        .outerjoin(PLAYERS, PLAYERS.c.id == SEATS.c.player_id)))
# One game, locking only the game's row (the lock every writer of a game takes first:
# PostgreSQL queues them here; SQLite's BEGIN IMMEDIATE has already locked the file). Built
# once: building it per call cost as much as running it.
_ONE = _JOINED.where(GAMES.c.id == bindparam("game_id")).order_by(SEATS.c.seat)
# A move's read also says whether the game has plans waiting and whether each seat's player
# has an active webhook, as two EXISTS columns (an index probe each): most games have
# neither, and asking for each in a statement of its own was a fifth of a cold move's
# statements (service.play.moves.submit skips both reads when these say none).
_ONE_LOCKED = (_ONE.add_columns(
    exists().where(Plan.game_id == GAMES.c.id, PLANS_WAITING).label("plans_waiting"),
    exists().where(Webhook.player_id == PLAYERS.c.id, Webhook.active.is_(True)).label("hooked"))
    .with_for_update(of=GAMES))
# several games, for a group of emails (service.play.mail.relay), each saying whether a
# private note is kept on it: the relay reads the notes of those games alone (most have none,
# and their read was a statement of every group's five)
_MANY = (_JOINED.add_columns(exists().where(Note.game_id == GAMES.c.id).label("noted"))
         .where(GAMES.c.id.in_(bindparam("game_ids", expanding=True)))
         .order_by(GAMES.c.id, SEATS.c.seat))


def read_one(session: Session | Connection, game_id: int, *, lock: bool = False) -> SimpleNamespace | None:
    """The game, its seats (in seat order) and their players, in one statement; `lock`: under
    the game's write lock. Read only: `Tracked.lock_one` for a game to write back."""
    if lock:
        rows = session.execute(_ONE_LOCKED, {"game_id": game_id}).all()
        games = _assembled(rows, game_flag="plans_waiting", player_flag="hooked")
    else:
        games = _assembled(session.execute(_ONE, {"game_id": game_id}).all())
    return games[0] if games else None


def read_many(session: Session, game_ids) -> dict[int, SimpleNamespace]:
    """Several games as `read_one` reads one, by id, in one statement (read only), each with
    `noted`: whether any private note is kept on it."""
    ids = sorted(set(game_ids))
    if not ids:
        return {}
    rows = session.execute(_MANY, {"game_ids": ids}).all()
    return {g.id: g for g in _assembled(rows, game_flag="noted")}


def _assembled(rows, game_flag: str | None = None, player_flag: str | None = None
               ) -> list[SimpleNamespace]:
    """Joined game + seat + player rows (a game's together, seats in order) as records. The
    rows may end with an EXISTS column about the game (`game_flag`: its attribute's name),
    then one about each seat's player (`player_flag`)."""
    ng, ns, np = len(_GAME_NAMES), len(_SEAT_NAMES), len(_PLAYER_NAMES)
    games: list[SimpleNamespace] = []
    for row in rows:
        if not games or games[-1].id != row[_GAME_ID]:
            game = SimpleNamespace(**dict(zip(_GAME_NAMES, row[:ng], strict=True)))
            game.seats = []
            if game_flag:
                setattr(game, game_flag, bool(row[ng + ns + np]))
            games.append(game)
        if row[ng] is None:                 # a game without seats (outer join)
            continue
        seat = SimpleNamespace(**dict(zip(_SEAT_NAMES, row[ng:ng + ns], strict=True)))
        seat.player = SimpleNamespace(**dict(zip(_PLAYER_NAMES, row[ng + ns:ng + ns + np],
                                                 strict=True)))
        if player_flag:
            setattr(seat.player, player_flag, bool(row[ng + ns + np + 1]))
        games[-1].seats.append(seat)
    return games


class Tracked:
    """The records read in one transaction, each with its columns as read; `write` sends back
    what changed since."""

    def __init__(self, session: Session):
        self.session = session
        self.games: dict[int, SimpleNamespace] = {}
        self._before: dict[tuple, tuple] = {}

    def lock_one(self, game_id: int) -> SimpleNamespace | None:
        """The game, its seats (in seat order) and their players, under the game's lock."""
        game = read_one(self.session, game_id, lock=True)
        if game is not None:
            self.add(game)
        return game

    def lock_many(self, game_ids: list[int], game_columns) -> list[SimpleNamespace]:
        """Several games (in id order, as every writer of several games locks them), then
        their seats and players: three statements, whatever the number of games."""
        ids = sorted(set(game_ids))
        games_query, seats_query = _locking(tuple(c.name for c in game_columns))
        s = self.session
        games = _records(s, games_query, {"ids": ids})
        seats = _records(s, seats_query, {"ids": ids})
        players = {r.id: r for r in _records(s, _PLAYERS_BY_ID,
                                             {"ids": sorted({r.player_id for r in seats})})}
        by_id = {}
        for game in games:
            game.seats = []
            by_id[game.id] = game
        for r in seats:
            r.player = players[r.player_id]
            by_id[r.game_id].seats.append(r)
        for game in games:
            self.add(game)
        return games

    def add(self, game: SimpleNamespace) -> None:
        self.games[game.id] = game
        self._before[("g", game.id)] = _columns(game, GAME_COLUMNS)
        for r in game.seats:
            self._before[("s", game.id, r.seat)] = _columns(r, SEAT_COLUMNS)

    def write(self) -> None:
        """Send back the columns that changed: for one game (a move) one UPDATE per table; for
        many (the sweep) one executemany per table and set of changed columns."""
        changed_games, changed_seats = self.changes()
        self._executemany(GAMES, ("id",), changed_games)
        if len(self.games) == 1 and len(changed_seats) > 1:
            self._seats_of_one_game(changed_seats)
        else:
            self._executemany(SEATS, ("game_id", "seat"), changed_seats)
        self.expire(changed_games, changed_seats)

    def changes(self) -> tuple[list[tuple[tuple, dict]], list[tuple[tuple, dict]]]:
        """(changed games, changed seats), each ((key...), {column: new value}), for a caller
        that writes them itself (service.store.movewrites); from now on they count as written."""
        games = list(self.games.values())
        found = (self._changes(GAME_COLUMNS, "g", ("id",), games),
                 self._changes(SEAT_COLUMNS, "s", ("game_id", "seat"),
                               [r for g in games for r in g.seats]))
        for game in games:
            self.add(game)
        return found

    def expire(self, changed_games, changed_seats) -> None:
        """Any ORM object of the written rows that the session holds is expired, so that
        nothing reads the values of before."""
        if self.session.identity_map:
            for model, found in ((GameRow, changed_games), (Seat, changed_seats)):
                for ident, _values in found:
                    held = self.session.identity_map.get(Session.identity_key(model, ident))
                    if held is not None:
                        self.session.expire(held)

    def _changes(self, columns: tuple[str, ...], tag: str, keys: tuple[str, ...],
                 rows: list) -> list[tuple[tuple, dict]]:
        """(key, {column: new value}) of each row where a column differs from its value as
        read."""
        found = []
        for row in rows:
            ident = tuple(getattr(row, k) for k in keys)
            was = self._before[(tag, *ident)]
            values = {c: getattr(row, c) for c, old in zip(columns, was, strict=True)
                      if getattr(row, c) != old}
            if values:
                found.append((ident, values))
        return found

    def _executemany(self, table, keys: tuple[str, ...], found: list[tuple[tuple, dict]]) -> None:
        if not found:
            return                      # (building the WHERE clause costs a move even then)
        groups: dict[tuple[str, ...], list[dict]] = {}
        for ident, values in found:
            params = {f"key_{k}": v for k, v in zip(keys, ident, strict=True)}
            groups.setdefault(tuple(values), []).append(params | values)
        for params in groups.values():
            # one row: a plain UPDATE (an executemany is a pipeline on psycopg: more trips)
            self.session.execute(_update(table, keys),
                                 params[0] if len(params) == 1 else params)

    def _seats_of_one_game(self, found: list[tuple[tuple, dict]]) -> None:
        """Several seats of one game in one UPDATE: each changed column set per seat that
        changed it (CASE), every other seat keeping its own. As an executemany this was a
        pipeline on psycopg, two round trips more in every move."""
        game_id = found[0][0][0]
        shape = seat_shape(found)
        params = {"key_game_id": game_id}
        for (_, seat), values in found:
            params.update({f"{c}_{seat}": v for c, v in values.items()})
        self.session.execute(_seats_update(shape), params)


def seat_shape(changed_seats: list[tuple[tuple, dict]]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Which seats of one game set which column: (column, seats) for each changed column, in
    column order; the shape an UPDATE of the seats is built once for."""
    columns = sorted({c for _ident, values in changed_seats for c in values})
    return tuple((c, tuple(seat for (_g, seat), values in changed_seats if c in values))
                 for c in columns)


@functools.lru_cache(maxsize=8)
def _update(table, keys: tuple[str, ...]):
    """UPDATE of the rows whose `keys` equal parameters `key_<key>`, setting the columns the
    parameters name; built once (built per call it cost a move more than running it)."""
    return table.update().where(and_(*(table.c[k] == bindparam(f"key_{k}") for k in keys)))


@functools.lru_cache(maxsize=64)
def _seats_update(shape: tuple[tuple[str, tuple[int, ...]], ...]):
    """UPDATE of one game's seats (parameter `key_game_id`): for each (column, seats) of
    `shape`, those seats' column set from parameter `<column>_<seat>`. Built once per shape
    (built per call it cost more than the round trips it saves)."""
    setting = {c: case({s: bindparam(f"{c}_{s}", type_=SEATS.c[c].type) for s in seats},
                       value=SEATS.c.seat, else_=SEATS.c[c]) for c, seats in shape}
    every = sorted({s for _c, seats in shape for s in seats})
    return (SEATS.update()
            .where(SEATS.c.game_id == bindparam("key_game_id"), SEATS.c.seat.in_(every))
            .values(setting))


@functools.lru_cache(maxsize=8)
def _locking(game_columns: tuple[str, ...]):
    """The games of parameter `ids` (these columns) under their write lock, in id order, and
    their seats: built once per set of columns (built per call, with the ids as literals,
    they cost a sweep's batch as much as running them)."""
    ids = bindparam("ids", expanding=True)
    games = (select(*(GAMES.c[n] for n in game_columns)).where(GAMES.c.id.in_(ids))
             .order_by(GAMES.c.id).with_for_update())
    seats = select(SEATS).where(SEATS.c.game_id.in_(ids)).order_by(SEATS.c.game_id,
                                                                    SEATS.c.seat)
    return games, seats


_PLAYERS_BY_ID = select(PLAYERS).where(PLAYERS.c.id.in_(bindparam("ids", expanding=True)))


def _records(session: Session, query, params) -> list[SimpleNamespace]:
    result = session.execute(query, params)
    names = list(result.keys())
    return [SimpleNamespace(**dict(zip(names, row))) for row in result.all()]


def _columns(row, names: tuple[str, ...]) -> tuple:
    return tuple(getattr(row, n) for n in names)
