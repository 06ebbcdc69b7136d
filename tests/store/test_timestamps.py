"""The store's timestamps (service.store.types.UTCDateTime) on every back end: stored as naive
UTC, handed out as aware UTC, a naive one refused; and the conversion it remembers for a batch
(the same `now` in every row) never hands one row another row's instant."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import insert, select
from sqlalchemy.exc import StatementError

from service.store.models import EventRow, GameRow

NOW = datetime(2026, 11, 27, 22, 40, 5, 123456, tzinfo=timezone.utc)
PARIS = timezone(timedelta(hours=1))


def _game(db) -> int:
    with db.transaction() as s:
        s.execute(insert(GameRow), [{"id": 1, "kind": "trees", "options": {}, "seq": 0,
                                     "status": "active", "created_at": NOW}])
    return 1


def _stored(db) -> list[datetime]:
    with db.transaction() as s:
        return list(s.scalars(select(EventRow.created_at).order_by(EventRow.seq)))


def test_a_batch_of_rows_keeps_each_rows_own_instant(db):
    game = _game(db)
    later = NOW + timedelta(microseconds=1)
    same_instant_elsewhere = NOW.astimezone(PARIS)
    # the same object in a row, then others, then it again: a remembered conversion must
    # follow the object given, not the last one converted
    instants = [NOW, NOW, later, NOW, same_instant_elsewhere, later, NOW + timedelta(days=400)]
    with db.transaction() as s:
        s.execute(insert(EventRow), [
            {"game_id": game, "seq": n + 1, "type": "noted", "data": {}, "seat": None,
             "source": "test", "created_at": at} for n, at in enumerate(instants)])
    stored = _stored(db)
    assert stored == [at.astimezone(timezone.utc) for at in instants]
    assert all(at.tzinfo is timezone.utc for at in stored)


def test_a_naive_timestamp_is_refused_even_after_a_good_one(db):
    game = _game(db)
    with pytest.raises(StatementError, match="naive datetime"):
        with db.transaction() as s:
            s.execute(insert(EventRow), [
                {"game_id": game, "seq": 1, "type": "noted", "data": {}, "seat": None,
                 "source": "test", "created_at": NOW},
                {"game_id": game, "seq": 2, "type": "noted", "data": {}, "seat": None,
                 "source": "test", "created_at": NOW.replace(tzinfo=None)}])
    assert _stored(db) == []
