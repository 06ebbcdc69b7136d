"""Contract tests of the plain game records a move and the sweep write through
(service.store.records), on every back end: read under the lock with their seats and players,
written back only where they changed, and no ORM object of the same rows left holding the
values of before."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import event, select

from service.store import GameRow, Player, Seat
from service.store.records import Tracked

NOW = datetime(2026, 11, 24, 9, 30, tzinfo=timezone.utc)


def _game(db, seats=("ann@example.org", "bob@example.org")) -> int:
    with db.transaction() as s:
        g = GameRow(kind="trees", options={"deck": "x"}, seq=4, status="active",
                    created_at=NOW, clock="3d", on_timeout="bot")
        s.add(g)
        s.flush()
        # seats added out of order: the record lists them in seat order
        for n, email in reversed(list(enumerate(seats))):
            p = Player(email=email, name=email.split("@")[0], created_at=NOW)
            s.add(p)
            s.flush()
            s.add(Seat(game_id=g.id, seat=n, player_id=p.id, muted=False,
                       clock={"left": n}, deadline=NOW + timedelta(days=n + 1)))
        return g.id


def _statements(db) -> list[str]:
    seen: list[str] = []
    event.listen(db.engine, "before_cursor_execute",
                 lambda _c, _cur, statement, *_a: seen.append(statement.split()[0]))
    return seen


def test_a_locked_game_comes_with_its_seats_in_order_and_their_players(db):
    gid = _game(db)
    with db.transaction() as s:
        game = Tracked(s).lock_one(gid)
    assert (game.id, game.kind, game.options, game.seq, game.clock) == \
        (gid, "trees", {"deck": "x"}, 4, "3d")
    assert [r.seat for r in game.seats] == [0, 1]
    assert [r.player.email for r in game.seats] == ["ann@example.org", "bob@example.org"]
    assert game.seats[1].clock == {"left": 1}
    # times come back aware, as through the ORM
    assert game.seats[0].deadline == NOW + timedelta(days=1)
    assert game.seats[0].deadline.tzinfo is not None


def test_no_such_game_is_none(db):
    with db.transaction() as s:
        assert Tracked(s).lock_one(987654) is None


def test_a_game_without_seats_has_an_empty_list(db):
    gid = _game(db, seats=())
    with db.transaction() as s:
        assert Tracked(s).lock_one(gid).seats == []


def test_only_the_changed_columns_are_written_back(db):
    gid = _game(db)
    with db.transaction() as s:
        tracked = Tracked(s)
        game = tracked.lock_one(gid)
        game.seq, game.bots_due = 5, True
        game.seats[1].clock, game.seats[1].deadline = {"left": 9}, None
        game.seats[0].status = "absent"
        game.public = False            # not a column a move changes: never written
        seen = _statements(db)
        tracked.write()
    # one UPDATE of the game, one of its seats (each seat keeps what it did not change)
    assert seen == ["UPDATE", "UPDATE"]
    with db.transaction() as s:
        row = s.get(GameRow, gid)
        assert (row.seq, row.bots_due, row.public) == (5, True, True)
        first, second = sorted(row.seats, key=lambda r: r.seat)
        assert (first.status, first.clock) == ("absent", {"left": 0})
        assert (second.status, second.clock, second.deadline) == ("active", {"left": 9}, None)


def test_seats_of_several_games_are_written_each_to_its_own(db):
    """The sweep's case: many games, an executemany per set of changed columns."""
    ids = [_game(db, seats=(f"a{n}@example.org", f"b{n}@example.org")) for n in range(2)]
    with db.transaction() as s:
        tracked = Tracked(s)
        one, two = tracked.lock_many(ids, GameRow.__table__.c)
        one.seats[0].clock, two.seats[0].clock = {"n": 1}, {"n": 2}
        two.seats[1].status = "resigned"
        tracked.write()
    with db.transaction() as s:
        assert [s.get(Seat, (ids[0], n)).clock for n in (0, 1)] == [{"n": 1}, {"left": 1}]
        assert [s.get(Seat, (ids[1], n)).clock for n in (0, 1)] == [{"n": 2}, {"left": 1}]
        assert [s.get(Seat, (ids[1], n)).status for n in (0, 1)] == ["active", "resigned"]


def test_nothing_changed_writes_nothing(db):
    gid = _game(db)
    with db.transaction() as s:
        tracked = Tracked(s)
        tracked.lock_one(gid)
        seen = _statements(db)
        tracked.write()
    assert seen == []


def test_an_orm_object_of_a_written_row_does_not_keep_the_old_values(db):
    gid = _game(db)
    with db.transaction() as s:
        orm_game = s.get(GameRow, gid)
        orm_seat = s.get(Seat, (gid, 1))
        assert (orm_game.seq, orm_seat.clock) == (4, {"left": 1})
        tracked = Tracked(s)
        game = tracked.lock_one(gid)
        game.seq = 6
        game.seats[1].clock = {"left": 2}
        tracked.write()
        # the session's own objects read the new values (they were expired)
        assert orm_game.seq == 6
        assert orm_seat.clock == {"left": 2}
        assert s.scalar(select(GameRow.seq).where(GameRow.id == gid)) == 6


def test_changes_pending_on_orm_objects_are_seen_and_kept(db):
    """The session flushes them before the records' query (autoflush), so the records see them
    and `write`, which expires those objects, does not discard them."""
    gid = _game(db)
    with db.transaction() as s:
        orm_seat = s.get(Seat, (gid, 0))
        orm_seat.muted = True              # not flushed yet
        orm_seat.clock = {"left": 7}
        tracked = Tracked(s)
        game = tracked.lock_one(gid)
        assert game.seats[0].muted is True and game.seats[0].clock == {"left": 7}
        game.seats[0].deadline = None
        tracked.write()
    with db.transaction() as s:
        seat = s.get(Seat, (gid, 0))
        assert (seat.muted, seat.clock, seat.deadline) == (True, {"left": 7}, None)


def test_several_games_are_read_in_three_statements(db):
    ids = [_game(db, seats=(f"a{n}@example.org", f"b{n}@example.org")) for n in range(3)]
    with db.transaction() as s:
        tracked = Tracked(s)
        seen = _statements(db)
        games = tracked.lock_many(list(reversed(ids)), GameRow.__table__.c)
        assert [x for x in seen if x != "BEGIN"] == ["SELECT"] * 3    # SQLite: BEGIN IMMEDIATE
        assert [g.id for g in games] == sorted(ids)
        assert all([r.seat for r in g.seats] == [0, 1] for g in games)
        games[2].seats[0].remind_at = NOW
        tracked.write()
    with db.transaction() as s:
        assert s.get(Seat, (sorted(ids)[2], 0)).remind_at == NOW
