"""A move taken back by agreement takes the clocks back with it: the seat whose move it was has
its turn again with the time it had left when it moved (no fresh period, no time lost while
the others answered), a turn that began after the move never happened (no time charged, no
Fischer increment), reminders follow. Per move, Fischer, and a sealed simultaneous choice."""
from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from service import play
from service.play.moves import undo
from tests.play.time.helpers import position, seats, start, to_act

H = timedelta(hours=1)
D = timedelta(days=1)
TWO = ["carol <carol@example.org>", "Alice <alice@example.org>"]
THREE = ["Anna <anna@example.org>", "Ben <ben@example.org>", "Carla <carla@example.org>"]


def _takeable_move(svc, game_id, seat, passes_turn: bool):
    """A move of `seat` that can be taken back; with `passes_turn`, one after which `seat` is
    no longer to act (None if there is none)."""
    pos = position(svc, game_id)
    for move in pos.engine.legal_moves(pos.state, seat):
        events = pos.engine.decide(pos.state, seat, move, random.Random(0))
        if not pos.engine.can_take_back(pos.state, events):
            continue
        after = pos.state
        for event in events:
            after = pos.engine.evolve(after, event)
        if pos.engine.outcome(after) is not None or any(
                pos.engine.secrets(pos.state, s) - pos.engine.secrets(after, s)
                for s in [None, *range(len(pos.row.seats))]):
            continue                 # the end, or it turned up something hidden
        if not passes_turn or seat not in pos.engine.to_act(after):
            return move
    return None


def _play(svc, game_id, seat, move):
    play.submit(svc, play.Intent(game_id, seat, moves=[move], source="web"))


def _suzerain_with_a_passing_follow(svc, clock, **options):
    """A Suzerain game where the leader has led and the follower has a takeable card that
    hands the turn back to the leader: (game id, leader, follower, follower's move)."""
    for seed in range(60):
        game_id = start(svc, kind="suzerain", players=TWO, seed=seed, clock=clock,
                        **options).game_id
        (leader,) = to_act(svc, game_id)
        pos = position(svc, game_id)
        lead = pos.engine.legal_moves(pos.state, leader)[0]
        svc.clock.advance(hours=5)
        _play(svc, game_id, leader, lead)
        (follower,) = to_act(svc, game_id)
        if follower == leader:
            continue
        move = _takeable_move(svc, game_id, follower, passes_turn=True)
        if move is not None:
            return game_id, leader, follower, move
    pytest.fail("no Suzerain deal where a follow hands the turn back")


def _clock(row):
    return row["clock"]


def _at(text):
    return None if text is None else datetime.fromisoformat(text)


def test_per_move_take_back_gives_the_turn_back_with_the_time_that_was_left(services):
    svc = services
    game_id, leader, follower, move = _suzerain_with_a_passing_follow(svc, "3d")
    svc.clock.advance(hours=7)                   # the follower thinks for 7 hours, then plays
    _play(svc, game_id, follower, move)
    assert to_act(svc, game_id) == [leader]
    assert seats(svc, game_id)[leader]["deadline"] == svc.clock.now() + 3 * D
    svc.clock.advance(hours=2)
    undo.ask(svc, game_id, follower)
    svc.clock.advance(hours=1)                   # the leader agrees 3 hours after the move
    assert undo.answer(svc, game_id, leader, True).status == "done"
    now = svc.clock.now()
    assert to_act(svc, game_id) == [follower]
    rows = seats(svc, game_id)
    # the follower's turn goes on with what it had left when it moved: 3 days less 7 hours
    assert rows[follower]["deadline"] == now + 3 * D - 7 * H
    assert rows[follower]["remind_at"] == rows[follower]["deadline"] - 18 * H
    assert _at(_clock(rows[follower])["turn_started"]) is not None
    # the leader is not to move: no turn, no deadline, no reminder
    assert rows[leader]["deadline"] is None and rows[leader]["remind_at"] is None
    assert _clock(rows[leader])["turn_started"] is None
    # the sweep agrees: nothing of this game is due an hour before the follower's deadline
    svc.clock.set(rows[follower]["deadline"] - H)
    assert game_id not in play.timers(svc).moved_games
    assert to_act(svc, game_id) == [follower]
    # playing again passes the turn to the leader with a fresh per-move period
    _play(svc, game_id, follower, move)
    assert seats(svc, game_id)[leader]["deadline"] == svc.clock.now() + 3 * D


def test_fischer_take_back_restores_the_bank_and_charges_nobody(services):
    svc = services
    # a bank of 2 days plus 1 hour a move: the leader led after 5 hours (bank 2d - 4h)
    game_id, leader, follower, move = _suzerain_with_a_passing_follow(svc, "2d+1h")
    svc.clock.advance(hours=7)
    _play(svc, game_id, follower, move)          # bank 2d - 6h, the leader's turn begins
    rows = seats(svc, game_id)
    assert rows[follower]["clock"]["bank"] == (2 * D - 6 * H).total_seconds()
    assert rows[leader]["deadline"] == svc.clock.now() + 2 * D - 4 * H
    svc.clock.advance(hours=3)
    undo.ask(svc, game_id, follower)
    undo.answer(svc, game_id, leader, True)
    now = svc.clock.now()
    rows = seats(svc, game_id)
    # the follower: 2 days less the 7 hours it used, the increment gone with the move
    assert rows[follower]["deadline"] == now + 2 * D - 7 * H
    assert rows[follower]["clock"]["bank"] == (2 * D).total_seconds()
    assert rows[follower]["remind_at"] == rows[follower]["deadline"] - 12 * H
    # the leader: not to move, and its 3 hours on a position taken back cost it nothing
    assert rows[leader]["deadline"] is None and rows[leader]["remind_at"] is None
    assert rows[leader]["clock"]["bank"] == (2 * D - 4 * H).total_seconds()
    svc.clock.advance(hours=1)
    _play(svc, game_id, follower, move)
    rows = seats(svc, game_id)
    assert rows[follower]["clock"]["bank"] == (2 * D - 7 * H).total_seconds()
    assert rows[leader]["deadline"] == svc.clock.now() + 2 * D - 4 * H


def test_a_sealed_choice_taken_back_reopens_only_that_seats_clock(services):
    svc = services
    game_id = start(svc, kind="aristocracy", players=THREE, clock="3d").game_id
    t0 = svc.clock.now()
    assert to_act(svc, game_id) == [0, 1, 2]     # sealed stalls: everyone chooses
    svc.clock.advance(hours=2)
    _play(svc, game_id, 0, _takeable_move(svc, game_id, 0, passes_turn=True))
    rows = seats(svc, game_id)
    assert rows[0]["deadline"] is None
    assert [r["deadline"] for r in rows[1:]] == [t0 + 3 * D] * 2
    svc.clock.advance(hours=1)
    undo.ask(svc, game_id, 0)
    svc.clock.advance(hours=1)
    undo.answer(svc, game_id, 1, True)
    assert undo.answer(svc, game_id, 2, True).status == "done"
    now = svc.clock.now()
    assert to_act(svc, game_id) == [0, 1, 2]
    rows = seats(svc, game_id)
    assert rows[0]["deadline"] == now + 3 * D - 2 * H
    assert rows[0]["remind_at"] == rows[0]["deadline"] - 18 * H
    # the others chose nothing: their clocks ran on, untouched
    assert [r["deadline"] for r in rows[1:]] == [t0 + 3 * D] * 2
    assert [r["remind_at"] for r in rows[1:]] == [t0 + 3 * D - 18 * H] * 2


def test_a_take_back_while_on_vacation_keeps_the_clock_stopped(services):
    from service.play.players import seatchanges
    from service.store.models import Player

    svc = services
    game_id, leader, follower, move = _suzerain_with_a_passing_follow(svc, "3d")
    svc.clock.advance(hours=7)
    _play(svc, game_id, follower, move)
    with svc.db.transaction() as s:
        follower_id = s.query(Player).filter_by(email=seats(svc, game_id)[follower]["player"]
                                                ).one().id
    seatchanges.take_vacation(svc, follower_id, "vacation 2")
    undo.ask(svc, game_id, follower)
    undo.answer(svc, game_id, leader, True)
    row = seats(svc, game_id)[follower]
    assert row["clock"]["paused_since"] is not None
    assert row["deadline"] is None and row["remind_at"] is None    # stopped while away
    back = svc.clock.advance(days=1)
    seatchanges.take_vacation(svc, follower_id, "back")
    assert seats(svc, game_id)[follower]["deadline"] == back + 3 * D - 7 * H


def test_a_turn_given_back_across_rest_days_gets_its_working_time_back(services):
    """A game with rest days (sat,sun): the follower's 1-day turn began on Friday at 11:00
    (due Monday 11:00) and it moved at 18:00, 17 working hours left. Taken back on Tuesday at
    10:00, the turn is due 17 working hours on: Wednesday 03:00, not the 65 wall-clock hours
    that were left (Friday 03:00)."""
    svc = services
    svc.clock.set(datetime(2026, 11, 26, 10, 0, tzinfo=UTC))   # the deals tried take 25 hours
    game_id, leader, follower, move = _suzerain_with_a_passing_follow(svc, "1d",
                                                                      rest_days="sat,sun")
    assert svc.clock.now() == datetime(2026, 11, 27, 11, 0, tzinfo=UTC)
    assert seats(svc, game_id)[follower]["deadline"] == datetime(2026, 11, 30, 11, 0,
                                                                 tzinfo=UTC)
    svc.clock.advance(hours=7)
    _play(svc, game_id, follower, move)
    undo.ask(svc, game_id, follower)
    svc.clock.set(datetime(2026, 12, 1, 10, 0, tzinfo=UTC))         # the Tuesday after
    assert undo.answer(svc, game_id, leader, True).status == "done"
    assert to_act(svc, game_id) == [follower]
    assert seats(svc, game_id)[follower]["deadline"] == datetime(2026, 12, 2, 3, 0, tzinfo=UTC)
