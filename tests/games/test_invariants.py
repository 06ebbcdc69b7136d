"""DESIGN.md's invariants, checked by random play on every registered engine:

replay of the log reproduces the state; neither decide nor evolve mutates a state; no view or history entry contains a card its seat may
not know; every card is in exactly one zone; `decide` never mutates its input; every legal
move's canonical text parses back to it; random legal play always reaches an outcome.
"""
from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from service.games import registry
from service.games.contract import Event, IllegalMove, OptionError, replay

GAMES = sorted(registry.available())
MAX_STEPS = 20_000


def option_sets(game):
    """A strategy over every option that has a closed set of values."""
    fields = {name: st.sampled_from(opt.choices) for name, opt in game.options.items()
              if opt.choices}
    return st.fixed_dictionaries(fields)


def ids_in(obj) -> set[str]:
    """Every string anywhere in a JSON-safe value (card ids are strings)."""
    out: set[str] = set()
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            out.add(x)
        elif isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
    return out


def check_zones(game, state, total):
    zones = game.zones(state)
    cards = [c for cards in zones.values() for c in cards]
    dupes = {c for c in cards if cards.count(c) > 1} if len(set(cards)) != len(cards) else set()
    assert not dupes, f"cards in two places at once: {sorted(dupes)}"
    if total is not None:
        assert len(cards) == total, f"{total - len(cards)} cards went missing"
    return len(cards)


def check_views(game, state, seats, events):
    for seat in [*range(seats), None]:
        view = game.view(state, seat)
        json.dumps(view)  # JSON-safe
        # DESIGN.md: every view has at least these (a spectator has no hand)
        assert {"game", "seat", "to_act", "outcome"} <= set(view), sorted(view)
        assert view["seat"] == seat and ("hand" in view) == (seat is not None)
        secret = game.secrets(state, seat)
        leaked = secret & ids_in(view)
        assert not leaked, f"seat {seat} view shows {sorted(leaked)}"
        for event in events:
            seen = game.redact(event, seat)
            if seen is not None:
                json.dumps(seen)
                leaked = secret & ids_in(seen)
                assert not leaked, f"seat {seat} history of {event.type} shows {sorted(leaked)}"


def play_out(game, seats, options, seed, check_every=1, roundtrip_sample=8):
    rng = random.Random(seed)
    log = list(game.start(seats, options, rng))
    state = replay(game, log)
    total = check_zones(game, state, None)
    steps = 0
    while game.outcome(state) is None:
        steps += 1
        assert steps < MAX_STEPS, "random play did not finish"
        to_act = sorted(game.to_act(state))
        assert to_act, "nobody to act in an unfinished game"
        seat = rng.choice(to_act)
        moves = game.legal_moves(state, seat)
        assert moves, f"seat {seat} is to act but has no legal move"
        for move in rng.sample(moves, min(roundtrip_sample, len(moves))):
            text = game.describe(move)
            assert game.parse(state, seat, text) == [move], f"{text!r} does not parse back"
        move = rng.choice(moves)
        before = copy.deepcopy(state)
        events = game.decide(state, seat, json.loads(json.dumps(move)), rng)
        assert state == before, "decide mutated its input state"
        assert events, "a legal move produced no events"
        for event in events:
            json.dumps(event.to_json())
            prior = copy.deepcopy(state) if steps % check_every == 0 else None
            new = game.evolve(state, event)
            # the service caches states and shares them between requests: evolve must copy
            assert prior is None or state == prior, f"evolve mutated the state on {event.type}"
            state = new
        log.extend(events)
        if steps % check_every == 0:
            check_zones(game, state, total)
            check_views(game, state, seats, events)
    check_zones(game, state, total)
    check_views(game, state, seats, [])
    # the stored log round-trips through JSON and rebuilds the same state
    stored = [Event.from_json(json.loads(json.dumps(e.to_json()))) for e in log]
    assert replay(game, stored) == state, "replaying the log gave a different state"
    outcome = game.outcome(state)
    assert len(outcome.scores) == seats and outcome.winners
    json.dumps(outcome.to_json())
    return state, log


@pytest.mark.parametrize("game_id", GAMES)
def test_random_play_keeps_every_invariant(game_id):
    game = registry.get(game_id)

    @settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
    @given(seats=st.sampled_from(list(game.seats)), options=option_sets(game),
           seed=st.integers(0, 2**32))
    def run(seats, options, seed):
        try:
            options = game.validate_options(seats, options)
        except OptionError:
            assume(False)
        play_out(game, seats, options, seed)

    run()


@pytest.mark.parametrize("game_id", GAMES)
def test_illegal_moves_are_refused_without_change(game_id):
    game = registry.get(game_id)
    rng = random.Random(7)
    seats = game.seats.start
    state = replay(game, game.start(seats, game.validate_options(seats, {}), rng))
    before = copy.deepcopy(state)
    for seat in range(seats):
        with pytest.raises(IllegalMove):
            game.decide(state, seat, {"type": "no-such-move"}, rng)
    waiting = [s for s in range(seats) if s not in game.to_act(state)]
    for seat in waiting:
        move = game.legal_moves(state, sorted(game.to_act(state))[0])[0]
        with pytest.raises(IllegalMove):
            game.decide(state, seat, move, rng)
    assert state == before
