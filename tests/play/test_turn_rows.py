"""Whose move it is and how a game ended, as the rows keep them (`seats.to_act`,
`games.outcome`: /me and the API's list read them instead of folding each game), agree with
what folding the game's log says after every path that changes them: a game's start, a move,
a bot's move, a take-back, a timeout (per game and batched), a resignation (the end, and a
seat leaving a game that goes on), a forfeit, the last move, an imported game; and after
random games of every kind."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from service import play
from service.play import repository
from service.play.moves import undo
from service.play.players import seatchanges
from service.play.reads import gamefile
from service.store.models import GameRow
from tests.budgets import examples
from tests.play.time.helpers import move, position, start, to_act
from tests.play.time.test_batch import THREE, scenario
from tests.play.time.test_undo_clocks import _suzerain_with_a_passing_follow


def rows_of(svc, game_id: int) -> tuple[list[int], dict | None, str]:
    """(the seats whose `to_act` is set, the game's `outcome`, its status) as stored."""
    with svc.db.transaction() as s:
        game = s.get(GameRow, game_id)
        return [r.seat for r in game.seats if r.to_act], game.outcome, game.status


def folded(svc, game_id: int) -> tuple[list[int], dict | None]:
    """The same from the game's whole log, folded afresh (no cache, no snapshot)."""
    svc.states.clear()
    with svc.db.transaction() as s:
        game = repository.game_row(s, game_id)
        recorded = [(r.seq, r.event) for r in repository.eventstore.load(s, game)]
        engine = repository.registry.get(game.kind)
        state = repository.fold_log(engine, recorded)
        assert state == repository.load(s, svc.states, game_id).state   # the one fold agrees
        outcome = engine.outcome(state)
        return sorted(repository.acting(game, engine, state)), \
            outcome.to_json() if outcome else None


def assert_rows_agree(svc, game_id: int) -> list[int]:
    acting, outcome, _status = rows_of(svc, game_id)
    assert (acting, outcome) == folded(svc, game_id)
    return acting


def test_a_game_starts_with_the_seats_to_act_marked(services):
    game_id = start(services).game_id
    assert assert_rows_agree(services, game_id) == to_act(services, game_id) != []


def test_each_move_hands_the_mark_on(services):
    game_id = start(services).game_id
    seen = {tuple(assert_rows_agree(services, game_id))}
    for _ in range(6):
        move(services, game_id)
        seen.add(tuple(assert_rows_agree(services, game_id)))
    assert seen == {(0,), (1,)}                 # the turn did pass, both ways


def test_a_bots_move_hands_the_turn_back(services):
    services.chance = random.Random(5)
    game_id = play.start_game(services, "trees", ["Anna <anna@example.org>", "bot:easy"],
                              {}).game_id
    (seat,) = to_act(services, game_id)
    if seat == 1:                               # the bot opens
        play.move_bots(services, game_id)
    assert assert_rows_agree(services, game_id) == [0]
    move(services, game_id, 0)
    assert assert_rows_agree(services, game_id) == [1]
    assert play.move_bots(services, game_id) >= 1
    assert assert_rows_agree(services, game_id) == [0]


def test_a_take_back_gives_the_mark_back(services):
    game_id, leader, follower, choice = _suzerain_with_a_passing_follow(services, "3d")
    play.submit(services, play.Intent(game_id, follower, moves=[choice], source="web"))
    assert assert_rows_agree(services, game_id) == [leader]
    undo.ask(services, game_id, follower)
    assert undo.answer(services, game_id, leader, True).status == "done"
    assert assert_rows_agree(services, game_id) == [follower]


def test_a_resignation_that_ends_the_game_leaves_nobody_to_act(services):
    game_id = start(services).game_id
    seatchanges.resign(services, game_id, 0)
    acting, outcome, status = rows_of(services, game_id)
    # the service's result is the game's; the engine, which knows nothing of it, has no
    # outcome, and nobody is to move in an ended game (positions.acting)
    assert (acting, outcome, status) == ([], None, "ended")
    assert assert_rows_agree(services, game_id) == []


def test_a_seat_that_resigns_from_three_leaves_the_turns_as_they_were(services):
    game_id = start(services, players=THREE).game_id
    before = assert_rows_agree(services, game_id)
    seatchanges.resign(services, game_id, 2)
    assert assert_rows_agree(services, game_id) == before != []


def test_the_last_move_records_the_outcome_and_clears_the_marks(services):
    game_id = start(services).game_id
    rng = random.Random(7)
    while True:
        pos = position(services, game_id)
        if pos.engine.outcome(pos.state) is not None:
            break
        seat = min(pos.engine.to_act(pos.state))
        choice = rng.choice(pos.engine.legal_moves(pos.state, seat))
        play.submit(services, play.Intent(game_id, seat, moves=[choice], whole_turn=True))
    acting, outcome, status = rows_of(services, game_id)
    assert acting == [] and status == "ended" and outcome is not None
    assert outcome["winners"] and assert_rows_agree(services, game_id) == []


def test_timeouts_and_forfeits_keep_the_rows_per_game_and_batched(services):
    """The clock tests' scenario (tests/play/time/test_batch.py: timeouts by bot, forfeits that end
    a game and one that does not, sealed rounds, a resigned seat played for), both ways."""
    t0 = services.clock.now()
    for bulk in (False, True):
        services.clock.set(t0)
        scenario(services, bulk=bulk)
        with services.db.transaction() as s:
            games = s.scalars(select(GameRow.id).order_by(GameRow.id)).all()
        ended = 0
        for game_id in games:
            assert_rows_agree(services, game_id)
            ended += rows_of(services, game_id)[2] == "ended"
        assert ended >= 1                       # a forfeit ended one at least


def test_an_imported_game_has_its_rows(services):
    game_id = start(services).game_id
    for _ in range(4):
        move(services, game_id)
    copy = gamefile.import_game(services, gamefile.export(services, game_id, play.OPERATOR))
    assert assert_rows_agree(services, copy) == to_act(services, game_id)


KINDS = ["trees", "suzerain", "magnate", "aristocracy"]


@pytest.mark.deep
@settings(max_examples=examples(12), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 10_000),
       moves=st.integers(1, 40), undo_every=st.integers(3, 12))
def test_after_random_games_the_rows_equal_the_fold(services, kind, seed, moves, undo_every):
    """Random legal moves by whoever is to act (and a take-back asked and agreed now and then
    where the engine allows one), the rows checked against the fold after each."""
    rng = random.Random(seed)
    players = THREE if kind == "aristocracy" else THREE[:2]
    game_id = start(services, kind=kind, players=players, seed=seed).game_id
    for n in range(moves):
        pos = position(services, game_id)
        if pos.engine.outcome(pos.state) is not None:
            break
        seat = rng.choice(sorted(pos.engine.to_act(pos.state)))
        choice = rng.choice(pos.engine.legal_moves(pos.state, seat))
        play.submit(services, play.Intent(game_id, seat, moves=[choice], whole_turn=True))
        if n % undo_every == undo_every - 1:
            _take_back(services, game_id, seat)
        assert_rows_agree(services, game_id)


def _take_back(svc, game_id: int, seat: int) -> None:
    """`seat` asks to take back its last move; everyone else agrees (refused by the rules
    when the move cannot be taken back)."""
    try:
        asked = undo.ask(svc, game_id, seat)
    except play.UndoRefused:
        return
    if asked.status == "done":
        return
    for other in range(len(position(svc, game_id).row.seats)):
        if other != seat:
            undo.answer(svc, game_id, other, True)
