"""Contract tests of the event store, run against every back end (SQLite and PostgreSQL):
appending at a taken (game_id, seq) is a conflict, never an overwrite; an idempotency key is
taken once; timestamps come back as aware UTC."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from service.store import EventRow, GameRow, InboundMessage, Submission

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
