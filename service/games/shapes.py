"""The shape of a move object: which keys each move type has and what each key holds.

An engine checks a move's shape before its rules read it, so a move that is not a dict, has a
key missing or one too many, or holds a list where a card goes is refused with IllegalMove
instead of failing inside the rules with a KeyError or TypeError (or being read the wrong way:
a suit ``"YK"`` found inside ``"VYK"``). The rules then judge the values. Checking the shape
costs a few dict look-ups, far less than listing every legal move to compare against.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .contract import IllegalMove
from .text import N_

Check = Callable[[Any], bool]


def string(x: Any) -> bool:
    return isinstance(x, str)


def whole(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def flag(x: Any) -> bool:
    return isinstance(x, bool)


def strings(x: Any) -> bool:
    return isinstance(x, list) and all(isinstance(c, str) for c in x)


def string_or_none(x: Any) -> bool:
    return x is None or isinstance(x, str)


def one_of(*values: Any) -> Check:
    allowed = frozenset(values)
    return lambda x: isinstance(x, str) and x in allowed


def counts(keys: str) -> Check:
    """A non-empty {key: count} dict over single-letter `keys`, every count at least 1 (a
    payment: moves list only the suits paid)."""
    allowed = frozenset(keys)
    return lambda x: (
        isinstance(x, dict)
        and bool(x)
        and all(isinstance(k, str) and k in allowed and whole(n) and n >= 1 for k, n in x.items())
    )


def words(x: Any) -> bool:
    """{str: str}: Aristocracy's ``mark`` words."""
    return isinstance(x, dict) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in x.items()
    )


class Shapes:
    """Move type -> (required keys, optional keys), each key with the check of its value."""

    def __init__(
        self, game: str, shapes: Mapping[str, tuple[Mapping[str, Check], Mapping[str, Check]]]
    ):
        self.game = game
        self.shapes = {t: (dict(req), dict(opt)) for t, (req, opt) in shapes.items()}

    def check(self, move: Any) -> str:
        """The move's type, if its shape is right; IllegalMove otherwise."""
        if not isinstance(move, dict):
            raise IllegalMove(N_("that is not a {game} move"), game=self.game)
        kind = move.get("type")
        if not isinstance(kind, str) or kind not in self.shapes:
            if isinstance(kind, str):
                raise IllegalMove(N_("{kind} is not a {game} move"), kind=repr(kind),
                                  game=self.game)
            raise IllegalMove(N_("that is not a {game} move"), game=self.game)
        required, optional = self.shapes[kind]
        for key, value in move.items():
            if key == "type":
                continue
            ok = required.get(key) or optional.get(key)
            if ok is None:
                raise IllegalMove(N_("a {kind} move has no {key}"), kind=kind, key=repr(key))
            if not ok(value):
                raise IllegalMove(N_("the {key} of that {kind} move is not one"), kind=kind,
                                  key=repr(key))
        missing = [k for k in required if k not in move]
        if missing:
            raise IllegalMove(N_("a {kind} move needs its {key}"), kind=kind, key=repr(missing[0]))
        return kind
