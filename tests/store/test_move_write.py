"""Contract tests of a move's writes together (service.store.movewrites), on every back end: one
statement on PostgreSQL, several elsewhere, the same rows either way; a writer that lost the
race for the sequence numbers (or the receipt's key) gets events.Conflict and nothing of the
move is written; any other refusal is told as what it is."""
from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import event, select
from sqlalchemy.exc import IntegrityError

from service.games.contract import Event
from service.store import EventRow, GameRow, OutboxRow, Seat, Submission, eventstore, movewrites
from service.store.records import Tracked
from tests.store.test_records import NOW, _game

LATER = NOW + timedelta(hours=2)


def _email(gid: int, seat: int, message_id: str) -> dict:
    return {"game_id": gid, "seat": seat, "to_addr": f"s{seat}@example.org", "kind": "turn",
            "message_id": message_id, "seq": 6, "since_seq": None, "payload": {"n": seat},
            "status": "pending", "attempts": 0, "next_try": LATER, "created_at": LATER}


def _move(s, gid: int, *, key: str = "0:link:k", message_ids=("m-a", "m-b"), at_seq=None):
    """The game's second seat takes its turn: two events, a receipt, both seats mailed, the
    game's seq and both seats' clocks changed."""
    tracked = Tracked(s)
    game = tracked.lock_one(gid)
    if at_seq is not None:
        game.seq = at_seq                   # as a writer that read an older position
    rows = eventstore.rows(game, [Event("Played", {"card": "8VL"}), Event("Drew", {"n": 1})],
                            seat=1, source="link", now=LATER)
    receipt = {"game_id": gid, "key": key, "seat": 1, "first_seq": rows[0]["seq"],
               "last_seq": rows[-1]["seq"], "source": "link", "created_at": LATER}
    game.status = "ended"
    game.seats[0].clock, game.seats[0].deadline = {"left": 9}, None
    game.seats[1].clock = {"left": 7}
    emails = [_email(gid, 1, message_ids[1]), _email(gid, 0, message_ids[0])]
    return movewrites.write(s, tracked, rows, receipt, emails)


def test_a_move_writes_its_events_receipt_emails_game_and_seats(db):
    gid = _game(db)
    with db.transaction() as s:
        ids = _move(s, gid)
    with db.transaction() as s:
        # the ids come back in the order the emails were given, not the table's
        assert [s.get(OutboxRow, i).message_id for i in ids] == ["m-b", "m-a"]
        assert s.get(OutboxRow, ids[0]).payload == {"n": 1}
        assert s.get(OutboxRow, ids[0]).next_try == LATER
        got = s.execute(select(EventRow.seq, EventRow.type, EventRow.data, EventRow.seat,
                               EventRow.created_at).where(EventRow.game_id == gid)
                        .order_by(EventRow.seq)).all()
        assert [tuple(r) for r in got] == [(5, "Played", {"card": "8VL"}, 1, LATER),
                                           (6, "Drew", {"n": 1}, 1, LATER)]
        assert s.get(Submission, (gid, "0:link:k")).last_seq == 6
        game = s.get(GameRow, gid)
        assert (game.seq, game.status) == (6, "ended")
        seats = {r.seat: r for r in s.scalars(select(Seat).where(Seat.game_id == gid))}
        assert (seats[0].clock, seats[0].deadline) == ({"left": 9}, None)
        # only what changed is written: the second seat keeps its deadline
        assert (seats[1].clock, seats[1].deadline) == ({"left": 7}, NOW + timedelta(days=2))


def test_a_move_with_no_email_and_no_receipt(db):
    gid = _game(db)
    with db.transaction() as s:
        tracked = Tracked(s)
        game = tracked.lock_one(gid)
        rows = eventstore.rows(game, [Event("Passed", {})], seat=0, source="timer",
                                now=LATER)
        assert movewrites.write(s, tracked, rows, None, []) == []
    with db.transaction() as s:
        assert s.get(GameRow, gid).seq == 5
        assert s.get(EventRow, (gid, 5)).type == "Passed"


@pytest.mark.parametrize("second", [
    {"key": "1:link:other", "at_seq": 4},   # another writer took these sequence numbers
    {"key": "0:link:k"},                    # a double click that got past the receipt check
], ids=["seq taken", "key taken"])
def test_a_move_that_lost_the_race_writes_nothing(db, second):
    gid = _game(db)
    with db.transaction() as s:
        _move(s, gid)
    with pytest.raises(eventstore.Conflict):
        with db.transaction() as s:
            _move(s, gid, message_ids=("m-c", "m-d"), **second)
    with db.transaction() as s:
        assert s.scalars(select(OutboxRow.message_id).where(OutboxRow.game_id == gid)
                         .order_by(OutboxRow.message_id)).all() == ["m-a", "m-b"]
        assert s.scalars(select(Submission.key).where(Submission.game_id == gid)).all() == \
            ["0:link:k"]
        assert s.get(GameRow, gid).seq == 6


def test_a_refusal_that_is_not_a_race_is_not_told_as_one(db):
    """An email whose Message-ID is taken is a bug, not another writer: it surfaces as the
    database's own error."""
    gid = _game(db)
    with db.transaction() as s:
        _move(s, gid)
    with pytest.raises(IntegrityError):
        with db.transaction() as s:
            _move(s, gid, key="1:link:other", message_ids=("m-a", "m-e"))


def test_on_postgresql_a_move_is_one_statement(db):
    """Elsewhere (SQLite has no data-modifying WITH) the same writes one by one."""
    gid = _game(db)
    seen: list[str] = []
    event.listen(db.engine, "before_cursor_execute",
                 lambda _c, _cur, statement, *_a: seen.append(statement.split()[0].upper()))
    with db.transaction() as s:
        tracked = Tracked(s)
        tracked.lock_one(gid)
        seen.clear()
        game = tracked.games[gid]
        rows = eventstore.rows(game, [Event("Played", {})], seat=1, source="link", now=LATER)
        game.seats[1].clock = {"left": 3}
        movewrites.write(s, tracked, rows, None, [_email(gid, 0, "m-x")])
    one_by_one = ["INSERT", "INSERT", "UPDATE", "UPDATE"]   # event, email, game, seat
    assert seen == (["WITH"] if db.engine.dialect.name == "postgresql" else one_by_one)
