"""Trees bots. Each takes (state, seat, chance) and returns one legal move.

easy    any legal move, uniformly ("random" is the same bot under its old name).
normal  ("greedy" under its old name) harvests the best tree whenever one holds a Crown
        (points now, and a tree left standing is the next player's harvest); otherwise plays
        toward the Crowns: the highest card it can place, keeping its own Crowns back, since a
        Crown played is a harvest handed to the next player. Forced to play a Crown, it picks
        the tree worth least to the next player.
"""
from __future__ import annotations

from ..contract import Chance, Event
from . import rules
from .state import RANK, SUITS, evolve, is_crown, node_of, tree_by_root


def random_bot(state, seat: int, chance: Chance) -> dict:
    return chance.choice(rules.legal_moves(state, seat))


def greedy_bot(state, seat: int, chance: Chance) -> dict:
    moves = rules.legal_moves(state, seat)
    harvests = [m for m in moves if m["type"] == "harvest"]
    if harvests:
        return max(harvests, key=lambda m: rules.harvest_value(
            state, seat, tree_by_root(state, m["root"]))[2])
    plays = [m for m in moves if m["type"] == "play"]
    if not plays:
        return chance.choice(moves)  # unroot: no tree is worth anything to anyone yet
    nxt = (seat + 1) % state["seats"]
    crown_suits = {c[1] for c in state["hands"][seat] if is_crown(c)}

    def score(m):
        card = m["card"]
        if is_crown(card):
            tree = node_of(state, m["under"])
            gift = rules.harvest_value(state, nxt, tree)[2] + 1
            return -100 - gift
        # high cards first: they are the ones Crowns attach to
        s = RANK[card]
        # a card that could later hold one of our Crowns is worth a little more
        if SUITS[card] & crown_suits:
            s += 0.5
        return s

    best = max(score(m) for m in plays)
    return chance.choice([m for m in plays if score(m) == best])


# The shared names every engine offers (docs/engines.md), and the old names kept as aliases:
# games started before the rename, golden playthroughs and the bench still ask for them.
BOTS = {"easy": random_bot, "normal": greedy_bot, "random": random_bot, "greedy": greedy_bot}


def play_game(players: list[str], options: dict, chance: Chance) -> tuple[dict, list[Event]]:
    """Play a whole game between the named bots (one per seat); return the final state and the
    event log. `options` are validated ones (GAME.validate_options). Used by the bot-strength
    test and bench/trees_bench.py."""
    log = rules.start(len(players), options, chance)
    state = None
    for event in log:
        state = evolve(state, event)
    while not state["ended"]:
        seat = state["to_act"]
        events = rules.decide(state, seat, BOTS[players[seat]](state, seat, chance), chance)
        for event in events:
            state = evolve(state, event)
        log.extend(events)
    return state, log
