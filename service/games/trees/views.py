"""What each seat may see of a Trees game (RULINGS.md T8, "Hidden information"): views,
history sentences, the outcome, and the zone/secret lists the invariant suite checks.

Hands are seen by their owner only (sizes are public); the draw pile by nobody; the order of the
root pile by nobody. Trees, harvested Aces, scores and the discard pile are public.
"""
from __future__ import annotations

from typing import Any

from ..contract import Event, Outcome
from . import commands, rules
from .rules import card_name, tree_name

HOW = {"harvested": "all six Aces harvested", "turn_cap": "turn cap reached"}


def _p(seat: int) -> str:
    """A seat placeholder for history text ("{p0}"), filled in by the service."""
    return "{p" + str(seat) + "}"


def outcome(state) -> Outcome | None:
    if not state["ended"]:
        return None
    scores = state["scores"]
    aces = [len(a) for a in state["aces"]]
    best = max(scores)
    top = [s for s in range(state["seats"]) if scores[s] == best]
    most = max(aces[s] for s in top)
    winners = tuple(s for s in top if aces[s] == most)
    return Outcome(tuple(scores), winners, HOW[state["ended"]],
                   {"aces": [list(a) for a in state["aces"]], "turns": state["turn"] - 1,
                    "tie_break": "aces" if len(top) > 1 else None})


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
                "room": rules.CAP[card] - len(kids[card]),
                "children": [node(c) for c in kids[card]]}

    crowns = rules.crowns_in(tree)
    out = {"root": tree["root"], "name": tree_name(tree["root"]), "size": len(kids),
           "crowns": crowns, "tree": node(tree["root"])}
    if seat is not None:
        out["worth"] = rules.harvest_value(state, seat, tree)[2]
    return out

def redact(event: Event, seat: int | None) -> dict | None:
    d, kind = event.data, event.type
    out: dict[str, Any] = {"type": kind}
    if kind == "GameStarted":
        opts = {k: v for k, v in d["options"].items() if k not in ("deck", "roots")}
        opts.update({k: ("fixed" if d["options"][k] else "shuffled")
                     for k in ("deck", "roots")})
        out.update(seats=d["seats"], first=d["first"], options=opts,
                   text=f"The game begins; {_p(d['first'])} plays first.")
        if seat is not None:
            out["hand"] = list(d["deck"][seat * rules.HAND_SIZE:(seat + 1) * rules.HAND_SIZE])
    elif kind == "TreeStarted":
        out.update(root=d["root"],
                   text=f"{rules.cap_name(d['root'])} starts {tree_name(d['root'])}.")
    elif kind == "CardPlayed":
        out.update(seat=d["seat"], card=d["card"], under=d["under"], root=d["root"],
                   text=f"{_p(d['seat'])} played {card_name(d['card'])} under "
                        f"{card_name(d['under'])} in {tree_name(d['root'])}.")
    elif kind == "TreeHarvested":
        bonus = f", {d['bonus']} bonus" if d["bonus"] else ""
        crowns = "1 Crown" if d["crowns"] == 1 else f"{d['crowns']} Crowns"
        points = "1 point" if d["points"] == 1 else f"{d['points']} points"
        out.update(seat=d["seat"], root=d["root"], crowns=d["crowns"], bonus=d["bonus"],
                   points=d["points"],
                   text=f"{_p(d['seat'])} harvested {tree_name(d['root'])}: "
                        f"{crowns}{bonus}, {points}.")
    elif kind == "TreeUnrooted":
        out.update(seat=d["seat"], root=d["root"],
                   text=f"{_p(d['seat'])} could neither play nor harvest and unrooted "
                        f"{tree_name(d['root'])}.")
    elif kind == "RootsShuffled":
        out.update(count=len(d["order"]), text="The root pile was shuffled.")
    elif kind == "DiscardsReshuffled":
        out.update(count=len(d["order"]),
                   text=f"The discard pile ({len(d['order'])} cards) was shuffled into a "
                        f"new draw pile.")
    elif kind == "CardDrawn":
        out["seat"] = d["seat"]
        if seat == d["seat"]:
            out.update(card=d["card"],
                       text=f"{_p(d['seat'])} drew {card_name(d['card'])}.")
        else:
            out["text"] = f"{_p(d['seat'])} drew a card."
    elif kind == "GameEnded":
        out.update(how=d["how"], scores=list(d["scores"]),
                   text=f"The game is over: {HOW[d['how']]}.")
    else:
        return None
    return out


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
