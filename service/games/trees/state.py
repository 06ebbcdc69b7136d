"""The Trees state, its card facts (T2, T3) and `evolve`.

The state is a plain JSON mapping (dicts, lists, strings, ints), so it compares with ``==``
and snapshots as JSON. It is immutable by convention, the shared way (service/games/folding.py,
docs/engines.md): `evolve` is a `Fold` of one small handler per event type, and each handler
returns a new mapping, copying only the lists and dicts on the path to what it changes and
sharing the rest with its input. Nothing ever changes a state in place, so cached states may be
shared between requests. `rules.decide` emits events through a `folding.Recorder`; the events
record every chance outcome (deck and root orders, reshuffles, the first player), so replaying
them rebuilds the game exactly.

State keys:

``rules``       the rules version the game started under (1; logs without it are 1 too)
``seats``       number of players
``options``     validated options
``first``       the random first player (T1)
``turn``        actions taken so far + 1 (the number of the turn being played)
``to_act``      the seat whose turn it is (None once the game is over)
``hands``       one list of card ids per seat, in the order the cards arrived
``draw``        the draw pile, top first
``roots``       the root pile, top first
``discard``     the discard pile, oldest first
``trees``       trees in play, oldest first: {"root": ace, "kids": {card: [children]}}
                (every card of the tree is a key; its children in the order played)
``aces``        harvested Aces per seat, in harvest order
``scores``      points per seat
``ended``       None, or how the game ended ("harvested" | "turn_cap")
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import decktet
from ..folding import Fold, started_version

ACES = decktet.ACES
DRAW_CARDS = tuple(c for c in decktet.ALL if c != decktet.EXCUSE and c not in ACES)  # the 38
HAND_SIZE = 5

# T3: Ace < Pawn = Court < 2 ... 9 < Crown.
TREE_RANK = {"1": 0, "P": 1, "T": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8,
             "9": 9, "N": 10}
# T3: room under a card. Crowns none, Pawns and Courts three, every other card two.
ROOM = {"N": 0, "P": 3, "T": 3}
SUITS = {c: frozenset(decktet.suits(c)) for c in ACES + DRAW_CARDS}
RANK = {c: TREE_RANK[c[0]] for c in ACES + DRAW_CARDS}
CAP = {c: ROOM.get(c[0], 2) for c in ACES + DRAW_CARDS}


def is_crown(card: str) -> bool:
    return card[0] == "N"


def tree_name(root: str) -> str:
    """ "the Moons tree" for the tree rooted in the Ace of Moons (1M)."""
    return f"the {decktet.SUIT_NAMES[root[1]]} tree"


def card_name(card: str) -> str:
    return decktet.name(card)


def cap_name(card: str) -> str:
    """A card's name starting a sentence: "The Mill"."""
    name = card_name(card)
    return name[0].upper() + name[1:]


def node_of(state: Mapping, card: str) -> dict | None:
    """The tree holding `card`, or None."""
    for tree in state["trees"]:
        if card in tree["kids"]:
            return tree
    return None


def tree_by_root(state: Mapping, root: str) -> dict | None:
    for tree in state["trees"]:
        if tree["root"] == root:
            return tree
    return None


def crowns_in(tree: Mapping) -> list[str]:
    return [c for c in tree["kids"] if is_crown(c)]


def _without_tree(state: Mapping, root: str) -> tuple[dict, list]:
    """The tree rooted in `root` and the list of trees in play without it (a new list)."""
    tree = tree_by_root(state, root)
    return tree, [t for t in state["trees"] if t["root"] != root]


def _next_turn(state: Mapping) -> dict:
    """A shallow copy of `state` with the turn passed on clockwise (T1). Every handler starts
    from this or from ``dict(state)`` and then replaces, never changes, the keys it touches."""
    return {**state, "turn": state["turn"] + 1, "to_act": (state["to_act"] + 1) % state["seats"]}


def _replace_at(items: list, index: int, value: Any) -> list:
    """A copy of `items` with one entry replaced (the hands, aces and scores per seat)."""
    return [value if i == index else item for i, item in enumerate(items)]


# --------------------------------------------------------------------------- the fold
# One handler per event type. Each returns a new mapping and leaves everything reachable from
# its input alone: the service caches states and shares them between requests, so a handler
# copies each list or dict it changes (and the path down to it) and shares the rest.


def _started(_state: None, d: Mapping[str, Any]) -> dict:
    """GameStarted: hands dealt from the recorded deck order, root pile ordered, no trees yet
    (the two starter trees come as TreeStarted events right after, T1)."""
    seats = d["seats"]
    deck = list(d["deck"])
    return {
        "rules": started_version(d),
        "seats": seats,
        "options": dict(d["options"]),
        "first": d["first"],
        "turn": 1,
        "to_act": d["first"],
        "hands": [deck[i * HAND_SIZE:(i + 1) * HAND_SIZE] for i in range(seats)],
        "draw": deck[seats * HAND_SIZE:],
        "roots": list(d["roots"]),
        "discard": [],
        "trees": [],
        "aces": [[] for _ in range(seats)],
        "scores": [0] * seats,
        "ended": None,
    }


def _card_played(state: Mapping, d: Mapping[str, Any]) -> dict:
    """CardPlayed (T3): the card leaves the hand and hangs under `under` in its tree."""
    seat, card, under = d["seat"], d["card"], d["under"]
    hand = list(state["hands"][seat])
    hand.remove(card)
    old = node_of(state, under)
    kids = {**old["kids"], under: [*old["kids"][under], card], card: []}
    tree = {**old, "kids": kids}
    new = _next_turn(state)
    new["hands"] = _replace_at(state["hands"], seat, hand)
    new["trees"] = [tree if t is old else t for t in state["trees"]]
    return new


def _tree_harvested(state: Mapping, d: Mapping[str, Any]) -> dict:
    """TreeHarvested (T4, T5): the harvester keeps the Ace and the points; the rest is
    discarded in the order the cards were played."""
    seat, root = d["seat"], d["root"]
    tree, trees = _without_tree(state, root)
    new = _next_turn(state)
    new["trees"] = trees
    new["aces"] = _replace_at(state["aces"], seat, [*state["aces"][seat], root])
    new["scores"] = _replace_at(state["scores"], seat, state["scores"][seat] + d["points"])
    new["discard"] = [*state["discard"], *(c for c in tree["kids"] if c != root)]
    return new


def _tree_unrooted(state: Mapping, d: Mapping[str, Any]) -> dict:
    """TreeUnrooted (T6): the Ace goes back to the root pile (shuffled before the next tree
    starts), the rest to the discard pile."""
    root = d["root"]
    tree, trees = _without_tree(state, root)
    new = _next_turn(state)
    new["trees"] = trees
    new["roots"] = [*state["roots"], root]
    new["discard"] = [*state["discard"], *(c for c in tree["kids"] if c != root)]
    return new


def _roots_shuffled(state: Mapping, d: Mapping[str, Any]) -> dict:
    """RootsShuffled (T6): the recorded order of the root pile after the shuffle."""
    if sorted(d["order"]) != sorted(state["roots"]):
        raise ValueError("a root shuffle must keep the same Aces")
    return {**state, "roots": list(d["order"])}


def _tree_started(state: Mapping, d: Mapping[str, Any]) -> dict:
    """TreeStarted (T1, T6): the top Ace of the root pile starts a new tree."""
    if not state["roots"] or state["roots"][0] != d["root"]:
        raise ValueError("a tree must start from the top of the root pile")
    return {**state, "roots": state["roots"][1:],
            "trees": [*state["trees"], {"root": d["root"], "kids": {d["root"]: []}}]}


def _discards_reshuffled(state: Mapping, d: Mapping[str, Any]) -> dict:
    """DiscardsReshuffled (T7): an empty draw pile refilled from the shuffled discards."""
    if state["draw"] or sorted(d["order"]) != sorted(state["discard"]):
        raise ValueError("only an empty draw pile is refilled, from exactly the discards")
    return {**state, "draw": list(d["order"]), "discard": []}


def _card_drawn(state: Mapping, d: Mapping[str, Any]) -> dict:
    """CardDrawn (T7): the top card of the draw pile goes to the end of the hand."""
    seat, card = d["seat"], d["card"]
    if not state["draw"] or state["draw"][0] != card:
        raise ValueError("a drawn card must be the top of the draw pile")
    return {**state, "draw": state["draw"][1:],
            "hands": _replace_at(state["hands"], seat, [*state["hands"][seat], card])}


def _game_ended(state: Mapping, d: Mapping[str, Any]) -> dict:
    """GameEnded (T8): nobody acts any more."""
    return {**state, "ended": d["how"], "to_act": None}


evolve = Fold("trees", "GameStarted", {
    "GameStarted": _started,
    "CardPlayed": _card_played,
    "TreeHarvested": _tree_harvested,
    "TreeUnrooted": _tree_unrooted,
    "RootsShuffled": _roots_shuffled,
    "TreeStarted": _tree_started,
    "DiscardsReshuffled": _discards_reshuffled,
    "CardDrawn": _card_drawn,
    "GameEnded": _game_ended,
})
