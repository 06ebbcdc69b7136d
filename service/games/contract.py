"""The contract every rules engine keeps (docs/architecture.md, "The engine contract").

An engine is pure: it imports nothing from the web, the database, the worker or the clock.
Chance comes in as an object with the `random.Random` subset below and its outcomes are
recorded in events, so `evolve` can replay a game without drawing anything.

Conventions shared by all engines:

* A **move** is a JSON-safe dict with a ``"type"`` key (``{"type": "play", "card": "8VL",
  "under": "4VL"}``). Use lists, never tuples, inside moves so a move survives a JSON round trip
  unchanged (signed links carry moves as JSON).
* An **event** is named in the past tense (``CardPlayed``) and carries JSON-safe data.
* ``redact`` returns what a seat may know of an event, including a ``"text"`` sentence in which
  seats are written ``{p0}``, ``{p1}``…; the service fills in names ("you" for the reader).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

Move = dict[str, Any]
State = Any


class Chance(Protocol):
    """The part of `random.Random` engines may use. Tests pass a seeded Random, the service a
    SystemRandom."""

    def shuffle(self, x: list) -> None: ...
    def randint(self, a: int, b: int) -> int: ...
    def choice(self, seq: Sequence) -> Any: ...


@dataclass(frozen=True)
class Event:
    type: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"type": self.type, "data": dict(self.data)}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Event:
        return cls(obj["type"], obj.get("data", {}))


@dataclass(frozen=True)
class Option:
    """One game option: a variant switch or a setting, with its default and allowed values."""

    default: Any
    help: str
    choices: tuple | None = None   # allowed values; None = any value of type(default)
    label: str = ""

    def coerce(self, name: str, value: Any) -> Any:
        kind = type(self.default)
        if kind is bool and isinstance(value, str):
            low = value.strip().lower()
            if low in ("1", "true", "yes", "on"):
                value = True
            elif low in ("0", "false", "no", "off", ""):
                value = False
        elif kind is int and isinstance(value, str):
            try:
                value = int(value.strip())
            except ValueError:
                raise OptionError(f"option {name!r} must be a whole number, "
                                  f"not {value!r}") from None
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise OptionError(f"option {name!r} must be {kind.__name__}, not {value!r}")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise OptionError(f"option {name!r} must be one of {allowed}; {value!r} is not")
        return value


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended. `scores` per seat; several winners = a shared win or a draw."""

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    how: str
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"scores": list(self.scores), "winners": list(self.winners), "how": self.how,
                "detail": dict(self.detail)}


class IllegalMove(Exception):
    """A move the rules forbid in this position. `why` is a sentence for the player."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


class CommandError(Exception):
    """Text that does not read as a move. `suggestions` are canonical texts that would work."""

    def __init__(self, why: str, suggestions: Sequence[str] = ()):
        super().__init__(why)
        self.why = why
        self.suggestions = list(suggestions)


class OptionError(ValueError):
    """Options that cannot make a game (an unknown name, a bad value, an impossible mix)."""


Bot = Callable[[State, int, Chance], Move]


class Game(Protocol):
    id: str
    title: str
    seats: range
    # The version of the rules this engine plays now. `start` records it in the game's first
    # event (``"rules": N``) and the service in `games.rules_version`; a behaviour change bumps
    # it and keeps the old behaviour reachable for games begun under the old number
    # (service/games/folding.py, docs/engines.md).
    rules_version: int
    options: Mapping[str, Option]
    bots: Mapping[str, Bot]

    def validate_options(self, seats: int, options: Mapping[str, Any]) -> dict: ...
    def start(self, seats: int, options: Mapping[str, Any], chance: Chance) -> list[Event]: ...
    def evolve(self, state: State | None, event: Event) -> State: ...
    def to_act(self, state: State) -> frozenset[int]: ...
    def legal_moves(self, state: State, seat: int) -> list[Move]: ...
    def menu(self, state: State, seat: int) -> list[Move]: ...
    def decide(self, state: State, seat: int, move: Move, chance: Chance) -> list[Event]: ...
    def view(self, state: State, seat: int | None) -> dict: ...
    def redact(self, event: Event, seat: int | None) -> dict | None: ...
    def parse(self, state: State, seat: int, text: str) -> list[Move]: ...
    def describe(self, move: Move) -> str: ...
    def outcome(self, state: State) -> Outcome | None: ...

    # Optional: the event types that only follow a move (a card drawn after every action);
    # an email's headline leads with the last news that is not one of them.
    #   follow_on_events: frozenset[str]

    # Optional, for deadlines: the move made for `seat` when its time to choose runs out, or
    # None where nothing sensible can be chosen for it.
    #   def timeout_move(self, state: State, seat: int) -> Move | None: ...

    # Optional, for games whose turn stays open after its main action (Magnate, M9): the move
    # that ends `seat`'s open turn, or None when it has no turn open that may end now. The
    # service plays it after a reply's lines (unless the last line is ``keep``) and after a
    # one-click link from an email, so those stay one complete turn each.
    #   def finish_turn(self, state: State, seat: int) -> Move | None: ...

    # Optional, for forced moves (a player preference, on by default): `seat`'s one legal
    # move when making it shows the seat nothing it did not know (a follow forced by holding
    # one card of the led suit), else None; a move that draws or turns up a card never is,
    # nor one whose haste would tell the others what the rules keep from them.
    # The service plays it for the seat after the bots' delay (source 'forced').
    #   def forced_move(self, state: State, seat: int) -> Move | None: ...

    # Optional, for undo by agreement: whether a move that produced `events` from
    # `state_before` may be taken back — False if they drew chance or turned up anything
    # hidden. An engine without it has no move that can be taken back.
    #   def can_take_back(self, state_before: State, events: Sequence[Event]) -> bool: ...

    # Optional: the part of a seat's view its links depend on (service.linking.freshness); default
    # the whole view. Leave out what others' progress changes without touching this seat's
    # decision (who has chosen so far in a sealed round).
    #   def freshness(self, state: State, seat: int | None) -> Any: ...

    # For the invariant tests (tests/games/test_invariants.py); engines implement both.
    def zones(self, state: State) -> Mapping[str, Sequence[str]]:
        """Every card in the game by where it lies ("hand:0", "draw", "tree:1M"...)."""
        ...

    def secrets(self, state: State, seat: int | None) -> set[str]:
        """Card ids whose whereabouts `seat` may not know now (None = a spectator)."""
        ...


def validate_options(game: Game, seats: int, options: Mapping[str, Any]) -> dict:
    """Shared option checking: unknown names refused, values coerced, defaults filled in.
    Engines call this first in their own `validate_options`, then check combinations."""
    if seats not in game.seats:
        raise OptionError(f"{game.title} is for {game.seats.start} to {game.seats.stop - 1} "
                          f"players, not {seats}")
    unknown = sorted(set(options) - set(game.options))
    if unknown:
        known = ", ".join(sorted(game.options)) or "none"
        raise OptionError(f"{game.title} has no option {unknown[0]!r} (its options: {known})")
    return {name: (opt.coerce(name, options[name]) if name in options else opt.default)
            for name, opt in game.options.items()}


def replay(game: Game, events: Sequence[Event], state: State | None = None) -> State:
    """Fold events into a state: the one way a state is ever rebuilt."""
    for event in events:
        state = game.evolve(state, event)
    return state
