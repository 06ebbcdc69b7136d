"""Random play under rules 2: a Magnate turn never ends while a trade or a deed addition is
possible, unless its player ended it (RULINGS M9 amended).

Seeded loops over the main variants with uniformly random legal moves (the "easy" bot), each
event folded one at a time so the position just before every TurnEnded can be examined. The
check of "nothing possible" is made by asking `decide` itself (every 3-for-1 trade, every
one-token addition, which is legal whenever any addition is, M5), not by the legal-move list.
"""
from __future__ import annotations

import random

import pytest

from service.games.contract import IllegalMove, replay
from service.games.magnate import GAME
from service.games.magnate.state import SUITS, info

MAX_MOVES = 4000


def _possible(st, seat) -> list[dict]:
    """Every trade or one-token deed addition `decide` accepts for `seat` now."""
    p = st.players[seat]
    tries = [{"type": "trade", "give": g, "get": s} for g in SUITS for s in SUITS if g != s]
    for col in p.columns:
        if col and not col[-1].developed:
            card = col[-1].card
            tries += [{"type": "add", "card": card, "pay": {s: 1}} for s in info(card)[1]]
    ok = []
    for move in tries:
        try:
            GAME.decide(st, seat, move, random.Random(0))
        except IllegalMove:
            continue
        ok.append(move)
    return ok


def _play(seats, options, seed):
    rng = random.Random(seed)
    st = replay(GAME, GAME.start(seats, GAME.validate_options(seats, options), rng))
    assert st.rules >= 2       # turns stay open after the card play (M9 amended)
    ended, checked = False, [0, 0]      # the start's roll began the first turn
    for _ in range(MAX_MOVES):
        if GAME.outcome(st) is not None:
            return checked
        seat = rng.choice(sorted(GAME.to_act(st)))
        move = GAME.bots["easy"](st, seat, rng)
        for event in GAME.decide(st, seat, move, rng):
            if event.type == "TurnEnded":
                # RULINGS M9 (amended): ended by its player, or nothing left to do
                assert st.phase == "open" and event.data["seat"] == st.turn
                if event.data["auto"]:
                    assert _possible(st, st.turn) == [], (seed, move)
                else:
                    assert move == {"type": "end"} and seat == st.turn
                ended = True
                checked[bool(event.data["auto"])] += 1
            elif event.type in ("Drew", "GameEnded"):
                assert ended, f"seed {seed}: {event.type} before the turn ended"
            elif event.type == "Rolled":
                assert ended, f"seed {seed}: a new turn before the end"
                ended = False
            st = GAME.evolve(st, event)
    raise AssertionError(f"seed {seed}: no outcome after {MAX_MOVES} moves")


@pytest.mark.parametrize("seats,options", [
    (2, {}),
    (2, {"ruleset": "modern", "replace_ace": True}),
    (2, {"mega": True}),
    (3, {"ruleset": "modern", "three": True}),
])
def test_a_turn_never_ends_while_a_trade_or_addition_is_possible(seats, options):
    # RULINGS M9 (amended): the turn stays open after the card play and ends with an explicit
    # end-of-turn move, or by itself when no trade or addition is possible any more
    ends = [_play(seats, options, seed) for seed in range(2)]
    explicit, auto = sum(e[0] for e in ends), sum(e[1] for e in ends)
    assert explicit > 5 and auto > 5, (explicit, auto)
