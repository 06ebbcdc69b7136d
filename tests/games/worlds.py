"""Worlds a seat cannot tell apart: the hidden-information invariance suite's resampling
(OpenSpiel's `ResampleFromInfostate`), for positions from seeded random play.

A world is the real position with every card the seat cannot see dealt again: the cards of
`game.secrets(state, seat)` permuted among their own places (the deck, the others' hands,
face-down cards), each card id replaced everywhere the state holds it, and the others' hidden
standing choices chosen again. Only places the seat could not tell apart trade cards: an
engine's `Deal` splits its secrets into groups that may trade places (a Suzerain Ace is
dealt, never in the deck), in stages, and pins the cards whose place the seat knows
something of.

Every registered engine has a `Deal` here (test_conformance.py insists), so a fifth game is
checked as soon as it has one: the default deals all its secrets as one group.
"""
from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from service.games.cards import decktet
from service.games.magnate.state import MODES
from service.games.suzerain.state import ordered

State = Any


def relabel(obj: Any, swap: Mapping[str, str]) -> Any:
    """`obj` with every string that is a key of `swap` replaced by its value, through
    frozen dataclasses, mappings, tuples, lists and sets (a card id is a whole string)."""
    if isinstance(obj, str):
        return swap.get(obj, obj)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return dataclasses.replace(obj, **{f.name: relabel(getattr(obj, f.name), swap)
                                           for f in dataclasses.fields(obj) if f.init})
    if isinstance(obj, Mapping):
        return type(obj)((relabel(k, swap), relabel(v, swap)) for k, v in obj.items())
    if isinstance(obj, (tuple, list, set, frozenset)):
        return type(obj)(relabel(x, swap) for x in obj)
    return obj


def _one_group(game, state: State, seat: int) -> list[set[str]]:
    return [set(game.secrets(state, seat))]


def _no_choices(game, state: State, seat: int, rng: random.Random) -> State:
    return state


@dataclass(frozen=True)
class Deal:
    """How one engine's hidden cards may be dealt again for `seat`.

    stages: each splits the secret cards of the world dealt so far into groups whose members
    may trade places, and they are dealt in turn (Suzerain deals its deck again after its
    hands, so a Pawn may change places with a plain card of the deck, never of a hand);
    choices: the state with the others' hidden standing choices chosen again."""

    stages: tuple[Callable[[Any, State, int], list[set[str]]], ...] = (_one_group,)
    choices: Callable[[Any, State, int, random.Random], State] = _no_choices


def deal_again(game, deal: Deal, state: State, seat: int, rng: random.Random) -> State:
    """A world that agrees with `seat`'s view of `state`."""
    world = state
    for stage in deal.stages:
        swap: dict[str, str] = {}
        for group in stage(game, world, seat):
            cards = sorted(group)
            shuffled = list(cards)
            rng.shuffle(shuffled)
            swap.update((a, b) for a, b in zip(cards, shuffled, strict=True) if a != b)
        world = relabel(world, swap) if swap else world
    return deal.choices(game, world, seat, rng)


# ---------------------------------------------------------------- Suzerain


def _suzerain_hands(game, state, seat: int) -> list[set[str]]:
    """The seat's unseen cards are the deck and the opponent's cards not public (S2, S5-S7).
    Aces are dealt, never in the deck: they trade places among the opponent's only. A Pawn
    or Court claimed is set aside face up at once (S7), so a hidden one is in the deck: the
    rest trade places between the deck and the opponent's hand and pile. A card removed with
    a right shares a suit with that right, so it stays where it is."""
    secret = set(game.secrets(state, seat))
    secret -= {c for s in (0, 1) if s != seat for c in state.removed[s]}
    aces = {c for c in secret if decktet.rank(c) == "1"}
    courts = {c for c in secret if decktet.rank(c) in "PT"}
    return [aces, secret - aces - courts]


def _suzerain_deck(game, state, seat: int) -> list[set[str]]:
    """Then the deck in a new order (nobody knows it), Pawns and Courts among the rest."""
    return [set(state.deck)]


def _suzerain_tidy(game, state, seat: int, rng: random.Random):
    """Hands are held in rank order (a dealt-again hand as well)."""
    return dataclasses.replace(state, hands=tuple(ordered(h) for h in state.hands))


# ---------------------------------------------------------------- Trees


def _trees_choices(game, state, seat: int, rng: random.Random):
    """The root pile's order is secret, its cards are not (T6)."""
    roots = list(state["roots"])
    rng.shuffle(roots)
    return {**state, "roots": roots}


# ---------------------------------------------------------------- Magnate


def _magnate_groups(game, state, seat: int) -> list[set[str]]:
    """One group, less the Ace a drawer answering "ask" is deciding on: everyone knows it is
    an Ace (M16 amended, the accepted tell)."""
    secret = set(game.secrets(state, seat))
    if state.asked:
        secret.discard(state.asked)
    return [secret]


def _magnate_choices(game, state, seat: int, rng: random.Random):
    """The others' income preferences (M19) and Ace settings (M16) chosen again; a drawer
    asked about an Ace now keeps "ask" (the game waits on it)."""
    asked = set(game.to_act(state)) if state.asked else set()
    players = []
    for s, p in enumerate(state.players):
        if s == seat:
            players.append(p)
            continue
        deeds = [prop.card for col in p.columns for prop in col if not prop.developed]
        prefs = tuple((card, rng.choice(decktet.suits(card))) for card in deeds if rng.random() < .7)
        aces = p.aces if s in asked else rng.choice(MODES)
        players.append(dataclasses.replace(p, prefs=prefs, aces=aces))
    return dataclasses.replace(state, players=tuple(players))


# ---------------------------------------------------------------- Aristocracy


def _aristocracy_choices(game, state, seat: int, rng: random.Random):
    """The others' standing end choices (A19) and sealed bids (A16) chosen again."""
    play_on = state.play_on
    if state.rules >= 4:
        play_on = tuple(s for s in range(state.n)
                        if (s in state.play_on if s == seat else rng.random() < .5))
    choices = dict(state.choices)
    for s, choice in state.choices.items():
        if s != seat and isinstance(choice, int) and not isinstance(choice, bool):
            choices[s] = rng.randint(0, state.coins[s])
    return dataclasses.replace(state, play_on=play_on, choices=choices)


DEALS: dict[str, Deal] = {
    "suzerain": Deal(stages=(_suzerain_hands, _suzerain_deck), choices=_suzerain_tidy),
    "trees": Deal(choices=_trees_choices),
    "magnate": Deal(stages=(_magnate_groups,), choices=_magnate_choices),
    "aristocracy": Deal(choices=_aristocracy_choices),
}
