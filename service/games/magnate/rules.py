"""The rules entry points the GAME object delegates to (docs/engines.md): options, the start,
legal moves, the menu, decide, and the deadline and open-turn hooks.

The work is done by the helper modules: `setup` (options, deal), `flow` (decide and what
happens by itself), `moves` (legal moves, menu, finish_turn, timeout_move), `costs`, `scoring`.
"""
from __future__ import annotations

from collections.abc import Mapping

from ..contract import Event, OptionError
from ..contract import validate_options as shared_options
from . import flow, legalmoves, setup
from .state import State

# 1: the card play ends the turn; an Ace drawn as the last card may be replaced by nothing;
#    two of three tied players "draw".
# 2: the turn stays open after the card play until `end` (M9 amended); an Ace drawn with no
#    card left is kept (M16); two of three tied players share the win (M13).
# 3: the replace-the-Ace standing choice starts at "never" (M16 amended: the Ace is kept, no
#    tell), and while a drawer answers "ask" the others see only that the turn is finishing.
RULES_VERSION = 3


def validate(game, seats: int, options: Mapping) -> dict:
    return setup.check(shared_options(game, seats, options), seats)


def seats_for(game, options: Mapping) -> range:
    """The player counts these options allow: 2 for classic Magnate (seed 000) and the Roller
    rules, 3 only with the Roller's `three` variant (M21). Found by asking `validate` itself,
    so the lobby and validation can never disagree; empty if the options make no game."""
    ok = []
    for n in game.seats:
        try:
            validate(game, n, options)
        except OptionError:
            continue
        ok.append(n)
    return range(ok[0], ok[-1] + 1) if ok else range(0)


def start(game, seats: int, options: Mapping, chance) -> list[Event]:
    opts = validate(game, seats, dict(options))
    return flow.begin(setup.start(seats, opts, chance, game.rules_version), chance)


def legal_moves(st: State, seat: int) -> list[dict]:
    return legalmoves.legal_moves(st, seat)


def menu(st: State, seat: int) -> list[dict]:
    return legalmoves.menu(st, seat)


def decide(st: State, seat: int, move, chance) -> list[Event]:
    return flow.decide(st, seat, move, chance)


def finish_turn(st: State, seat: int) -> dict | None:
    return legalmoves.finish_turn(st, seat)


def timeout_move(st: State, seat: int) -> dict | None:
    return legalmoves.timeout_move(st, seat)


#: events that draw chance or turn up hidden cards (the dice, a card drawn, a reshuffle): a move whose events
#: include one of them cannot be taken back (the service's undo by agreement)
NO_TAKING_BACK = frozenset({"Rolled", "Drew", "Reshuffled"})


def can_take_back(state_before, events) -> bool:
    """Whether a move that produced `events` from `state_before` may be taken back by
    agreement: not if it drew chance or turned up anything hidden. (The service also checks
    that no seat learnt a card it did not know.)"""
    return not any(e.type in NO_TAKING_BACK for e in events)
