"""Trees (game id ``trees``): the Decktet tree-building game of seed 003, docs/rules/rulings.md T1-T8.

`GAME` keeps the engine contract (service/games/contract.py) in the shape of docs/engines.md:
`state` holds the state, the card facts and `evolve` (a `folding.Fold`); `rules` the legal
moves, `start`, `decide` and `timeout_move`; `commands` the grammar; `views` the views, history
and outcome; `plans` what a seat may know when it writes a plan; `bots` the bots. Each contract method below is one line delegating to them.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..contract import Chance, Event, Option, Outcome
from ..contract import validate_options as _validate
from ..text import N_
from . import bots, commands, plans, rules, state, views


class Trees:
    id = "trees"
    title = "Trees"
    seats = range(2, 5)
    rules_version = rules.RULES_VERSION   # T1-T8 have not changed: every game is version 1
    options = {
        "deck": Option("", "Fixed draw order: the 38 card ids, top first, comma-separated "
                           "(empty = shuffled)", label="Deck order"),
        "roots": Option("", "Fixed root pile order: the six Aces, top first, e.g. 1M,1S,1V,1L,"
                            "1Y,1K or MSVLYK (empty = shuffled)", label="Root order"),
        "turn_cap": Option(300, N_("The game ends after this many turns with the scores as "
                                   "they are (T8)"), label=N_("Turn cap")),
        "bonus": Option(1, N_("Extra points per harvested Crown matching an Ace you already "
                              "own (T5)"), choices=(0, 1, 2), label=N_("Crown bonus")),
    }
    bots = dict(bots.BOTS)
    # what only follows an action (T6, T7): a headline names the action, not the draw after it
    follow_on_events = frozenset({"CardDrawn", "TreeStarted", "RootsShuffled",
                                  "DiscardsReshuffled"})

    # ------------------------------------------------------------------ the contract

    def validate_options(self, seats: int, options: Mapping[str, Any]) -> dict:
        return rules.validate(_validate(self, seats, options))

    def start(self, seats: int, options: Mapping[str, Any], chance: Chance) -> list[Event]:
        return rules.start(seats, self.validate_options(seats, options), chance)

    def evolve(self, s, event: Event):
        return state.evolve(s, event)

    def to_act(self, s) -> frozenset[int]:
        return frozenset() if s["to_act"] is None else frozenset((s["to_act"],))

    def legal_moves(self, state, seat: int) -> list[dict]:
        return rules.legal_moves(state, seat)

    def menu(self, state, seat: int) -> list[dict]:
        return rules.menu(state, seat)

    def decide(self, state, seat: int, move, chance: Chance) -> list[Event]:
        return rules.decide(state, seat, move, chance)

    def timeout_move(self, state, seat: int) -> dict | None:
        return rules.timeout_move(state, seat)

    def can_take_back(self, state_before, events) -> bool:
        return rules.can_take_back(state_before, events)

    def parse(self, state, seat: int, text: str) -> list[dict]:
        return commands.parse(state, seat, text)

    def describe(self, move) -> str:
        return commands.describe(move)

    # plans (service.play.moves.standingplans): the position as the writer may know it
    def plan_world(self, state, writer: int) -> dict:
        return plans.plan_world(state, writer)

    def never_possible(self, state, writer: int, move) -> dict | None:
        return plans.never_possible(state, writer, move)

    def outcome(self, state) -> Outcome | None:
        return views.outcome(state)

    def view(self, state, seat: int | None) -> dict:
        return views.view(state, seat)

    def redact(self, event: Event, seat: int | None) -> dict | None:
        return views.redact(event, seat)

    def zones(self, state) -> dict[str, list[str]]:
        return views.zones(state)

    def secrets(self, state, seat: int | None) -> set[str]:
        return views.secrets(state, seat)


GAME = Trees()
