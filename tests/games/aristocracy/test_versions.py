"""Rules versions (docs/engines.md): a game is played to its end under the rules it began
with. Version 2 amended A13 and A16; a log from before versions (no ``rules`` in its first
event) or one begun under ``rules: 1`` keeps version 1. Version 3 made a sealed choice in
Herald order final (A3's option): tests/games/aristocracy/test_herald_order.py. Version 4
made ending the game a private standing choice (A19 amended): test_end_choice.py."""
from __future__ import annotations

import random
from dataclasses import replace

from service.games.aristocracy import GAME
from service.games.contract import Event, replay
from tests.games.aristocracy.helpers import GAME_V1, play


def _log(game, seats=3, seed=21, steps=150):
    """Start a game and let the normal bot play `steps` moves; the log and the rng after."""
    rng = random.Random(seed)
    log = game.start(seats, game.validate_options(seats, {"round_cap": 3}), rng)
    s = replay(game, log)
    for _ in range(steps):
        if game.outcome(s) is not None:
            break
        seat = min(game.to_act(s))
        events = game.decide(s, seat, game.bots["normal"](s, seat, rng), rng)
        log += events
        s = replay(game, events, s)
    return log, rng


def _without_version(log):
    first = Event(log[0].type, {k: v for k, v in log[0].data.items() if k != "rules"})
    return [first, *log[1:]]


def test_a_new_game_starts_at_rules_version_4():
    assert GAME.rules_version == 4
    first = GAME.start(3, GAME.validate_options(3, {}), random.Random(1))[0]
    assert first.type == "GameStarted" and first.data["rules"] == 4
    assert replay(GAME, [first]).rules == 4


def test_a_version_1_log_replays_and_plays_on_as_before():
    """A log written before versions existed replays under version 1 with today's engine,
    and today's engine continues it move for move as the version-1 engine does."""
    log, rng = _log(GAME_V1)
    assert log[0].data["rules"] == 1
    old = _without_version(log)
    s = replay(GAME, old)
    assert s.rules == 1 and s == replay(GAME_V1, log)
    rng_v1 = random.Random()
    rng_v1.setstate(rng.getstate())
    s1 = s
    for _ in range(200):
        if GAME.outcome(s) is not None:
            break
        seat = min(GAME.to_act(s))
        now = GAME.decide(s, seat, GAME.bots["normal"](s, seat, rng), rng)
        then = GAME_V1.decide(s1, seat, GAME_V1.bots["greedy"](s1, seat, rng_v1), rng_v1)
        assert now == then
        s, s1 = replay(GAME, now, s), replay(GAME_V1, then, s1)
    assert s.rules == 1


def test_version_1_keeps_its_zero_bid_and_discard_rules():
    """A16 as it was in version 1: an all-zero auction sells nothing (the version-1 discard
    pile is pinned in test_discard_pile.py's ``_v1`` tests)."""
    log, _ = _log(GAME_V1, steps=0)
    s = replay(GAME, _without_version(log))
    auction = replace(s, stage="bid", royal="J", sealed_seats=(0, 1, 2), waiting=(0, 1, 2),
                      market=("2H.1", "3H.1", "4H.1"), herald=0)
    for seat in range(3):
        auction, _ = play(auction, seat, {"type": "bid", "coins": 0})
    assert auction.stage == "stall" and len(auction.market) == 3
    # the same auction in a version-2 game: everyone is a tied top bidder
    v2 = replace(auction, rules=2, stage="bid", sealed_seats=(0, 1, 2), waiting=(0, 1, 2),
                 choices={})
    for seat in range(3):
        v2, _ = play(v2, seat, {"type": "bid", "coins": 0})
    assert v2.stage == "declare"
