"""Trees bots. Each takes (state, seat, chance) and returns one legal move.

random  any legal move, uniformly.
greedy  harvests the best tree whenever one holds a Crown (points now, and a tree left standing
        is the next player's harvest); otherwise plays toward the Crowns: the highest card it can
        place, keeping its own Crowns back, since a Crown played is a harvest handed to the next
        player. Forced to play a Crown, it picks the tree worth least to the next player.
"""
from __future__ import annotations

from ..contract import Chance, Event
from . import rules
from .state import evolve


def random_bot(state, seat: int, chance: Chance) -> dict:
    return chance.choice(rules.legal_moves(state, seat))


def greedy_bot(state, seat: int, chance: Chance) -> dict:
    moves = rules.legal_moves(state, seat)
    harvests = [m for m in moves if m["type"] == "harvest"]
    if harvests:
        return max(harvests, key=lambda m: rules.harvest_value(
            state, seat, rules.tree_by_root(state, m["root"]))[2])
    plays = [m for m in moves if m["type"] == "play"]
    if not plays:
        return chance.choice(moves)  # unroot: no tree is worth anything to anyone yet
    nxt = (seat + 1) % state["seats"]
    crown_suits = {c[1] for c in state["hands"][seat] if rules.is_crown(c)}

    def score(m):
        card = m["card"]
        if rules.is_crown(card):
            tree = rules.node_of(state, m["under"])
            gift = rules.harvest_value(state, nxt, tree)[2] + 1
            return -100 - gift
        # high cards first: they are the ones Crowns attach to
        s = rules.RANK[card]
        # a card that could later hold one of our Crowns is worth a little more
        if rules.SUITS[card] & crown_suits:
            s += 0.5
        return s

    best = max(score(m) for m in plays)
    return chance.choice([m for m in plays if score(m) == best])


BOTS = {"random": random_bot, "greedy": greedy_bot}


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
