"""`GAME.timeout_move`: the move the service makes for a seat whose clock runs out. It must be
legal wherever the seat is to act, deterministic, never spend a right, and finish any game."""
from __future__ import annotations

import random

from service.games.contract import replay
from service.games.suzerain import GAME
from service.games.suzerain.state import sort_key
from tests.games.suzerain.helpers import act, new, play


def test_each_phase_has_its_documented_default():
    # RULINGS S3: the lowest card the follower may play; RULINGS S5: blind for the winner, the
    # lowest face-up card for the loser; RULINGS S6: discard none; RULINGS S7: a fresh right
    # is kept for later
    state, _ = new("PMSL", "NM")
    assert GAME.timeout_move(state, 1) == {"type": "lead", "card": "1L"}
    assert GAME.timeout_move(state, 0) is None                  # not seat 0's turn
    state = act(state, "lead the Desert")
    assert GAME.timeout_move(state, 0) == {"type": "play", "card": "1S"}
    state = act(state, "play the Mountain")
    assert GAME.timeout_move(state, 0) == {"type": "take_blind"}
    state = act(state, "take the Harvest")
    assert state.phase == "right"
    assert GAME.timeout_move(state, 0) == {"type": "decline"}
    state = act(state, "remove nothing")
    assert GAME.timeout_move(state, 1) == {"type": "take", "card": min(state.display,
                                                                        key=sort_key)}
    state = act(state, "take the Huntress")
    assert GAME.timeout_move(state, 1) == {"type": "discard", "cards": []}
    assert GAME.timeout_move(play(state, "discard none"), 1) is None


def test_timeouts_alone_finish_a_game_with_legal_moves_and_no_right_spent():
    for seed in range(6):
        rng = random.Random(seed)
        state = replay(GAME, GAME.start(2, GAME.validate_options(2, {}), rng))
        while GAME.outcome(state) is None:
            (seat,) = GAME.to_act(state)
            move = GAME.timeout_move(state, seat)
            assert move in GAME.legal_moves(state, seat)
            assert move == GAME.timeout_move(state, seat)          # deterministic
            assert move["type"] != "remove"
            assert GAME.timeout_move(state, 1 - seat) is None
            state = replay(GAME, GAME.decide(state, seat, move, rng), state)
        assert state.removed == ((), ())


def test_a_timeout_mixed_with_bot_play_in_every_phase_is_legal():
    rng = random.Random(12)
    state = replay(GAME, GAME.start(2, GAME.validate_options(2, {}), rng))
    phases = set()
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_act(state)
        move = GAME.timeout_move(state, seat)
        assert move in GAME.legal_moves(state, seat)
        phases.add(state.phase)
        if rng.random() < 0.5:
            move = GAME.bots["easy"](state, seat, rng)
        state = replay(GAME, GAME.decide(state, seat, move, rng), state)
    assert GAME.timeout_move(state, 0) is None and GAME.timeout_move(state, 1) is None
    assert {"lead", "follow", "claim", "loser", "discard"} <= phases
