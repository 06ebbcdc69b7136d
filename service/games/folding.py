"""The one way every engine folds events into states, and records the events `decide` emits.

Every engine's state is immutable (frozen dataclasses of tuples, or a mapping that is only ever
copied, never changed): `evolve` returns a new state and leaves its input alone, so the service
may cache and share states between requests. An engine writes one small handler per event type
(`def _card_played(state, data) -> State`) and hands the table to `Fold`; `Recorder` is the
scratch pad of `decide`, which emits events one by one and needs each folded at once so the
next rule sees its effect.

Rules versions: the first event of a game carries ``rules`` (the engine's ``rules_version`` when
the game started). A log written before versions existed has none, which means version 1. An
engine whose behaviour changes keeps the old behaviour reachable by reading the version from
its state (`started_version`), so a game is played to its end under the rules it began with.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .contract import Event

State = Any
Handler = Callable[[State, Mapping[str, Any]], State]
FIRST_VERSION = 1


class UnknownEvent(ValueError):
    """An event type the engine does not know: a log from another game, or a bug."""


class Fold:
    """``evolve`` for one engine: the first event makes the state, every other event is
    handled by the handler registered for its type."""

    def __init__(self, game: str, first: str, handlers: Mapping[str, Handler]):
        if first not in handlers:
            raise ValueError(f"{game}: no handler for its first event {first!r}")
        self.game, self.first, self.handlers = game, first, dict(handlers)

    def __call__(self, state: State | None, event: Event) -> State:
        if event.type == self.first:
            if state is not None:
                raise ValueError(f"{self.game}: {self.first} must be the first event")
        elif state is None:
            raise ValueError(f"{self.game}: {event.type} before {self.first}")
        handler = self.handlers.get(event.type)
        if handler is None:
            raise UnknownEvent(f"{self.game} has no event {event.type!r}")
        return handler(state, event.data)


class Recorder:
    """Events appended one by one, each folded at once: `decide`'s working copy of the game.
    `events` is what `decide` returns; `state` is the position after them."""

    def __init__(self, evolve: Callable[[State | None, Event], State], state: State | None):
        self.evolve = evolve
        self.state = state
        self.events: list[Event] = []

    def emit(self, type_: str, **data: Any) -> Event:
        event = Event(type_, data)
        self.state = self.evolve(self.state, event)
        self.events.append(event)
        return event


def started_version(data: Mapping[str, Any]) -> int:
    """The rules version a game's first event records (1 for logs older than versions)."""
    return int(data.get("rules", FIRST_VERSION))
