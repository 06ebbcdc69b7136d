"""Suzerain (seed 004, docs/rules/rulings.md S1-S14): a two-player Decktet trick-taking game.

Modules, imports running down this list (docs/engines.md): `state` (zones, State, the fold),
`scoring` (S10-S13, a helper of the modules below), `rules` (options and setup, legal moves,
decide, timeout_move), `commands` (parse/describe), `views` (view, redact, outcome, zones,
secrets), `bots` ("easy", "normal"), and this file, the `GAME` object delegating to them.

Zones (every one of the 44 cards is in exactly one; the Excuse is out of the game, S1):

* ``deck``      the face-down pool, top first. Nobody knows its order.
* ``display``   up to two face-up cards (public).
* ``table``     the card led to the current trick, while the follower decides (public).
* ``hand:s``    seat s's hand (owner only; size public).
* ``pile:s``    seat s's own *private discard pile*, face down, which the owner may look at any
                time (owner only; size public). Into it go, at once: the card the seat played to
                a trick (when the trick is decided, S4), every card it claims (S5) other than a
                Pawn or Court, and the loser's 0-2 discards (S6). When the hand is empty at
                cleanup the pile becomes the new hand (S8). Every card in it is owned and scores.
* ``kept:s``    Pawns and Courts the seat claimed, set aside face up, never in hand or pile
                (public, with whether each one-time right is used, S7).
* ``removed:s`` hand cards set aside secretly with a Pawn/Court right (owner only; count
                public). They score at the end (S7).

What a seat may know (docs/rules/rulings.md, hidden information): a card's owner is public once the card
was seen as theirs: the Moon and Wyrm starting sets, played cards, face-up claims, Pawns and
Courts. Dealt Aces and blind claims are private until played; discards and removals never say
which card. `State.public` is that set; `secrets()` is everything else the seat does not own.

Flow of a trick (`phase`, and the one seat in `to_act`):

1. ``lead``   the leader leads a hand card.
2. ``follow`` the other seat plays a card sharing a suit with it if able (S3); the trick is
   decided at once (S4): the follower wins only by following with a higher rank; whoever played
   the higher rank leads next, the leader on equal ranks. Both played cards go to their players'
   piles.
3. ``claim``  the winner takes a face-up card or the top of the deck blind (S5).
4. ``right``  (rules 2 and later) the winner who just set a Pawn or Court aside may use its
   right at once or keep it for later (S7 amended, "including immediately"); from rules 3 the
   offer is made whatever the winner's hidden hand holds (with no card sharing a suit, the
   winner can only keep it).
5. ``loser``  the loser takes a face-up card (S5); the display is refilled to two. If deck and
   display are now empty the game ends here (S9, no discard).
6. ``discard`` the loser discards 0, 1 or 2 hand cards into their pile (S6), skipped when the
   loser's hand is empty. Cleanup: each seat with an empty hand takes up its pile (S8); the next
   leader leads the next trick.

A Pawn/Court right (``remove X with the Consul``) is an extra move for its owner whenever the
owner is to act; it does not end the decision. Rules versions (`rules` module docstring):
version 1 never removes the last hand card at a lead or follow and has no ``right`` phase;
version 2 (the amended S7) removes the last card whenever the pile holds one; version 3
makes and closes the ``right`` offer on public facts only (the hidden-information table), as
version 2's offer showed the loser whether the winner's hand held a card of its suits.
Judgment calls beyond the rulings:

* A Pawn or Court claimed blind is still set aside face up (S7 and the hidden-information list
  make Pawns and Courts public; a right must be checkable), so it is revealed.
* Rules 2: the last card removed at a lead or follow brings the pile up as the new hand at once
  (the seat must still play, S8); the fresh right is not offered when the loser's claim must
  end the game, since a removal then changes no score.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..contract import Chance, Event, Move, Outcome
from ..contract import validate_options as _validate_options
from . import bots, commands, plans, rules, views
from .state import State, evolve, to_act


class Suzerain:
    id = "suzerain"
    title = "Suzerain"
    seats = range(2, 3)
    rules_version = rules.RULES_VERSION
    options = rules.OPTIONS
    bots = dict(bots.BOTS)

    def validate_options(self, seats: int, options: Mapping[str, Any]) -> dict:
        return rules.validate(_validate_options(self, seats, options))

    def start(self, seats: int, options: Mapping[str, Any], chance: Chance) -> list[Event]:
        return rules.start(self.validate_options(seats, options), chance)

    def evolve(self, state: State | None, event: Event) -> State:
        return evolve(state, event)

    def to_act(self, state: State) -> frozenset[int]:
        return to_act(state)

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        return rules.legal_moves(state, seat)

    def menu(self, state: State, seat: int) -> list[Move]:
        return rules.menu(state, seat)

    def decide(self, state: State, seat: int, move: Move, chance: Chance) -> list[Event]:
        return rules.decide(state, seat, move, chance)

    def timeout_move(self, state: State, seat: int) -> Move | None:
        return rules.timeout_move(state, seat)

    def forced_move(self, state: State, seat: int) -> Move | None:
        return rules.forced_move(state, seat)

    def can_take_back(self, state_before, events) -> bool:
        return rules.can_take_back(state_before, events)

    def parse(self, state: State, seat: int, text: str) -> list[Move]:
        return commands.parse(state, seat, text)

    def describe(self, move: Move) -> str:
        return commands.describe(move)

    # plans (service.play.moves.standingplans): the position as the writer may know it
    def plan_world(self, state: State, writer: int) -> State:
        return plans.plan_world(state, writer)

    def never_possible(self, state: State, writer: int, move: Move) -> dict | None:
        return plans.never_possible(state, writer, move)

    def plan_hints(self, state: State, seat: int) -> list[tuple[Move, list[Move]]]:
        return plans.plan_hints(state, seat)

    def view(self, state: State, seat: int | None) -> dict:
        return views.view(state, seat)

    def view_said(self, state: State, seat: int | None) -> dict:
        return {"prompt": views.prompt_said(state, seat)}

    def redact(self, event: Event, seat: int | None) -> dict | None:
        return views.redact(event, seat)

    def outcome(self, state: State) -> Outcome | None:
        return views.outcome(state)

    def zones(self, state: State) -> dict[str, tuple[str, ...]]:
        return views.zones(state)

    def secrets(self, state: State, seat: int | None) -> set[str]:
        return views.secrets(state, seat)


GAME = Suzerain()

__all__ = ["GAME", "Suzerain"]
