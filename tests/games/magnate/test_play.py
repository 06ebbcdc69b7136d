"""Whole games: bot strength, golden playthroughs, options, replay."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from service.games.contract import OptionError, replay
from service.games.magnate import GAME, Magnate
from service.games.magnate.setup import property_deck
from tests.budgets import seeds
from tests.games.golden import check

GOLDEN = Path(__file__).parent / "golden"


class MagnateV1(Magnate):
    """The engine starting games under rules version 1, as it did before versions: the golden
    files recorded then must keep replaying unchanged (docs/engines.md, "Rules versions")."""

    rules_version = 1


class MagnateV2(Magnate):
    """The engine starting games under rules version 2 (M9 amended; the Ace choice starting at
    "ask"): the version-2 golden files keep replaying unchanged."""

    rules_version = 2


V1 = MagnateV1()
V2 = MagnateV2()


def play(seats, options, seed, bots):
    rng = random.Random(seed)
    events = GAME.start(seats, GAME.validate_options(seats, options), rng)
    st = replay(GAME, events)
    while GAME.outcome(st) is None:
        seat = st.turn
        move = GAME.bots[bots[seat]](st, seat, rng)
        new = GAME.decide(st, seat, move, rng)
        events += new
        st = replay(GAME, new, st)
    return st, events


@pytest.mark.deep
def test_greedy_beats_random_at_least_70_percent_of_seeded_games():
    """200 games in the deep run; 30 fixed seeds in make test (greedy wins 26)."""
    wins = 0
    games = seeds(30, start=5000)
    for n in games:
        g = n % 2
        bots = ["random", "random"]
        bots[g] = "greedy"
        st, _ = play(2, {}, n, bots)
        wins += GAME.outcome(st).winners == (g,)
    assert wins >= 0.7 * len(games), wins


def test_finished_game_replays_from_its_log():
    st, events = play(2, {"ruleset": "modern", "replace_ace": True}, 11, ["greedy", "random"])
    assert replay(GAME, events) == st


@pytest.mark.parametrize("name,seats,options,seed", [
    ("classic", 2, {}, 1),
    ("modern", 2, {"ruleset": "modern", "replace_ace": True}, 2),
    ("mega", 2, {"mega": True, "replace_ace": True}, 21),
    ("three", 3, {"ruleset": "modern", "three": True}, 4),
])
def test_golden_v1(name, seats, options, seed):
    check(GOLDEN / f"{name}.jsonl", V1, seats, options, seed, bot="greedy")


@pytest.mark.parametrize("name,seats,options,seed", [
    ("classic", 2, {}, 1),
    ("modern", 2, {"ruleset": "modern", "replace_ace": True}, 2),
    ("mega", 2, {"mega": True, "replace_ace": True}, 21),
    ("three", 3, {"ruleset": "modern", "three": True}, 4),
])
def test_golden_v2(name, seats, options, seed):
    """Rules 2: the same seeds, turns ended by the bot's `end` (M9 amended)."""
    check(GOLDEN / f"{name}_v2.jsonl", V2, seats, options, seed, bot="normal")


@pytest.mark.parametrize("name,seats,options,seed", [
    ("modern", 2, {"ruleset": "modern", "replace_ace": True}, 2),
    ("mega", 2, {"mega": True, "replace_ace": True}, 21),
])
def test_golden_v3(name, seats, options, seed):
    """Rules 3 (RULINGS M16 amended): the Ace choice starts at "never"; the games with the
    Replace the Ace variant, the only ones it changes."""
    check(GOLDEN / f"{name}_v3.jsonl", GAME, seats, options, seed, bot="normal")


def test_deck_option_fixes_the_order():
    opts = GAME.validate_options(2, {})
    deck = property_deck(opts)
    st = replay(GAME, GAME.start(2, {"deck": ",".join(deck)}, random.Random(1)))
    assert st.players[0].hand == tuple(deck[:3]) and st.players[1].hand == tuple(deck[3:6])
    with pytest.raises(OptionError, match="each of these"):
        GAME.validate_options(2, {"deck": ",".join(deck[1:])})
    crowns = ["NM", "NS", "NV", "NL", "NY", "NK"]
    st = replay(GAME, GAME.start(2, {"deck": ",".join(deck + crowns)}, random.Random(1)))
    assert st.players[0].crowns == ("NM", "NV", "NY")
