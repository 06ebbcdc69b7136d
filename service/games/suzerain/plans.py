"""What a seat may know when it writes a plan (service.play.moves.plans): the position as its
opponent's hand could be, from the writer's own knowledge only, so that accepting or refusing
a plan line never tells the writer where a hidden card is (issue: plans are private)."""
from __future__ import annotations

from dataclasses import replace

from ..cards import decktet as dk
from ..contract import Move
from .state import State, ordered


def possible_hand(state: State, writer: int) -> tuple[str, ...]:
    """Every card the opponent might hold, as the writer sees it: the cards hidden from the
    writer (the deck and the opponent's unseen cards, one pool) and the public cards known
    to be in the opponent's hand."""
    other = 1 - writer
    hidden = set(state.deck) | {c for c in state.hands[other] + state.piles[other]
                                + state.removed[other] if c not in state.public}
    known = {c for c in state.hands[other] if c in state.public}
    return ordered(list(hidden | known))


def plan_world(state: State, writer: int) -> State:
    """The position with the opponent holding every card it might hold: the condition of a
    plan is read (and tried) against this, never against its real hand."""
    hands = list(state.hands)
    hands[1 - writer] = possible_hand(state, writer)
    return replace(state, hands=tuple(hands))


def never_possible(state: State, writer: int, move: Move) -> str | None:
    """Why the opponent can never make `move`, as far as the writer can know (None: it may)."""
    pool = set(possible_hand(state, writer))
    kind = move.get("type")
    cards = list(move.get("cards") or []) + ([move["card"]] if "card" in move else [])
    if kind == "take":
        pool |= set(state.display)
    for card in cards:
        if card not in pool:
            where = "is in your own hand" if card in state.hands[writer] else \
                "has already been played or is out of reach"
            return f"{dk.name(card)} {where}"
    return None
