"""Bots: "easy" plays a uniformly random legal move; "normal" (greedy) collects ranks and
builds complete buildings. Both are plain `(state, seat, rng) -> move` functions."""
from __future__ import annotations

from collections import Counter

from ..contract import Chance
from .rules import decisions as legal_moves  # the bots leave their standing choice alone
from .rules import to_act
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


# An action turn is a list of preferences, tried in order: the first that finds a move
# plays it, and a turn with nothing worth doing passes.


def _builds(s, seat, moves, keep):
    return [m for m in moves if m["type"] in ("favor", "royal")
            and m.get("do") in ("build", "upgrade")]


def _perfect_build(s, seat, moves, keep):
    """The biggest build or upgrade with no mismatching card; pay with a coin while coins
    are plenty, else with the least useful face card."""
    perfect = [m for m in _builds(s, seat, moves, keep) if _matching(m, s, seat) == 0]
    if not perfect:
        return None
    return max(perfect, key=lambda m: (len(m["cards"]), m["type"] == "royal" and s.coins[seat] > 1,
                                       -keep(m["card"]) if m["type"] == "favor" else 0))


def _fix_building(s, seat, moves, keep):
    """Store a matching card in place of a mismatching one."""
    for m in moves:
        if m["type"] != "store":
            continue
        b = s.buildings[seat][s.find(seat, m["building"])]
        if rank(m["card"]) == rank(b.address) and rank(m["out"]) != rank(b.address):
            return m
    return None


def _harvest(s, seat, moves, keep):
    return next((m for m in moves if m["type"] == "harvest"), None)


def _good_trade(s, seat, moves, keep):
    trades = [m for m in moves if m["type"] == "trade" and keep(m["take"]) >= 2
              and keep(m["take"]) > keep(m["give"]) + 1]
    return max(trades, key=lambda m: keep(m["take"]) - keep(m["give"])) if trades else None


def _nearly_a_farm(s, seat, moves, keep):
    """A paid farm with at most one mismatch, while coins are plenty."""
    near = [m for m in _builds(s, seat, moves, keep)
            if m["do"] == "build" and len(m["cards"]) == s.bcounts()[0]
            and _matching(m, s, seat) <= 1 and m["type"] == "royal"]
    return near[0] if near and s.coins[seat] >= 2 else None


def _sell_junk(s, seat, moves, keep):
    return next((m for m in moves if m["type"] == "sell"
                 and all(keep(c) < 2 for c in m["cards"])), None)


def _hide_good(s, seat, moves, keep):
    return next((m for m in moves if m["type"] == "hide" and keep(m["card"]) >= 2), None)


_PREFERENCES = (_perfect_build, _fix_building, _harvest, _good_trade, _nearly_a_farm,
                _sell_junk, _hide_good)


def _turn(s: State, seat: int, moves: list[dict], keep) -> dict:
    for prefer in _PREFERENCES:
        move = prefer(s, seat, moves, keep)
        if move is not None:
            return move
    return {"type": "pass"}


# "easy" and "normal" are the names the service offers (docs/engines.md); "random" and
# "greedy" are the old names, kept because recorded golden playthroughs name their bot.
BOTS = {"easy": random_bot, "normal": greedy_bot, "random": random_bot, "greedy": greedy_bot}
