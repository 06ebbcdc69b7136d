"""docs/architecture.md's invariants, checked by random play on every registered engine:

replay of the log reproduces the state; neither decide nor evolve mutates a state; no view or history entry contains a card its seat may
not know; every card is in exactly one zone; `decide` never mutates its input; every legal
move's canonical text parses back to it; random legal play always reaches an outcome.

History entries are read twice: `check_views` looks for card ids among their strings, and
tests/games/leaks.py reads every entry of every event as a person does, ids, Decktet names
and French labels in its sentence and fields, against the cards its reader may not know.
The tests at the bottom prove that reader compares cards in every game and catches a leak
planted in each engine.
"""
from __future__ import annotations

import copy
import functools
import json
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from service.games import registry
from service.games.contract import Event, IllegalMove, OptionError, replay
from tests.budgets import examples
from tests.games.leaks import HistoryCheck, Leaky, Vocabulary, leaks_in, play_and_read

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
        # docs/architecture.md: every view has at least these (a spectator has no hand)
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
    history = HistoryCheck(game, seats)
    log = list(game.start(seats, options, rng))
    state = None
    for event in log:
        new = game.evolve(state, event)
        history.event(state, event, new)
        state = new
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
            history.event(state, event, new)   # every entry, every seat, every event
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
    assert history.stats["entries"] > 0
    return state, log


# Whole games per engine, and how often their views are read for leaks: an Aristocracy game
# without a round cap is some 40 times a Trees game's work (its copies' canonical names), and
# its every event is still read by the history check
BUDGET = {"aristocracy": (3, 4), "magnate": (8, 1), "suzerain": (12, 1), "trees": (12, 1)}


@pytest.mark.deep
@pytest.mark.parametrize("game_id", GAMES)
def test_random_play_keeps_every_invariant(game_id):
    game = registry.get(game_id)
    games, check_every = BUDGET[game_id]

    @settings(max_examples=examples(games), deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(seats=st.sampled_from(list(game.seats)), options=option_sets(game),
           seed=st.integers(0, 2**32))
    def run(seats, options, seed):
        try:
            options = game.validate_options(seats, options)
        except OptionError:
            assume(False)
        play_out(game, seats, options, seed, check_every=check_every)

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


# ---------------------------------------------------------------- the history leak reader
# One fixed game per engine (seeded, default options) for the tests below: the hypothesis
# property above reads every entry of many more games.
FIXED = {"trees": (3, 11), "magnate": (2, 12), "suzerain": (2, 13), "aristocracy": (2, 14)}
# how each game's history names cards, so the count proves each way is compared
NAMED_BY = {"trees": ("id", "name"), "magnate": ("id", "name"), "suzerain": ("id", "name"),
            "aristocracy": ("label",)}


def _fixed(game_id, check_game=None, **kw):
    game = registry.get(game_id)
    seats, seed = FIXED[game_id]
    check = HistoryCheck(check_game or game, seats, **kw)
    play_and_read(check_game or game, seats, {}, seed, check)
    return check


@functools.cache
def _plain(game_id):
    """The fixed game of an engine as it is, every leak collected rather than raised."""
    return _fixed(game_id, strict=False)


@pytest.mark.parametrize("game_id", GAMES)
def test_history_reader_compares_card_mentions(game_id):
    """Point 7: the leak property compared nothing of Aristocracy's history. Now every entry
    of every event is read for every seat and the spectator, and cards are compared."""
    check = _plain(game_id)
    stats = check.stats
    assert not check.leaks, "\n".join(map(str, check.leaks[:5]))
    assert stats["entries"] > 100, dict(stats)
    assert stats["mentions"] > 100, dict(stats)
    for kind in NAMED_BY[game_id]:
        assert stats[f"{kind} mentions"] > 50, (kind, dict(stats))
    # every event was read by every reader: entries + withheld = events x (seats + spectator)
    assert stats["entries"] + stats["entries withheld"] == check.index * (FIXED[game_id][0] + 1)


@pytest.mark.parametrize("game_id", GAMES)
def test_history_reader_catches_a_planted_leak(game_id):
    """An engine made to leak (its `redact` names a card hidden from the reader: by label or
    name in the sentence, or by id in a new field, in turn) fails the check, once per planted
    card, and nothing else does."""
    leaky = Leaky(registry.get(game_id))
    check = _fixed(game_id, leaky, strict=False)
    assert len(leaky.planted) > 10
    assert {how for how, *_ in leaky.planted} == {"text", "field"}
    caught = {(x.event, x.seat, c) for x in check.leaks for c in x.cards}
    missed = [p for p in leaky.planted if tuple(p[1:]) not in caught]
    assert not missed, f"planted leaks not caught: {missed[:5]}"
    planted = {tuple(p[1:]) for p in leaky.planted}
    assert all(any((x.event, x.seat, c) in planted for c in x.cards) for x in check.leaks)
    # strict mode raises on the first one, and so does the random-play property above
    with pytest.raises(AssertionError, match="history leaks a card its reader may not know"):
        _fixed(game_id, Leaky(registry.get(game_id)))
    seats, seed = FIXED[game_id]
    leaky = Leaky(registry.get(game_id))
    with pytest.raises(AssertionError, match="history leaks a card its reader may not know"):
        play_out(leaky, seats, leaky.validate_options(seats, {}), seed)
    assert leaky.planted


def test_history_reader_counts_copies_of_a_label():
    """Double decks: "3♦" may be a public copy and a secret one at once. A list of cards names
    different cards, so it may name a label at most as often as the reader knows copies;
    two lists may name one card twice ("you gave A♣ ... Market: A♣")."""
    vocab = Vocabulary(["3D.1", "3D.2", "AC.1", "AC.2", "8VL", "KD.1"])
    one_known = {"3D.2"}
    assert leaks_in({"text": "The market gets 3♦."}, one_known, vocab)[0] == []
    problems, mentions = leaks_in({"text": "The market gets 3♦ 3♦."}, one_known, vocab)
    assert problems == [("3♦", ("3D.2",), 2, 1)] and len(mentions) == 2
    assert leaks_in({"text": "you gave 3♦ and get 7♣. Market: 3♦."}, one_known, vocab)[0] == []
    both = {"3D.1", "3D.2"}
    assert leaks_in({"text": "{p1} discards 3♦ for a favor."}, both, vocab)[0]
    assert leaks_in({"text": "3 of Diamonds"}, both, vocab)[0]          # French name
    assert leaks_in({"card": "3D.2"}, one_known, vocab)[0]              # exact id
    assert leaks_in({"card": "3D.1"}, one_known, vocab)[0] == []
    assert leaks_in({"text": "{p0} drew 3D."}, both, vocab)[0]           # copy-less id
    assert leaks_in({"text": "K♦ Q♦"}, {"KD.1"}, vocab)[0]               # one copy only
    assert leaks_in({"hand": ["x", {"k": "10♦ 3♦"}]}, both, vocab)[0]   # any field, nested
    decktet = Vocabulary(["8VL", "1M", "NL"])
    assert leaks_in({"text": "The Mill."}, {"8VL"}, decktet)[0]
    assert leaks_in({"text": "{p0} drew Mill"}, {"8VL"}, decktet)[0]
    assert leaks_in({"text": "the Ace of Moons"}, {"1M"}, decktet)[0]
    assert leaks_in({"text": "the end of the game"}, {"NL"}, decktet)[0] == []
    assert leaks_in({"text": "the End"}, {"NL"}, decktet)[0]
