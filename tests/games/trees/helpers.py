"""Positions for Trees scenario tests, built directly as the engine's plain-JSON state
(a mapping the engine never changes in place: state.py).

Every card not placed explicitly goes to the draw pile (non-Aces, in deck order) or the root pile
(Aces), so each position still holds all 44 cards exactly once."""
from __future__ import annotations

import random

from service.games.contract import replay
from service.games.trees import GAME
from service.games.trees.state import ACES, DRAW_CARDS


def grow(root: str, *pairs: tuple[str, str]) -> dict:
    """A tree from its Ace and (card, under) pairs in the order they were played."""
    kids: dict[str, list[str]] = {root: []}
    for card, under in pairs:
        kids[under].append(card)
        kids[card] = []
    return {"root": root, "kids": kids}


def table(hands, trees=(), *, to_act=0, aces=None, scores=None, discard=(), draw=None,
          roots=None, bonus=1, turn_cap=300, turn=1) -> dict:
    seats = len(hands)
    trees = [grow(*t) if isinstance(t, tuple) else t for t in trees]
    aces = aces or [[] for _ in range(seats)]
    placed = {c for h in hands for c in h} | {c for t in trees for c in t["kids"]} \
        | {c for a in aces for c in a} | set(discard)
    if draw is None:
        draw = [c for c in DRAW_CARDS if c not in placed]
    placed |= set(draw)
    if roots is None:
        roots = [a for a in ACES if a not in placed]
    return {
        "rules": 1,
        "seats": seats,
        "options": GAME.validate_options(seats, {"bonus": bonus, "turn_cap": turn_cap}),
        "first": 0, "turn": turn, "to_act": to_act,
        "hands": [list(h) for h in hands], "draw": list(draw), "roots": list(roots),
        "discard": list(discard), "trees": trees, "aces": [list(a) for a in aces],
        "scores": list(scores or [0] * seats), "ended": None,
    }


def act(state, seat, move, seed=0):
    """Decide and apply one move; returns (new state, events)."""
    events = GAME.decide(state, seat, move, random.Random(seed))
    return replay(GAME, events, state), events


def types(events) -> list[str]:
    return [e.type for e in events]


def play(card, under):
    return {"type": "play", "card": card, "under": under}


def harvest(root):
    return {"type": "harvest", "root": root}


def unroot(root):
    return {"type": "unroot", "root": root}
