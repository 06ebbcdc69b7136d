"""Building Suzerain positions for scenario tests: a fixed setup and moves typed as text."""
from __future__ import annotations

import random
from dataclasses import replace

from service.games.contract import Event, replay
from service.games.suzerain import GAME
from service.games.suzerain.state import POOL

RNG = random.Random(0)
# seat 0 deals (so seat 1 leads) and holds the Moon set with the Aces of Moons, Suns, Waves;
# seat 1 holds the Wyrm set with the Aces of Leaves, Wyrms, Knots.
ACES = "1M, 1S, 1V, 1L, 1Y, 1K"


def deck(*top: str) -> str:
    """The pool with `top` first (top of the deck first), then the rest in a fixed order."""
    return ", ".join(list(top) + [c for c in POOL if c not in top])


def new(*top: str, version: int | None = None, **options) -> tuple:
    """A fixed setup; `version=1` makes the log a game begun before rules versions existed,
    another `version` a game begun under that older rules version."""
    opts = {"dealer": "first", "moon_set": "first", "aces": ACES, "deck": deck(*top)}
    opts.update(options)
    events = GAME.start(2, GAME.validate_options(2, opts), RNG)
    if version is not None:
        events = as_version(events, version)
    return replay(GAME, events), list(events)


def as_version_1(events: list) -> list:
    """The same log as it was written before rules versions: no "rules" in its first event."""
    first = events[0]
    data = {k: v for k, v in first.data.items() if k != "rules"}
    return [Event(first.type, data), *events[1:]]


def as_version(events: list, version: int) -> list:
    """The same log as the engine wrote it when `version` was its rules version (version 1:
    before versions existed)."""
    if version == 1:
        return as_version_1(events)
    first = events[0]
    return [Event(first.type, {**first.data, "rules": version}), *events[1:]]


def one_card_left(state, seat: int, keep: tuple[str, ...]):
    """`seat` holds only `keep`; the rest of its hand already lies in its pile."""
    rest = tuple(c for c in state.hands[seat] if c not in keep)
    hands = list(state.hands)
    piles = list(state.piles)
    hands[seat], piles[seat] = keep, piles[seat] + rest
    return replace(state, hands=tuple(hands), piles=tuple(piles))


def swap_hand(state, seat: int, out: tuple[str, ...], into: tuple[str, ...]):
    """`seat`'s hand with the cards `out` exchanged for `into` from the deck: the same sizes
    everywhere, only what the hidden hand holds differs."""
    hand = tuple(c for c in state.hands[seat] if c not in out) + into
    deck = tuple(c for c in state.deck if c not in into) + out
    hands = list(state.hands)
    hands[seat] = hand
    return replace(state, hands=tuple(hands), deck=deck)


def seat_to_act(state) -> int:
    (seat,) = GAME.to_act(state)
    return seat


def act(state, text: str, log: list | None = None, seat: int | None = None):
    """Apply the moves `text` reads as, for the seat to act (or `seat`)."""
    seat = seat_to_act(state) if seat is None else seat
    for move in GAME.parse(state, seat, text):
        events = GAME.decide(state, seat, move, RNG)
        if log is not None:
            log.extend(events)
        state = replay(GAME, events, state)
    return state


def play(state, *texts: str, log: list | None = None):
    for text in texts:
        state = act(state, text, log)
    return state
