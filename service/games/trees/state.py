"""The Trees state, its card facts (T2, T3) and `evolve`.

The state is plain JSON (dicts, lists, strings, ints), so it compares with ``==``, snapshots
as JSON and deep-copies cheaply. `evolve` never mutates the state it is given; `decide` works
on copies and returns events that record every chance outcome (deck and root orders,
reshuffles, the first player), so replaying the events rebuilds the game exactly.

State keys:

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
from ..contract import Event

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


def copy_state(state: Mapping) -> dict:
    """A copy deep enough that evolving it leaves `state` untouched."""
    new = dict(state)
    new["hands"] = [list(h) for h in state["hands"]]
    new["draw"] = list(state["draw"])
    new["roots"] = list(state["roots"])
    new["discard"] = list(state["discard"])
    new["trees"] = [{"root": t["root"], "kids": {c: list(k) for c, k in t["kids"].items()}}
                    for t in state["trees"]]
    new["aces"] = [list(a) for a in state["aces"]]
    new["scores"] = list(state["scores"])
    return new


def _remove_tree(state: dict, root: str) -> dict:
    tree = tree_by_root(state, root)
    state["trees"] = [t for t in state["trees"] if t["root"] != root]
    return tree


def apply(state: dict, event: Event) -> None:
    """Fold one event into `state` in place (callers copy first)."""
    kind, d = event.type, event.data
    if kind == "CardPlayed":
        seat = d["seat"]
        state["hands"][seat].remove(d["card"])
        tree = node_of(state, d["under"])
        tree["kids"][d["under"]].append(d["card"])
        tree["kids"][d["card"]] = []
        _next_turn(state)
    elif kind == "TreeHarvested":
        seat = d["seat"]
        tree = _remove_tree(state, d["root"])
        state["aces"][seat].append(d["root"])
        state["scores"][seat] += d["points"]
        state["discard"].extend(c for c in tree["kids"] if c != d["root"])
        _next_turn(state)
    elif kind == "TreeUnrooted":
        tree = _remove_tree(state, d["root"])
        state["roots"].append(d["root"])
        state["discard"].extend(c for c in tree["kids"] if c != d["root"])
        _next_turn(state)
    elif kind == "RootsShuffled":
        assert sorted(d["order"]) == sorted(state["roots"]), "root shuffle lost an Ace"
        state["roots"] = list(d["order"])
    elif kind == "TreeStarted":
        assert state["roots"][0] == d["root"], "a tree must start from the top of the root pile"
        state["roots"].pop(0)
        state["trees"].append({"root": d["root"], "kids": {d["root"]: []}})
    elif kind == "DiscardsReshuffled":
        assert not state["draw"] and sorted(d["order"]) == sorted(state["discard"])
        state["draw"] = list(d["order"])
        state["discard"] = []
    elif kind == "CardDrawn":
        card = state["draw"].pop(0)
        assert card == d["card"], "drawn card is not the top of the draw pile"
        state["hands"][d["seat"]].append(card)
    elif kind == "GameEnded":
        state["ended"] = d["how"]
        state["to_act"] = None
    else:
        raise ValueError(f"Trees has no event {kind!r}")


def _next_turn(state: dict) -> None:
    state["turn"] += 1
    state["to_act"] = (state["to_act"] + 1) % state["seats"]


def initial(d: Mapping[str, Any]) -> dict:
    """The state a GameStarted event creates: hands dealt, root pile ordered, no trees yet."""
    seats = d["seats"]
    deck = list(d["deck"])
    hands = [deck[i * HAND_SIZE:(i + 1) * HAND_SIZE] for i in range(seats)]
    return {
        "seats": seats,
        "options": dict(d["options"]),
        "first": d["first"],
        "turn": 1,
        "to_act": d["first"],
        "hands": hands,
        "draw": deck[seats * HAND_SIZE:],
        "roots": list(d["roots"]),
        "discard": [],
        "trees": [],
        "aces": [[] for _ in range(seats)],
        "scores": [0] * seats,
        "ended": None,
    }


def evolve(state: Mapping | None, event: Event) -> dict:
    if event.type == "GameStarted":
        if state is not None:
            raise ValueError("GameStarted must be the first event")
        return initial(event.data)
    if state is None:
        raise ValueError(f"{event.type} before GameStarted")
    new = copy_state(state)
    apply(new, event)
    return new
