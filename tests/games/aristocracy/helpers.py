"""Positions for scenario tests: a real started game, then the fields a test cares about."""
from __future__ import annotations

import random
from dataclasses import replace

from service.games.aristocracy import GAME
from service.games.aristocracy.state import Building
from service.games.contract import replay


class _Version1(type(GAME)):
    """The engine starting games under rules version 1, as every game begun before version 2
    did: the old golden playthroughs are replayed with it."""
    rules_version = 1


class _Version2(type(GAME)):
    """The engine starting games under rules version 2 (A13, A16 amended; a sealed choice in
    Herald order could still change): the version-2 golden playthroughs are replayed with it."""
    rules_version = 2


class _Version3(type(GAME)):
    """The engine starting games under rules version 3 (the end of the game offered to those
    who qualify, A19 before its amendment)."""
    rules_version = 3


GAME_V1 = _Version1()
GAME_V2 = _Version2()
GAME_V3 = _Version3()
OLD_ENGINES = {1: GAME_V1, 2: GAME_V2, 3: GAME_V3}


def started(n=3, seed=1, rules=None, **options):
    """A started game under the current rules, or under older `rules` (1, 2 or 3)."""
    rng = random.Random(seed)
    game = OLD_ENGINES.get(rules, GAME)
    return replay(game, game.start(n, game.validate_options(n, options), rng))


def turn(hands, stalls=None, buildings=None, coins=None, royal="K", seat=0, n=3, **more):
    """Seat `seat` is active with one action per stall card (A4)."""
    s = started(n, rules=more.pop("rules", None))
    stalls = stalls or [[] for _ in range(n)]
    bl = tuple(tuple(Building(*b) if isinstance(b, tuple) else b for b in row)
               for row in (buildings or [[] for _ in range(n)]))
    return replace(s, stage="turn", active=seat, actions=more.pop("actions", len(stalls[seat])),
                   turned=(seat,), royal=royal, hands=tuple(tuple(h) for h in hands),
                   stalls=tuple(tuple(x) for x in stalls), buildings=bl,
                   coins=tuple(coins or [3] * n), herald=more.pop("herald", 0),
                   sealed_seats=(), waiting=(), choices={}, **more)


def play(s, seat, move, seed=0):
    events = GAME.decide(s, seat, move, random.Random(seed))
    return replay(GAME, events, s), events


def say(s, seat, text, seed=0):
    (move,) = GAME.parse(s, seat, text)
    return play(s, seat, move, seed)
