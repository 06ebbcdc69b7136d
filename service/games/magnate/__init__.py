"""Magnate (seeds 000 classic and 002 Roller/modern; RULINGS M1-M21) as a Turnpost engine.

Modules (docs/engines.md, imports run down this list): `state` (state and `evolve`, one
handler per event), then the rules helpers `costs` (costs, placement, payments), `scoring`
(district totals, the result), `setup` (options, the deal), `flow` (decide and everything
automatic), `legalmoves` (legal moves, menu, finish_turn, timeout_move); `rules` (the entry points);
`commands` (parse/describe); `plans` (what a seat may know when it writes a plan); `views`
(view, redact, zones, secrets); `bots`.

Options: `ruleset` classic|modern; `courts` default|on|off (default resolves to off in classic
and on in modern, M14); `pawn_properties`, `replace_ace`, `double_taxation`, `mega`, `three`;
`deck` fixes the deck order. The replace-the-Ace standing choice starts at "never" (M16
amended: the Ace is kept, as doing nothing keeps it at a table) and each player may change it
at any time.

Rules versions (`rules.RULES_VERSION`): 2 keeps a turn open after its card play until
`{"type": "end"}` (M9 amended), keeps an Ace drawn with no card left (M16) and lets two of three
tied players share the win (M13); 3 starts the Ace choice at "never" instead of "ask" and shows
the others only that a drawer answering "ask" is finishing their turn (M16 amended). Games play
on under the version they began with.
"""
from __future__ import annotations

from ..contract import Event, Outcome
from . import bots, commands, plans, rules, setup, views
from .state import State, evolve


class Magnate:
    id = "magnate"
    title = "Magnate"
    seats = range(2, 4)
    rules_version = rules.RULES_VERSION
    options = setup.OPTIONS
    bots = bots.BOTS

    def validate_options(self, seats, options) -> dict:
        return rules.validate(self, seats, options)

    def seats_for(self, options) -> range:
        return rules.seats_for(self, options)

    def start(self, seats, options, chance) -> list[Event]:
        return rules.start(self, seats, options, chance)

    def evolve(self, state, event) -> State:
        return evolve(state, event)

    def to_act(self, state) -> frozenset[int]:
        return views.to_act(state)

    def legal_moves(self, state, seat) -> list[dict]:
        return rules.legal_moves(state, seat)

    def menu(self, state, seat) -> list[dict]:
        return rules.menu(state, seat)

    def decide(self, state, seat, move, chance) -> list[Event]:
        return rules.decide(state, seat, move, chance)

    def finish_turn(self, state, seat) -> dict | None:
        return rules.finish_turn(state, seat)

    def timeout_move(self, state, seat) -> dict | None:
        return rules.timeout_move(state, seat)

    def can_take_back(self, state_before, events) -> bool:
        return rules.can_take_back(state_before, events)

    # choices a seat may make at any time, unseen by the others (M16, M19): no move of its
    # turn, so neither reliability nor quickness counts them (RULINGS P2)
    standing_choices = plans.OUT_OF_TURN

    # plans (service.play.moves.standingplans): the position as the writer may know it
    plan_out_of_turn = plans.OUT_OF_TURN

    def plan_world(self, state, writer) -> State:
        return plans.plan_world(state, writer)

    def never_possible(self, state, writer, move) -> dict | None:
        return plans.never_possible(state, writer, move)

    def view(self, state, seat) -> dict:
        return views.view(state, seat)

    def redact(self, event, seat):
        return views.redact(event, seat)

    def parse(self, state, seat, text) -> list[dict]:
        return commands.parse(state, seat, text)

    def describe(self, move) -> str:
        return commands.describe(move)

    def outcome(self, state) -> Outcome | None:
        return views.outcome(state)

    def zones(self, state):
        return views.zones(state)

    def secrets(self, state, seat):
        return views.secrets(state, seat)


GAME = Magnate()
