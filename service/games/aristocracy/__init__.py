"""Aristocracy (seed 001, rulings A1-A21): the GAME object tying the modules together.

Modules, imported one way down this list (docs/engines.md):

* state.py: the state, card facts and `evolve` (a `folding.Fold`), rules versions;
* copies.py (helper): which copy of a card a move names (`canonical`), shared by rules and
  commands;
* flow.py (helper): what happens by itself between decisions (phases, reveals, turn order);
* rules.py: `start`, `to_act`, `legal_moves`, `decide`, `timeout_move`;
* commands.py: `parse` and `describe`;
* history.py (helper): `redact`, each event's sentence as a template the display translates;
* views.py: `view`, `freshness`, `secrets`, `zones`, `outcome`;
* bots.py: `BOTS` ("easy", "normal"; "random" and "greedy" are their old names).

`rules_version` 3: see state.py for what changed in versions 2 and 3 and how games begun under
an older version keep their rules.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..contract import Chance, Event, Option, State
from ..contract import validate_options as _validate
from ..text import N_
from . import commands, history, rules, views
from .bots import BOTS
from .state import RULES_VERSION, SIZES, evolve, hand_size


class Aristocracy:
    id = "aristocracy"
    title = "Aristocracy"
    seats = range(2, 6)
    # 2: A13 (the 4 oldest discards always face up) and A16 (every player bids, all-zero
    # bids tie) as amended. 3: a sealed choice made in Herald order (A3's option) is final.
    # Games begun under an older version keep its rules (state.py).
    rules_version = RULES_VERSION
    # why plans are refused (service.play.moves.standingplans): a plan would answer a sealed choice
    sealed_choices = N_("its choices are sealed and revealed together, so there is no move of "
                        "another player to answer")
    # the choice to end the game when able, made at any time and seen by nobody (A19): no
    # move of its turn, so neither reliability nor quickness counts it (RULINGS P2)
    standing_choices = frozenset({"EndChoiceSet"})
    options = {
        "sizes": Option("4-5-6", N_("Cards in a farm, estate and château (A21); 2-3-4 is the "
                                    "short one-deck game with 5-card hands"),
                        choices=tuple(SIZES), label=N_("Building sizes")),
        "herald_order_commits": Option(
            False, N_("By default everyone chooses stalls, bids, ball gifts and tax discards "
                      "at the same time, and all are revealed together when the last one is "
                      "in, so a round costs one wait instead of one per player (A3). Switch "
                      "this on for the printed rules' Herald order: players choose one after "
                      "another, starting at the Herald, each seeing only how many cards those "
                      "before them chose; a choice once made is final."),
            choices=(False, True), label=N_("Sealed choices in Herald order (one at a time)")),
        "ball_reveal": Option(False, N_("Show the cards pooled at the ball (A15)"),
                              choices=(False, True), label=N_("Reveal the ball")),
        "downgrade_many": Option(False, N_("A downgrade may take any number of building cards "
                                           "(A8)"), choices=(False, True),
                                 label=N_("Downgrade many")),
        "round_cap": Option(25, N_("The game ends after the Jack phase of this round at the "
                                   "latest (A19)"), label=N_("Round cap")),
        "deck": Option("", "Fixed deck order, comma-separated card ids (tests, table replays)",
                       label="Deck order"),
    }
    bots = BOTS

    def validate_options(self, seats: int, options: Mapping[str, Any]) -> dict:
        return rules.validate(_validate(self, seats, options))

    def start(self, seats: int, options: Mapping[str, Any], chance: Chance) -> list[Event]:
        return rules.start(seats, self.validate_options(seats, options), chance,
                           self.rules_version)

    def evolve(self, state: State | None, event: Event) -> State:
        return evolve(state, event)

    def to_act(self, state) -> frozenset[int]:
        return rules.to_act(state)

    def legal_moves(self, state, seat: int) -> list[dict]:
        return rules.legal_moves(state, seat)

    def menu(self, state, seat: int) -> list[dict]:
        return rules.menu(state, seat)

    def timeout_move(self, state, seat: int) -> dict | None:
        return rules.timeout_move(state, seat)

    def can_take_back(self, state_before, events) -> bool:
        return rules.can_take_back(state_before, events)

    def decide(self, state, seat: int, move: dict, chance: Chance) -> list[Event]:
        return rules.decide(state, seat, move, chance)

    def view(self, state, seat: int | None) -> dict:
        return views.view(state, seat)

    def freshness(self, state, seat: int | None) -> dict:
        return views.freshness(state, seat)

    def redact(self, event: Event, seat: int | None) -> dict | None:
        return history.redact(event, seat)

    def parse(self, state, seat: int, text: str) -> list[dict]:
        return commands.parse(state, seat, text)

    def describe(self, move: dict) -> str:
        return commands.describe(move)

    def outcome(self, state):
        return views.outcome(state)

    def zones(self, state):
        return views.zones(state)

    def secrets(self, state, seat: int | None) -> set[str]:
        return views.secrets(state, seat)


GAME = Aristocracy()
__all__ = ["GAME", "hand_size"]
