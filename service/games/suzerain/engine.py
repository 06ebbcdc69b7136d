"""The `GAME` object: Suzerain's options, setup, and the contract methods, each delegating to
the module that holds that part of the rules."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .. import text as names
from ..cards import decktet as dk
from ..contract import Chance, CommandError, Event, Move, Option, OptionError, Outcome
from ..contract import validate_options as _validate_options
from . import rules
from . import state as st
from .state import MOON_SET, POOL, SEAT_CHOICES, WYRM_SET, State, listing, ordered


class Suzerain:
    id = "suzerain"
    title = "Suzerain"
    seats = range(2, 3)
    options = {
        "deck": Option("", "Fix the deck order: all 32 cards of the pool, top first (the first "
                       "two are turned face up), as ids or names separated by commas. Empty: "
                       "shuffled.", label="Deck order"),
        "aces": Option("", "Fix the dealt Aces: six Aces, the first three to the first seat. "
                       "Empty: dealt at random (S2).", label="Dealt Aces"),
        "dealer": Option("random", "Who deals; the other seat leads first (S2).",
                         SEAT_CHOICES, label="Dealer"),
        "moon_set": Option("random", "Who starts with the Moon set (the Author, the Journey, "
                           "the Mountain); the other takes the Wyrm set (S2).",
                           SEAT_CHOICES, label="Moon set"),
    }

    @property
    def bots(self):
        from .bots import BOTS
        return BOTS

    # ----- options and setup -------------------------------------------------------------

    def validate_options(self, seats: int, options: Mapping[str, Any]) -> dict:
        opts = _validate_options(self, seats, options)
        opts["deck"] = ", ".join(_card_list(opts["deck"], POOL, "deck"))
        opts["aces"] = ", ".join(_card_list(opts["aces"], dk.ACES, "aces"))
        return opts

    def start(self, seats: int, options: Mapping[str, Any], chance: Chance) -> list[Event]:
        opts = self.validate_options(seats, options)
        dealer = _seat(opts["dealer"], chance)
        moon = _seat(opts["moon_set"], chance)
        aces = opts["aces"].split(", ") if opts["aces"] else []
        if not aces:
            aces = list(dk.ACES)
            chance.shuffle(aces)
        pool = opts["deck"].split(", ") if opts["deck"] else list(POOL)
        if not opts["deck"]:
            chance.shuffle(pool)
        sets = [list(MOON_SET), list(WYRM_SET)] if moon == 0 else [list(WYRM_SET), list(MOON_SET)]
        return [Event("Started", {"dealer": dealer, "moon": moon, "sets": sets,
                                  "aces": [list(ordered(aces[:3])), list(ordered(aces[3:]))],
                                  "display": pool[:2], "deck": pool[2:]})]

    # ----- the contract, delegated -------------------------------------------------------

    def evolve(self, state: State | None, event: Event) -> State:
        return st.evolve(state, event)

    def to_act(self, state: State) -> frozenset[int]:
        return st.to_act(state)

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        return rules.legal_moves(state, seat)

    def menu(self, state: State, seat: int) -> list[Move]:
        # discarding two cards is left to a reply: the pairs would swamp the email
        return [m for m in rules.legal_moves(state, seat)
                if m["type"] != "discard" or len(m["cards"]) < 2]

    def decide(self, state: State, seat: int, move: Move, chance: Chance) -> list[Event]:
        return rules.decide(state, seat, move, chance)

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(state)

    def parse(self, state: State, seat: int, text: str) -> list[Move]:
        from .commands import parse
        return parse(self, state, seat, text)

    def describe(self, move: Move) -> str:
        from .commands import describe
        return describe(move)

    def view(self, state: State, seat: int | None) -> dict:
        from .views import view
        return view(self, state, seat)

    def redact(self, event: Event, seat: int | None) -> dict | None:
        from .views import redact
        return redact(event, seat)

    # ----- invariants (tests/games/test_invariants.py) ----------------------------------------------------------------

    def zones(self, state: State) -> dict[str, tuple[str, ...]]:
        out = {"deck": state.deck, "display": state.display, "table": state.table}
        for s in (0, 1):
            out[f"hand:{s}"] = state.hands[s]
            out[f"pile:{s}"] = state.piles[s]
            out[f"kept:{s}"] = state.kept[s]
            out[f"removed:{s}"] = state.removed[s]
        return out

    def secrets(self, state: State, seat: int | None) -> set[str]:
        if state.phase == st.OVER:
            return set()
        out = set(state.deck)
        for s in (0, 1):
            if s != seat:
                out |= {c for c in state.hands[s] + state.piles[s] + state.removed[s]
                        if c not in state.public}
        return out


def _seat(choice: str, chance: Chance) -> int:
    return chance.randint(0, 1) if choice == "random" else SEAT_CHOICES.index(choice) - 1


def _card_list(text: str, allowed, option: str) -> list[str]:
    """An option's card order: every card of `allowed` once, as ids or names separated by
    commas (ids may also be separated by spaces). Empty text: none (dealt at random)."""
    text = text.strip()
    if not text:
        return []
    parts = re.split(r"\s*,\s*", text) if "," in text else text.split()
    spell = {c: dk.aliases(c) for c in allowed}
    out = []
    for part in parts:
        try:
            card = names.match(part, spell)
        except CommandError as err:
            hint = f" (did you mean {', '.join(err.suggestions)}?)" if err.suggestions else ""
            raise OptionError(f"option {option!r}: {err.why}{hint}") from None
        if card in out:
            raise OptionError(f"option {option!r} lists {dk.name(card)} twice")
        out.append(card)
    if len(out) != len(allowed):
        missing = listing(c for c in allowed if c not in out)
        raise OptionError(f"option {option!r} must list all {len(allowed)} cards; "
                          f"missing: {missing}")
    return out
