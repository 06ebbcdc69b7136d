"""Contract tests of the event store, run against every back end (SQLite and PostgreSQL):
appending at a taken (game_id, seq) is a conflict, never an overwrite; an idempotency key is
taken once; timestamps come back as aware UTC."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from service.games.contract import Event
from service.store import EventRow, GameRow, InboundMessage, Submission, eventstore

NOW = datetime(2026, 11, 22, 15, 14, tzinfo=timezone.utc)


def _game(db) -> int:
    with db.transaction() as s:
        g = GameRow(kind="trees", options={}, seq=0, status="active", created_at=NOW)
        s.add(g)
        s.flush()
        s.add(EventRow(game_id=g.id, seq=1, type="GameStarted", data={"x": [1, 2]}, seat=None,
                       source="start", created_at=NOW))
        return g.id


def test_events_read_back_in_order_with_aware_times(db):
    gid = _game(db)
    with db.transaction() as s:
        s.add(EventRow(game_id=gid, seq=2, type="CardPlayed", data={"card": "8VL"}, seat=0,
                       source="link", created_at=NOW))
    with db.transaction() as s:
        rows = s.scalars(select(EventRow).where(EventRow.game_id == gid).order_by(EventRow.seq)).all()
        assert [(r.seq, r.type, r.data) for r in rows] == [
            (1, "GameStarted", {"x": [1, 2]}), (2, "CardPlayed", {"card": "8VL"})]
        assert rows[0].created_at == NOW and rows[0].created_at.tzinfo is not None


def test_appending_at_a_taken_seq_conflicts_and_keeps_the_first(db):
    gid = _game(db)
    with pytest.raises(IntegrityError):
        with db.transaction() as s:
            s.add(EventRow(game_id=gid, seq=1, type="Overwrite", data={}, seat=0, source="web",
                           created_at=NOW))
    with db.transaction() as s:
        assert s.get(EventRow, (gid, 1)).type == "GameStarted"


def test_two_sessions_racing_for_one_seq_exactly_one_wins(db):
    gid = _game(db)
    a, b = db.session(), db.session()
    a.begin()
    a.add(EventRow(game_id=gid, seq=2, type="A", data={}, seat=0, source="web", created_at=NOW))
    a.flush()
    a.commit()
    b.begin()
    b.add(EventRow(game_id=gid, seq=2, type="B", data={}, seat=1, source="web", created_at=NOW))
    with pytest.raises(IntegrityError):
        b.flush()
    b.rollback()
    a.close()
    b.close()
    with db.transaction() as s:
        assert s.get(EventRow, (gid, 2)).type == "A"


def test_an_idempotency_key_is_taken_once(db):
    gid = _game(db)
    with db.transaction() as s:
        s.add(Submission(game_id=gid, key="link:abc", seat=0, first_seq=2, last_seq=3,
                         source="link", created_at=NOW))
    with pytest.raises(IntegrityError):
        with db.transaction() as s:
            s.add(Submission(game_id=gid, key="link:abc", seat=0, first_seq=4, last_seq=4,
                             source="link", created_at=NOW))


def test_raw_mail_is_deduplicated_by_message_id(db):
    with db.transaction() as s:
        s.add(InboundMessage(message_id="m1@x", raw=b"\xff raw bytes", via="smtp",
                             received_at=NOW))
    with pytest.raises(IntegrityError):
        with db.transaction() as s:
            s.add(InboundMessage(message_id="m1@x", raw=b"again", via="imap", received_at=NOW))
    with db.transaction() as s:
        assert s.scalars(select(InboundMessage.raw)).one() == b"\xff raw bytes"


def test_naive_timestamps_are_refused(db):
    with pytest.raises(Exception, match="naive"):
        with db.transaction() as s:
            s.add(GameRow(kind="trees", options={}, seq=0, status="active",
                          created_at=datetime(2026, 1, 1)))


@pytest.mark.parametrize("count", [1, 3])
def test_a_move_appends_its_events_in_one_go_and_reads_them_back(db, count):
    """events.append: one event or several (one multi-row INSERT) with the move's receipt;
    JSON data and aware times survive the round trip on every back end."""
    gid = _game(db)
    evs = [Event(f"E{n}", {"n": n, "cards": ["8VL", None]}) for n in range(count)]
    with db.transaction() as s:
        game = s.get(GameRow, gid)
        game.seq = 1                    # _game wrote the first event by hand
        first, last = eventstore.append(s, game, evs, seat=1, source="link", now=NOW,
                                    receipt={"game_id": gid, "key": f"k{count}", "seat": 1,
                                             "first_seq": 2, "last_seq": 1 + count,
                                             "source": "link", "created_at": NOW})
    assert (first, last) == (2, 1 + count)
    with db.transaction() as s:
        back = eventstore.load(s, s.get(GameRow, gid), after=1)
        assert s.get(Submission, (gid, f"k{count}")).last_seq == 1 + count
    assert [(r.seq, r.event.type, dict(r.event.data), r.seat, r.source, r.at) for r in back] == [
        (2 + n, f"E{n}", {"n": n, "cards": ["8VL", None]}, 1, "link", NOW) for n in range(count)]


def test_appending_several_events_at_a_taken_seq_conflicts_and_writes_none(db):
    gid = _game(db)
    with db.transaction() as s:
        s.add(EventRow(game_id=gid, seq=3, type="Theirs", data={}, seat=0, source="web",
                       created_at=NOW))
    with pytest.raises(eventstore.Conflict):
        with db.transaction() as s:
            game = s.get(GameRow, gid)
            game.seq = 1                # it has not seen seq 3: its second event takes it
            eventstore.append(s, game, [Event("Mine", {}), Event("Mine", {})], seat=1,
                          source="link", now=NOW)
    with db.transaction() as s:
        assert s.scalars(select(EventRow.type).where(EventRow.game_id == gid)
                         .order_by(EventRow.seq)).all() == ["GameStarted", "Theirs"]
