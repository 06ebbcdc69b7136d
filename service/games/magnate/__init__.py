"""Magnate (seeds 000 classic and 002 Roller/modern; RULINGS M1-M21) as a Turnpost engine.

Modules: `setup` (options, deal), `state` (state + evolve), `rules` (costs, placement,
payments), `flow` (decide and everything automatic), `moves` (legal moves, menu), `scoring`,
`commands` (parse/describe), `views` (view, redact, zones, secrets), `bots`.

Options: `ruleset` classic|modern; `courts` default|on|off (default resolves to off in classic
and on in modern, M14); `pawn_properties`, `replace_ace`, `double_taxation`, `mega`, `three`;
`deck` fixes the deck order. The replace-the-Ace standing choice starts at "ask" (the seed's own
behaviour: the drawer decides) and each player may change it at any time.
"""
from __future__ import annotations

from ..contract import Event, Outcome, validate_options
from . import bots, commands, flow, moves, setup, views
from .state import State, evolve


class Magnate:
    id = "magnate"
    title = "Magnate"
    seats = range(2, 4)
    options = setup.OPTIONS
    bots = {"random": bots.random_bot, "greedy": bots.greedy_bot}

    def validate_options(self, seats, options) -> dict:
        return setup.check(validate_options(self, seats, options), seats)

    def start(self, seats, options, chance) -> list[Event]:
        opts = self.validate_options(seats, dict(options))
        return flow.begin(setup.start(seats, opts, chance), chance)

    def evolve(self, state, event) -> State:
        return evolve(state, event)

    def to_act(self, state) -> frozenset[int]:
        return views.to_act(state)

    def legal_moves(self, state, seat) -> list[dict]:
        return moves.legal_moves(state, seat)

    def menu(self, state, seat) -> list[dict]:
        return moves.menu(state, seat)

    def decide(self, state, seat, move, chance) -> list[Event]:
        return flow.decide(state, seat, move, chance)

    def view(self, state, seat) -> dict:
        return views.view(state, seat)

    def redact(self, event, seat):
        return views.redact(event, seat)

    def parse(self, state, seat, text) -> list[dict]:
        return commands.parse(state, seat, text)

    def describe(self, move) -> str:
        return commands.describe(move)

    def outcome(self, state) -> Outcome | None:
        o = state.outcome
        if o is None:
            return None
        return Outcome(tuple(o["scores"]), tuple(o["winners"]), o["how"], o["detail"])

    def zones(self, state):
        return views.zones(state)

    def secrets(self, state, seat):
        return views.secrets(state, seat)


GAME = Magnate()
