"""Contract tests of the snapshots many games are read from at once (service.store.snapshots.
latest_many: a relay's group of emails, a sweep's batch), on every back end: each game's
newest snapshot within its own format and range, as `latest` finds it for one, in one
statement (a second only for a snapshot written past a game's end since its caller read it)."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import event

from service.store import GameRow, snapshots

NOW = datetime(2026, 12, 7, 10, 0, tzinfo=timezone.utc)


def _games(db, n: int) -> list[int]:
    """`n` games at event 30 with snapshots after events 10, 20 and 30 in format "v1", and
    one after event 25 in another format."""
    ids = []
    with db.transaction() as s:
        for _ in range(n):
            g = GameRow(kind="trees", options={}, seq=30, status="active", created_at=NOW,
                        clock="3d", on_timeout="bot")
            s.add(g)
            s.flush()
            ids.append(g.id)
            for seq in (10, 20, 30):
                snapshots.save(s, g.id, seq, "v1", {"game": g.id, "after": seq})
            snapshots.save(s, g.id, 25, "v0", {"game": g.id, "after": 25, "old": True})
    return ids


def _selects(db) -> list[str]:
    seen: list[str] = []
    event.listen(db.engine, "before_cursor_execute",
                 lambda _c, _cur, statement, *_a: seen.append(statement)
                 if statement.lstrip().upper().startswith("SELECT") else None)
    return seen


WANTED = ({"at": ("v1", 0, 30)},         # the newest: 30
          {"at": ("v1", 0, 25)},         # its newest (30) lies past the position: 20
          {"at": ("v1", 20, 30)},        # only one newer than the caller's state at 20: 30
          {"at": ("v1", 30, 40)},        # none newer than the caller's
          {"at": ("v0", 0, 20)})         # the other format's lies past the position: none


def _check(db, ends: bool) -> None:
    ids = _games(db, len(WANTED))
    wanted = {g: w["at"] for g, w in zip(ids, WANTED)}
    seen = _selects(db)
    with db.transaction() as s:
        found = snapshots.latest_many(s, wanted, ends={g: 30 for g in ids} if ends else None)
        asked = len(seen)
        one_by_one = {g: snapshots.latest(s, g, *wanted[g]) for g in wanted}
    a, b, c, _, _ = ids
    assert {g: seq for g, (seq, _) in found.items()} == {a: 30, b: 20, c: 30}
    assert found[b][1] == {"game": b, "after": 20}
    assert found == {g: v for g, v in one_by_one.items() if v is not None}
    assert asked == 1


def test_each_game_gets_its_newest_snapshot_in_its_own_range_and_format(db):
    _check(db, ends=False)


def test_games_at_their_end_and_games_behind_it_are_read_together(db):
    """Told each game's last event: the games asked at it by their key, the others each
    within its range, in the one statement."""
    _check(db, ends=True)


def test_a_batch_at_its_games_ends_is_read_by_key_in_one_statement(db):
    """A sweep's batch: no term of its own for any game."""
    ids = _games(db, 40)
    seen = _selects(db)
    with db.transaction() as s:
        found = snapshots.latest_many(s, {g: ("v1", 0, 30) for g in ids},
                                      ends={g: 30 for g in ids})
    assert {seq for seq, _ in found.values()} == {30} and set(found) == set(ids)
    assert len(seen) == 1 and "snapshots.seq <=" not in seen[0]


def test_a_snapshot_written_past_the_end_its_caller_read_is_not_taken(db):
    """The caller read a game at event 15; a snapshot at 20 and 30 came since: the newest at
    or before 15 is the one taken, read again for that game alone."""
    ids = _games(db, 3)
    seen = _selects(db)
    with db.transaction() as s:
        found = snapshots.latest_many(s, {g: ("v1", 0, 30 if g != ids[1] else 15)
                                          for g in ids},
                                      ends={g: 30 if g != ids[1] else 15 for g in ids})
    assert found[ids[1]][0] == 10 and all(found[g][0] == 30 for g in ids if g != ids[1])
    assert len(seen) == 2 and seen[1].count("snapshots.seq <=") == 1
