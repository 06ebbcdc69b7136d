"""What each seat may see of a Trees game (docs/rules/rulings.md T8, "Hidden information"): views,
history sentences, the outcome, and the zone/secret lists the invariant suite checks.

Hands are seen by their owner only (sizes are public); the draw pile by nobody; the order of the
root pile by nobody. Trees, harvested Aces, scores and the discard pile are public.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..cards import decktet
from ..contract import Event, Outcome, places_by
from ..text import N_, phrase, said
from . import commands, rules
from .state import CAP, HAND_SIZE, cap_name, card_name, crowns_in, tree_name

HOW = {"harvested": N_("all six Aces harvested"), "turn_cap": N_("turn cap reached")}


def outcome(state) -> Outcome | None:
    if not state["ended"]:
        return None
    scores = state["scores"]
    aces = [len(a) for a in state["aces"]]
    best = max(scores)
    top = [s for s in range(state["seats"]) if scores[s] == best]
    most = max(aces[s] for s in top)
    winners = tuple(s for s in top if aces[s] == most)
    # T8 places every seat the way it picks the winners: points, then Aces
    places = places_by([(scores[s], aces[s]) for s in range(state["seats"])])
    return Outcome(tuple(scores), winners, HOW[state["ended"]],
                   {"aces": [list(a) for a in state["aces"]], "turns": state["turn"] - 1,
                    "tie_break": "aces" if len(top) > 1 else None}, places)


def view(state, seat: int | None) -> dict:
    n = state["seats"]
    out = {
        "game": "trees",
        "seat": seat,
        "to_act": [] if state["to_act"] is None else [state["to_act"]],
        "turn": state["turn"],
        "turn_cap": state["options"]["turn_cap"],
        "bonus": state["options"]["bonus"],
        "first": state["first"],
        "trees": [_tree_view(state, t, seat) for t in state["trees"]],
        "root_pile": len(state["roots"]),
        "draw_pile": len(state["draw"]),
        "discard": list(state["discard"]),
        "players": [{"seat": s, "hand_size": len(state["hands"][s]),
                     "aces": list(state["aces"][s]), "score": state["scores"][s]}
                    for s in range(n)],
        "outcome": None,
    }
    if seat is not None:
        out["hand"] = list(state["hands"][seat])
        if state["to_act"] == seat:
            moves = rules.legal_moves(state, seat)
            plays: dict[str, list[str]] = {}
            for m in moves:
                if m["type"] == "play":
                    plays.setdefault(m["card"], []).append(m["under"])
            out["plays"] = plays
            out["harvest"] = [m["root"] for m in moves if m["type"] == "harvest"]
            out["must_unroot"] = bool(moves) and moves[0]["type"] == "unroot"  # T6
            out["moves"] = [commands.describe(m) for m in moves]
    result = outcome(state)
    if result is not None:
        out["outcome"] = result.to_json()
    return out


def _tree_view(state, tree, seat):
    kids = tree["kids"]

    def node(card):
        return {"card": card, "name": card_name(card),
                "room": CAP[card] - len(kids[card]),
                "children": [node(c) for c in kids[card]]}

    crowns = crowns_in(tree)
    out = {"root": tree["root"], "name": tree_name(tree["root"]), "size": len(kids),
           "crowns": crowns, "tree": node(tree["root"])}
    if seat is not None:
        out["worth"] = rules.harvest_value(state, seat, tree)[2]
    return out

# ------------------------------------------------------------------ history
# One function per event type: what `seat` (None = a spectator) may know of it, with the
# sentence the history shows. Only GameStarted (the dealt hand) and CardDrawn (the card) hold
# anything private; everything else is public (docs/rules/rulings.md, Trees, "Hidden information").

Data = Mapping[str, Any]


def _game_started(d: Data, seat: int | None) -> dict:
    # the fixed deck and root orders would reveal the draw pile and root pile: say only
    # whether they were fixed
    opts = {k: v for k, v in d["options"].items() if k not in ("deck", "roots")}
    opts.update({k: ("fixed" if d["options"][k] else "shuffled") for k in ("deck", "roots")})
    out = {"seats": d["seats"], "first": d["first"], "options": opts,
           **said(N_("The game begins; {player} plays first."),
                  N_("The game begins; you play first."), d["first"])}
    if seat is not None:
        out["hand"] = list(d["deck"][seat * HAND_SIZE:(seat + 1) * HAND_SIZE])
    return out


def _suit(root: str) -> str:
    # a tree is named by its Ace's suit as the rules name it ("Moons"); the sentence around
    # it is ours to translate (German declines "the Moons tree" by its place in a sentence)
    return decktet.SUIT_NAMES[root[1]]


def _tree_started(d: Data, seat: int | None) -> dict:
    return {"root": d["root"],
            **said(N_("{card} starts the {suit} tree."), card=cap_name(d["root"]),
                   suit=_suit(d["root"]))}


def _card_played(d: Data, seat: int | None) -> dict:
    return {"seat": d["seat"], "card": d["card"], "under": d["under"], "root": d["root"],
            **said(N_("{player} played {card} under {under} in the {suit} tree."),
                   N_("You played {card} under {under} in the {suit} tree."), d["seat"],
                   card=card_name(d["card"]), under=card_name(d["under"]),
                   suit=_suit(d["root"]))}


def _tree_harvested(d: Data, seat: int | None) -> dict:
    crowns = phrase(N_("1 Crown")) if d["crowns"] == 1 else \
        phrase(N_("{count} Crowns"), count=d["crowns"])
    points = phrase(N_("1 point")) if d["points"] == 1 else \
        phrase(N_("{count} points"), count=d["points"])
    if d["bonus"]:
        sentence = said(N_("{player} harvested the {suit} tree: {crowns}, {bonus} bonus, "
                           "{points}."),
                        N_("You harvested the {suit} tree: {crowns}, {bonus} bonus, {points}."),
                        d["seat"], suit=_suit(d["root"]), crowns=crowns, bonus=d["bonus"],
                        points=points)
    else:
        sentence = said(N_("{player} harvested the {suit} tree: {crowns}, {points}."),
                        N_("You harvested the {suit} tree: {crowns}, {points}."),
                        d["seat"], suit=_suit(d["root"]), crowns=crowns, points=points)
    return {"seat": d["seat"], "root": d["root"], "crowns": d["crowns"], "bonus": d["bonus"],
            "points": d["points"], **sentence}


def _tree_unrooted(d: Data, seat: int | None) -> dict:
    return {"seat": d["seat"], "root": d["root"],
            **said(N_("{player} could neither play nor harvest and unrooted the {suit} tree."),
                   N_("You could neither play nor harvest and unrooted the {suit} tree."),
                   d["seat"], suit=_suit(d["root"]))}


def _roots_shuffled(d: Data, seat: int | None) -> dict:
    # the order stays secret (nobody knows the root pile's order); only the count is told
    return {"count": len(d["order"]), **said(N_("The root pile was shuffled."))}


def _discards_reshuffled(d: Data, seat: int | None) -> dict:
    return {"count": len(d["order"]),
            **said(N_("The discard pile ({count} cards) was shuffled into a new draw pile."),
                   count=len(d["order"]))}


def _card_drawn(d: Data, seat: int | None) -> dict:
    if seat == d["seat"]:
        return {"seat": d["seat"], "card": d["card"],
                **said(N_("{player} drew {card}."), N_("You drew {card}."), d["seat"],
                       card=card_name(d["card"]))}
    return {"seat": d["seat"],
            **said(N_("{player} drew a card."), N_("You drew a card."), d["seat"])}


def _game_ended(d: Data, seat: int | None) -> dict:
    return {"how": d["how"], "scores": list(d["scores"]),
            **said(N_("The game is over: {how}."), how=phrase(HOW[d["how"]]))}


REDACT: dict[str, Callable[[Data, int | None], dict]] = {
    "GameStarted": _game_started,
    "TreeStarted": _tree_started,
    "CardPlayed": _card_played,
    "TreeHarvested": _tree_harvested,
    "TreeUnrooted": _tree_unrooted,
    "RootsShuffled": _roots_shuffled,
    "DiscardsReshuffled": _discards_reshuffled,
    "CardDrawn": _card_drawn,
    "GameEnded": _game_ended,
}


def redact(event: Event, seat: int | None) -> dict | None:
    part = REDACT.get(event.type)
    if part is None:
        return None
    return {"type": event.type, **part(event.data, seat)}


def zones(state) -> dict[str, list[str]]:
    out = {f"hand:{s}": list(h) for s, h in enumerate(state["hands"])}
    out.update(draw=list(state["draw"]), roots=list(state["roots"]),
               discard=list(state["discard"]))
    for t in state["trees"]:
        out[f"tree:{t['root']}"] = list(t["kids"])
    for s, a in enumerate(state["aces"]):
        out[f"aces:{s}"] = list(a)
    return out


def secrets(state, seat: int | None) -> set[str]:
    """Other players' hands and the draw pile. The root pile's *order* is secret too (it
    never appears in a view or a redacted event), but not its contents: every Ace not in a
    tree or harvested is in it, and an unroot names the Ace it returns there."""
    out = set(state["draw"])
    for s, hand in enumerate(state["hands"]):
        if s != seat:
            out |= set(hand)
    return out
