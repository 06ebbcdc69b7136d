"""The use cases against every store back end: start a game, submit moves, and every way a
submission is turned down without changing anything."""
from __future__ import annotations

import random
import threading

import pytest
from sqlalchemy import event, func, select

from service import play
from service.linking import freshness
from service.play import Intent, notify, repository
from service.store import EventRow, OutboxRow
from tests.play.helpers import PLAYERS, position, start


@pytest.fixture
def svc(services):
    return services


def submit(svc, intent, rng=None):
    svc.chance = rng or random.Random(1)
    return play.submit(svc, intent)


def counts(svc, game_id):
    with svc.db.transaction() as s:
        events = s.scalar(select(func.count()).select_from(EventRow).where(EventRow.game_id == game_id))
        mails = s.scalar(select(func.count()).select_from(OutboxRow).where(OutboxRow.game_id == game_id))
        return events, mails


def first_move(svc, game_id):
    pos = position(svc, game_id)
    seat = min(pos.engine.to_act(pos.state))
    return pos, seat, pos.engine.legal_moves(pos.state, seat)[0]


def test_start_writes_events_and_mails_the_seat_to_move(svc):
    """By default a player is mailed when it is its move: the start mails whoever moves first."""
    started = start(svc)
    events, mails = counts(svc, started.game_id)
    assert events == started.seq > 0
    pos = position(svc, started.game_id)
    first = [["anna@example.org", "ben@example.org"][s] for s in pos.engine.to_act(pos.state)]
    assert mails == len(first) == len(started.outbox_ids) == 1
    with svc.db.transaction() as s:
        assert [r.to_addr for r in s.scalars(select(OutboxRow))] == first


@pytest.mark.parametrize("players, why", [
    (["anna@example.org"], "players"),
    (["anna@example.org", "ANNA@example.org"], "different email"),
    (["anna@example.org", "not an address"], "not an email address"),
])
def test_a_bad_start_is_refused_with_a_reason_and_writes_nothing(svc, players, why):
    with pytest.raises(play.BadStart, match=why):
        start(svc, players=players)
    with svc.db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(EventRow)) == 0


def test_a_move_appends_its_events_and_emails_in_one_go(svc):
    started = start(svc)
    pos, seat, move = first_move(svc, started.game_id)
    applied = submit(svc, Intent(started.game_id, seat, moves=[move],
                                 expected_seq=pos.seq, key="k1"))
    assert applied.first_seq == pos.seq + 1 and applied.outbox_ids
    after = position(svc, started.game_id)
    assert after.seq == applied.last_seq
    assert after.engine.view(after.state, seat) != pos.engine.view(pos.state, seat)


def test_the_same_key_twice_is_already_done_and_changes_nothing(svc):
    started = start(svc)
    pos, seat, move = first_move(svc, started.game_id)
    intent = Intent(started.game_id, seat, moves=[move], expected_seq=pos.seq, key="double")
    submit(svc, intent)
    before = counts(svc, started.game_id)
    with pytest.raises(play.AlreadyDone):
        submit(svc, intent)
    assert counts(svc, started.game_id) == before


def test_a_move_out_of_turn_is_refused_and_changes_nothing(svc):
    started = start(svc)
    pos, seat, move = first_move(svc, started.game_id)
    other = 1 - seat
    before = counts(svc, started.game_id)
    with pytest.raises(play.Refused):
        submit(svc, Intent(started.game_id, other, moves=[move]))
    assert counts(svc, started.game_id) == before


def test_a_bad_line_in_a_batch_applies_none_of_it(svc):
    started = start(svc)
    pos, seat, move = first_move(svc, started.game_id)
    text = pos.engine.describe(move)
    before = counts(svc, started.game_id)
    with pytest.raises(play.Refused) as err:
        submit(svc, Intent(started.game_id, seat, lines=[text, "fly to the moon"]))
    assert err.value.index == 1 and err.value.text == "fly to the moon"
    assert counts(svc, started.game_id) == before


def test_a_stale_position_is_refused(svc):
    started = start(svc)
    pos, seat, move = first_move(svc, started.game_id)
    submit(svc, Intent(started.game_id, seat, moves=[move], expected_seq=pos.seq))
    nxt = position(svc, started.game_id)
    seat2 = min(nxt.engine.to_act(nxt.state))
    move2 = nxt.engine.legal_moves(nxt.state, seat2)[0]
    with pytest.raises(play.PositionChanged):   # minted at the old position, whose view changed
        submit(svc, Intent(started.game_id, seat2, moves=[move2], expected_seq=pos.seq))


def test_two_concurrent_submissions_exactly_one_wins(svc):
    """Real concurrency: two threads, two connections, the same position."""
    started = start(svc)
    pos, seat, _ = first_move(svc, started.game_id)
    moves = pos.engine.legal_moves(pos.state, seat)[:2]
    assert len(moves) == 2
    results, barrier = [], threading.Barrier(2)

    def go(move, key):
        barrier.wait()
        try:
            submit(svc, Intent(started.game_id, seat, moves=[move], expected_seq=pos.seq,
                               key=key))
            results.append("won")
        except play.PositionChanged:
            results.append("moved on")

    threads = [threading.Thread(target=go, args=(m, f"k{i}")) for i, m in enumerate(moves)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results) == ["moved on", "won"]


def test_a_finished_game_takes_no_more_moves(svc):
    started = start(svc)
    rng = random.Random(5)
    while True:
        pos = position(svc, started.game_id)
        if pos.engine.outcome(pos.state) is not None:
            break
        seat = min(pos.engine.to_act(pos.state))
        move = pos.engine.bots["random"](pos.state, seat, rng)
        submit(svc, Intent(started.game_id, seat, moves=[move]), rng)
    with pytest.raises(play.GameOver):
        submit(svc, Intent(started.game_id, 0, lines=["help"]), rng)
    with svc.db.transaction() as s:
        assert repository.load(s, svc.states, started.game_id).row.status == "ended"


def test_a_replayed_key_after_a_changed_choice_is_stale_not_already_done(svc):
    """Aristocracy lets a seat replace its sealed choice (A3). Re-sending the first choice's
    link afterwards must not be answered "already done" while the other choice stands."""
    started = start(svc, kind="aristocracy", players=PLAYERS + ["cleo@example.org"])
    pos = position(svc, started.game_id)
    seat = min(pos.engine.to_act(pos.state))
    first, second = [m for m in pos.engine.legal_moves(pos.state, seat)][:2]
    rng = random.Random(1)

    def send(move, key):
        return submit(svc, Intent(started.game_id, seat, moves=[move], key=key), rng)

    send(first, "link-x")
    with pytest.raises(play.AlreadyDone):
        send(first, "link-x")                  # the double click
    send(second, "link-y")                     # the player changes their mind
    with pytest.raises(play.PositionChanged):
        send(first, "link-x")                  # the old link again: stale, said so


def test_one_seats_key_never_answers_for_another(svc):
    started = start(svc)
    pos, seat, move = first_move(svc, started.game_id)
    submit(svc, Intent(started.game_id, seat, moves=[move], key="same"))
    nxt = position(svc, started.game_id)
    other = min(nxt.engine.to_act(nxt.state))
    move2 = nxt.engine.legal_moves(nxt.state, other)[0]
    # the other seat happens to send the same key: still applied
    applied = submit(svc, Intent(started.game_id, other, moves=[move2], key="same"))
    assert applied.first_seq > pos.seq


def test_in_a_sealed_round_another_seats_choice_keeps_my_link_fresh_and_my_inbox_quiet(svc):
    """A3: choices are collected from all at once. Anna choosing must not make Ben's link
    stale, nor send Ben an email, though Ben's view now says Anna has chosen; Anna chose on a
    page, which told her, so she is not mailed about her own move either."""
    started = start(svc, kind="aristocracy", players=PLAYERS + ["cleo@example.org"])
    pos = position(svc, started.game_id)
    assert len(pos.engine.to_act(pos.state)) == 3
    ben_mark = freshness.mark(pos.engine, pos.state, 1)
    ben_move = pos.engine.legal_moves(pos.state, 1)[0]
    applied = submit(svc, Intent(started.game_id, 0,
                                 moves=[pos.engine.legal_moves(pos.state, 0)[0]]))
    with svc.db.transaction() as s:
        mailed = {r.seat for r in s.scalars(select(OutboxRow).where(
            OutboxRow.id.in_(applied.outbox_ids)))}
    assert mailed == set()
    # Ben's link from the first email still works
    submit(svc, Intent(started.game_id, 1, moves=[ben_move], expected=ben_mark))


def test_the_same_link_clicked_at_once_applies_once_and_says_already_done(svc):
    """Eight clicks of one link at the same moment (threads, own connections): one applies,
    every other is told "already done" — whether it found the move made when it looked, or
    lost the race on inserting its receipt and looked again."""
    started = start(svc)
    pos, seat, move = first_move(svc, started.game_id)
    results, barrier = [], threading.Barrier(8)

    def click():
        barrier.wait()
        try:
            submit(svc, Intent(started.game_id, seat, moves=[move], expected_seq=pos.seq,
                               key="the-link"))
            results.append("applied")
        except play.AlreadyDone:
            results.append("already done")
        except play.PositionChanged as exc:    # would be a wrong answer to a double click
            results.append(f"moved on: {exc}")

    threads = [threading.Thread(target=click) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results) == ["already done"] * 7 + ["applied"]
    assert position(svc, started.game_id).seq == pos.seq + len(
        pos.engine.decide(pos.state, seat, move, random.Random(1)))


def test_a_move_that_goes_through_does_not_look_its_key_up(svc):
    """The receipt's primary key refuses a second use of a key, so a move that applies pays
    no lookup (issue 15: a move costs a few inserts); the lookup happens on the way out of a
    refusal, where a double click is told "already done"."""
    started = start(svc)
    pos, seat, move = first_move(svc, started.game_id)
    seen = []

    def record(conn, cursor, statement, *args):
        seen.append(" ".join(statement.split()[:4]))

    event.listen(svc.db.engine, "before_cursor_execute", record)
    try:
        submit(svc, Intent(started.game_id, seat, moves=[move], key="k"))
        applied_statements = list(seen)
        with pytest.raises(play.AlreadyDone):
            submit(svc, Intent(started.game_id, seat, moves=[move], key="k"))
    finally:
        event.remove(svc.db.engine, "before_cursor_execute", record)
    assert not any("FROM submissions" in s or s.startswith("SELECT submissions")
                   for s in applied_statements), applied_statements
    assert any(s.startswith("SELECT submissions") for s in seen[len(applied_statements):])


def test_a_move_reads_nothing_of_the_outbox_and_its_emails_still_tell_the_news(svc):
    """Which news a turn email tells (since the seat's previous turn email) is worked out when
    the email is composed, not while the player waits for their move (issue 15)."""
    started = start(svc)
    seen = []

    def record(conn, cursor, statement, *args):
        seen.append(" ".join(statement.split()))

    for _ in range(3):
        pos, seat, move = first_move(svc, started.game_id)
        event.listen(svc.db.engine, "before_cursor_execute", record)
        try:
            applied = submit(svc, Intent(started.game_id, seat, moves=[move]))
        finally:
            event.remove(svc.db.engine, "before_cursor_execute", record)
    assert not [s for s in seen if s.startswith("SELECT") and "outbox" in s], seen
    with svc.db.transaction() as s:
        rows = s.scalars(select(OutboxRow).where(OutboxRow.game_id == started.game_id,
                                                 OutboxRow.kind == "turn")
                         .order_by(OutboxRow.id)).all()
        assert rows[-1].id in applied.outbox_ids and rows[-1].since_seq is None
        by_seat = [r for r in rows if r.seat == rows[-1].seat]
        # the news start after that seat's previous turn email
        assert notify.since(s, rows[-1]) == (by_seat[-2].seq if len(by_seat) > 1 else 0)
