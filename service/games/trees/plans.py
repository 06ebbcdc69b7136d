"""What a seat may know when it writes a plan (service.play.moves.standingplans): the position with
every other seat holding any card it might hold, so that accepting or refusing a plan line
never tells the writer where a hidden card is (plans are private).

A seat only gains a card by drawing at the end of its own action (T7), so on its next
action it plays from the hand it holds now: a card the writer can see anywhere (its own hand,
a tree, the discards) can never be the one it plays."""
from __future__ import annotations

from collections.abc import Mapping

from ..contract import Move
from ..text import N_, phrase
from .state import ACES, card_name, node_of, tree_name


def possible_hand(state: Mapping, writer: int) -> list[str]:
    """Every card another seat might hold, as the writer sees it: the draw pile and the other
    hands, one pool."""
    pool = set(state["draw"])
    for seat, hand in enumerate(state["hands"]):
        if seat != writer:
            pool |= set(hand)
    return sorted(pool)


def plan_world(state: Mapping, writer: int) -> dict:
    """The position with each other seat holding the whole pool and the draw pile made of
    it in a fixed order (its size is public, its cards are not), and the root pile in a fixed
    order (its cards are public, its order is not; a tree starts only after a shuffle, T6): a
    function of what the writer may know alone."""
    pool = possible_hand(state, writer)
    hands = [list(hand) if seat == writer else list(pool)
             for seat, hand in enumerate(state["hands"])]
    return {**state, "hands": hands, "draw": pool[:len(state["draw"])],
            "roots": sorted(state["roots"])}


def never_possible(state: Mapping, writer: int, move: Move) -> dict | None:
    """Why another seat can never make `move` on its next action, as far as the writer can
    know (None: it may)."""
    kind = move.get("type")
    if kind == "play":
        card = move.get("card")
        if card in state["hands"][writer]:
            return phrase(N_("{card} is in your own hand"), card=card_name(card))
        if node_of(state, card) is not None or card in state["discard"]:
            return phrase(N_("{card} has already been played"), card=card_name(card))
        if card in ACES:
            return phrase(N_("an Ace is never played from a hand"))
        return None
    root = move.get("root")
    if any(root in aces for aces in state["aces"]):
        return phrase(N_("{tree} has been harvested"), tree=tree_name(root))
    return None
