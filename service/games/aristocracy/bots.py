"""Bots: "easy" plays a uniformly random legal move; "normal" (greedy) collects ranks and
builds complete buildings. Both are plain `(state, seat, rng) -> move` functions."""
from __future__ import annotations

from collections import Counter

from ..contract import Chance
from .rules import legal_moves, to_act
from .state import State, rank, value


def random_bot(s: State, seat: int, rng: Chance) -> dict:
    return rng.choice(legal_moves(s, seat))


def _keep(s: State, seat: int):
    """How much a card of each rank is worth keeping: copies held, plus a bonus for the
    address ranks of our own buildings that are incomplete or can grow."""
    held = Counter(rank(c) for c in s.hands[seat] + s.stalls[seat])
    wanted = {rank(b.address) for b in s.buildings[seat]
              if not b.complete() or s.level(b) < 2}

    def score(card: str) -> float:
        r = rank(card)
        return held[r] + (3 if r in wanted else 0) + (0.5 if r == "K" else 0) - value(card) / 100
    return score


def greedy_bot(s: State, seat: int, rng: Chance) -> dict:
    moves = legal_moves(s, seat)
    keep = _keep(s, seat)
    st = s.stage
    if st == "tax":
        k = len(moves[0]["cards"])
        return {"type": "discard", "cards": sorted(s.hands[seat], key=keep)[:k]}
    if st == "ball":
        return {"type": "ball", "cards": []}
    if st == "bid":
        good = any(keep(c) >= 3 for c in s.market)
        return {"type": "bid", "coins": 1 if good and s.coins[seat] >= 2 else 0}
    if st == "stall":
        hand = sorted(s.hands[seat], key=keep)
        n = min(3, len(hand)) if len(hand) >= 4 else min(1, len(hand))
        return {"type": "stall", "cards": hand[:n]}
    if st in ("pick", "declare"):
        return max(moves, key=lambda m: keep(m["card"]))
    if st == "end":
        return {"type": "end"}
    if st == "visit":
        return moves[0]
    if seat not in to_act(s):
        return moves[0]
    return _turn(s, seat, moves, keep)


def _matching(m: dict, s: State, seat: int) -> int:
    """Mismatching cards a build or upgrade would place (fewer is better)."""
    if m["do"] == "build":
        return sum(rank(c) != rank(m["address"]) for c in m["cards"])
    b = s.buildings[seat][s.find(seat, m["building"])]
    return sum(rank(c) != rank(b.address) for c in m["cards"]) + len(b.mismatches())


def _turn(s: State, seat: int, moves: list[dict], keep) -> dict:
    def size(m):
        return len(m["cards"])

    builds = [m for m in moves if m["type"] in ("favor", "royal")
              and m.get("do") in ("build", "upgrade")]
    perfect = [m for m in builds if _matching(m, s, seat) == 0]
    if perfect:
        # pay with a coin while coins are plenty, else with the least useful face card
        return max(perfect, key=lambda m: (size(m), m["type"] == "royal" and s.coins[seat] > 1,
                                           -keep(m["card"]) if m["type"] == "favor" else 0))
    fixes = [m for m in moves if m["type"] == "store"]
    for m in fixes:
        b = s.buildings[seat][s.find(seat, m["building"])]
        if rank(m["card"]) == rank(b.address) and rank(m["out"]) != rank(b.address):
            return m
    for m in moves:
        if m["type"] == "harvest":
            return m
    trades = [m for m in moves if m["type"] == "trade" and keep(m["take"]) >= 2
              and keep(m["take"]) > keep(m["give"]) + 1]
    if trades:
        return max(trades, key=lambda m: keep(m["take"]) - keep(m["give"]))
    near = [m for m in builds if m["do"] == "build" and size(m) == s.bcounts()[0]
            and _matching(m, s, seat) <= 1 and m["type"] == "royal"]
    if near and s.coins[seat] >= 2:
        return near[0]
    sells = [m for m in moves if m["type"] == "sell" and all(keep(c) < 2 for c in m["cards"])]
    if sells:
        return sells[0]
    hides = [m for m in moves if m["type"] == "hide" and keep(m["card"]) >= 2]
    if hides:
        return hides[0]
    return {"type": "pass"}


# "easy" and "normal" are the names the service offers (docs/engines.md); "random" and
# "greedy" are the old names, kept because recorded golden playthroughs name their bot.
BOTS = {"easy": random_bot, "normal": greedy_bot, "random": random_bot, "greedy": greedy_bot}
