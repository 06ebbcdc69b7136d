"""The use cases against every store back end: start a game, submit moves, and every way a
submission is turned down without changing anything."""
from __future__ import annotations

import random
import threading
from datetime import datetime, timezone

import pytest
from sqlalchemy import func, select

from service import play
from service.play import Intent, positions
from service.store import Database, EventRow, OutboxRow

NOW = datetime(2026, 11, 22, 15, 14, tzinfo=timezone.utc)
PLAYERS = ["Anna <anna@example.org>", "ben@example.org"]


@pytest.fixture
def db(db_url):
    database = Database(db_url)
    yield database
    database.dispose()


def start(db, seed=3, kind="trees", players=PLAYERS):
    with db.transaction() as s:
        return play.start_game(s, kind, players, {}, random.Random(seed), NOW)


def position(db, game_id):
    with db.transaction() as s:
        return positions.load(s, game_id)


def counts(db, game_id):
    with db.transaction() as s:
        events = s.scalar(select(func.count()).select_from(EventRow).where(EventRow.game_id == game_id))
        mails = s.scalar(select(func.count()).select_from(OutboxRow).where(OutboxRow.game_id == game_id))
        return events, mails


def first_move(db, game_id):
    pos = position(db, game_id)
    seat = min(pos.engine.to_act(pos.state))
    return pos, seat, pos.engine.legal_moves(pos.state, seat)[0]


def test_start_writes_events_and_one_email_per_seat(db):
    started = start(db)
    events, mails = counts(db, started.game_id)
    assert events == started.seq > 0
    assert mails == 2 == len(started.outbox_ids)
    with db.transaction() as s:
        assert {r.to_addr for r in s.scalars(select(OutboxRow))} == {"anna@example.org",
                                                                     "ben@example.org"}


@pytest.mark.parametrize("players, why", [
    (["anna@example.org"], "players"),
    (["anna@example.org", "ANNA@example.org"], "different email"),
    (["anna@example.org", "not an address"], "not an email address"),
])
def test_a_bad_start_is_refused_with_a_reason_and_writes_nothing(db, players, why):
    with pytest.raises(play.BadStart, match=why):
        start(db, players=players)
    with db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(EventRow)) == 0


def test_a_move_appends_its_events_and_emails_in_one_go(db):
    started = start(db)
    pos, seat, move = first_move(db, started.game_id)
    with db.transaction() as s:
        applied = play.submit(s, Intent(started.game_id, seat, moves=[move],
                                        expected_seq=pos.seq, key="k1"), random.Random(1), NOW)
    assert applied.first_seq == pos.seq + 1 and applied.outbox_ids
    after = position(db, started.game_id)
    assert after.seq == applied.last_seq
    assert after.engine.view(after.state, seat) != pos.engine.view(pos.state, seat)


def test_the_same_key_twice_is_already_done_and_changes_nothing(db):
    started = start(db)
    pos, seat, move = first_move(db, started.game_id)
    intent = Intent(started.game_id, seat, moves=[move], expected_seq=pos.seq, key="double")
    with db.transaction() as s:
        play.submit(s, intent, random.Random(1), NOW)
    before = counts(db, started.game_id)
    with pytest.raises(play.AlreadyDone):
        with db.transaction() as s:
            play.submit(s, intent, random.Random(1), NOW)
    assert counts(db, started.game_id) == before


def test_a_move_out_of_turn_is_refused_and_changes_nothing(db):
    started = start(db)
    pos, seat, move = first_move(db, started.game_id)
    other = 1 - seat
    before = counts(db, started.game_id)
    with pytest.raises(play.Refused):
        with db.transaction() as s:
            play.submit(s, Intent(started.game_id, other, moves=[move]), random.Random(1), NOW)
    assert counts(db, started.game_id) == before


def test_a_bad_line_in_a_batch_applies_none_of_it(db):
    started = start(db)
    pos, seat, move = first_move(db, started.game_id)
    text = pos.engine.describe(move)
    before = counts(db, started.game_id)
    with pytest.raises(play.Refused) as err:
        with db.transaction() as s:
            play.submit(s, Intent(started.game_id, seat, lines=[text, "fly to the moon"]),
                        random.Random(1), NOW)
    assert err.value.index == 1 and err.value.text == "fly to the moon"
    assert counts(db, started.game_id) == before


def test_a_stale_position_is_refused(db):
    started = start(db)
    pos, seat, move = first_move(db, started.game_id)
    with db.transaction() as s:
        play.submit(s, Intent(started.game_id, seat, moves=[move], expected_seq=pos.seq),
                    random.Random(1), NOW)
    nxt = position(db, started.game_id)
    seat2 = min(nxt.engine.to_act(nxt.state))
    move2 = nxt.engine.legal_moves(nxt.state, seat2)[0]
    with pytest.raises(play.PositionChanged):
        with db.transaction() as s:   # minted at the old position, whose view has changed
            play.submit(s, Intent(started.game_id, seat2, moves=[move2], expected_seq=pos.seq),
                        random.Random(1), NOW)


def test_two_concurrent_submissions_exactly_one_wins(db):
    """Real concurrency: two threads, two connections, the same position."""
    started = start(db)
    pos, seat, _ = first_move(db, started.game_id)
    moves = pos.engine.legal_moves(pos.state, seat)[:2]
    assert len(moves) == 2
    results, barrier = [], threading.Barrier(2)

    def go(move, key):
        barrier.wait()
        try:
            with db.transaction() as s:
                play.submit(s, Intent(started.game_id, seat, moves=[move], expected_seq=pos.seq,
                                      key=key), random.Random(1), NOW)
            results.append("won")
        except play.PositionChanged:
            results.append("moved on")

    threads = [threading.Thread(target=go, args=(m, f"k{i}")) for i, m in enumerate(moves)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results) == ["moved on", "won"]


def test_a_finished_game_takes_no_more_moves(db):
    started = start(db)
    rng = random.Random(5)
    while True:
        pos = position(db, started.game_id)
        if pos.engine.outcome(pos.state) is not None:
            break
        seat = min(pos.engine.to_act(pos.state))
        move = pos.engine.bots["random"](pos.state, seat, rng)
        with db.transaction() as s:
            play.submit(s, Intent(started.game_id, seat, moves=[move]), rng, NOW)
    with pytest.raises(play.GameOver):
        with db.transaction() as s:
            play.submit(s, Intent(started.game_id, 0, lines=["help"]), rng, NOW)
    with db.transaction() as s:
        assert positions.load(s, started.game_id).row.status == "ended"


def test_a_replayed_key_after_a_changed_choice_is_stale_not_already_done(db):
    """Aristocracy lets a seat replace its sealed choice (A3). Re-sending the first choice's
    link afterwards must not be answered "already done" while the other choice stands."""
    started = start(db, kind="aristocracy", players=PLAYERS + ["cleo@example.org"])
    pos = position(db, started.game_id)
    seat = min(pos.engine.to_act(pos.state))
    first, second = [m for m in pos.engine.legal_moves(pos.state, seat)][:2]
    rng = random.Random(1)

    def send(move, key):
        with db.transaction() as s:
            return play.submit(s, Intent(started.game_id, seat, moves=[move], key=key), rng, NOW)

    send(first, "link-x")
    with pytest.raises(play.AlreadyDone):
        send(first, "link-x")                  # the double click
    send(second, "link-y")                     # the player changes their mind
    with pytest.raises(play.PositionChanged):
        send(first, "link-x")                  # the old link again: stale, said so


def test_one_seats_key_never_answers_for_another(db):
    started = start(db)
    pos, seat, move = first_move(db, started.game_id)
    with db.transaction() as s:
        play.submit(s, Intent(started.game_id, seat, moves=[move], key="same"),
                    random.Random(1), NOW)
    nxt = position(db, started.game_id)
    other = min(nxt.engine.to_act(nxt.state))
    move2 = nxt.engine.legal_moves(nxt.state, other)[0]
    with db.transaction() as s:   # the other seat happens to send the same key: still applied
        applied = play.submit(s, Intent(started.game_id, other, moves=[move2], key="same"),
                              random.Random(1), NOW)
    assert applied.first_seq > pos.seq


def test_in_a_sealed_round_another_seats_choice_keeps_my_link_fresh_and_my_inbox_quiet(db):
    """A3: choices are collected from all at once. Anna choosing must not make Ben's link
    stale, nor send Ben an email, though Ben's view now says Anna has chosen."""
    started = start(db, kind="aristocracy", players=PLAYERS + ["cleo@example.org"])
    pos = position(db, started.game_id)
    assert len(pos.engine.to_act(pos.state)) == 3
    from service.play import marks
    ben_mark = marks.mark(pos.engine, pos.state, 1)
    ben_move = pos.engine.legal_moves(pos.state, 1)[0]
    with db.transaction() as s:
        applied = play.submit(s, Intent(started.game_id, 0,
                                        moves=[pos.engine.legal_moves(pos.state, 0)[0]]),
                              random.Random(1), NOW)
        mailed = {r.seat for r in s.scalars(select(OutboxRow).where(
            OutboxRow.id.in_(applied.outbox_ids)))}
    assert mailed == {0}
    with db.transaction() as s:      # Ben's link from the first email still works
        play.submit(s, Intent(started.game_id, 1, moves=[ben_move], expected=ben_mark),
                    random.Random(1), NOW)
