"""Trees (game id ``trees``): the Decktet tree-building game of seed 003, RULINGS.md T1-T8.

`GAME` keeps the engine contract (service/games/contract.py). The rules are in `rules`, the
command grammar in `commands`, the bots in `bots`; the views, history and outcome in `views`.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..contract import Chance, Event, Option, Outcome
from ..contract import validate_options as _validate
from . import bots, commands, rules, views


class Trees:
    id = "trees"
    title = "Trees"
    seats = range(2, 5)
    options = {
        "deck": Option("", "Fixed draw order: the 38 card ids, top first, comma-separated "
                           "(empty = shuffled)", label="Deck order"),
        "roots": Option("", "Fixed root pile order: the six Aces, top first, e.g. 1M,1S,1V,1L,"
                            "1Y,1K or MSVLYK (empty = shuffled)", label="Root order"),
        "turn_cap": Option(300, "The game ends after this many turns with the scores as they "
                                "are (T8)", label="Turn cap"),
        "bonus": Option(1, "Extra points per harvested Crown matching an Ace you already own "
                           "(T5)", choices=(0, 1, 2), label="Crown bonus"),
    }
    bots = dict(bots.BOTS)

    # ------------------------------------------------------------------ the contract

    def validate_options(self, seats: int, options: Mapping[str, Any]) -> dict:
        return rules.validate(_validate(self, seats, options))

    def start(self, seats: int, options: Mapping[str, Any], chance: Chance) -> list[Event]:
        return rules.start(seats, self.validate_options(seats, options), chance)

    def evolve(self, state, event: Event):
        return rules.evolve(state, event)

    def to_act(self, state) -> frozenset[int]:
        return frozenset() if state["to_act"] is None else frozenset((state["to_act"],))

    def legal_moves(self, state, seat: int) -> list[dict]:
        return rules.legal_moves(state, seat)

    def menu(self, state, seat: int) -> list[dict]:
        return rules.menu(state, seat)

    def decide(self, state, seat: int, move, chance: Chance) -> list[Event]:
        return rules.decide(state, seat, move, chance)

    def parse(self, state, seat: int, text: str) -> list[dict]:
        return commands.parse(state, seat, text)

    def describe(self, move) -> str:
        return commands.describe(move)

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
