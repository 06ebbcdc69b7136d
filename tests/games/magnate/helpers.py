"""Building Magnate positions for scenario tests."""
from __future__ import annotations

import copy
import random
from dataclasses import replace

from service.games.contract import replay
from service.games.folding import Recorder
from service.games.magnate import GAME
from service.games.magnate.flow import roll
from service.games.magnate.state import SUITS, Prop, evolve


def new(seats: int = 2, seed: int = 1, **options):
    """A fresh game after the deal and the first roll."""
    rng = random.Random(seed)
    opts = GAME.validate_options(seats, options)
    return replay(GAME, GAME.start(seats, opts, rng))


def toks(**kw) -> tuple:
    """toks(V=2, L=6) -> a token vector."""
    return tuple(kw.get(s, 0) for s in SUITS)


def dev(*cards):
    return tuple(Prop(c) for c in cards)


def deed(card, **on):
    return Prop(card, toks(**on))


def quiet(st, turn=0, **kw):
    """A calm position: seat `turn` to play, tokens emptied, no pending draws."""
    ps = tuple(replace(p, tokens=toks()) for p in st.players)
    base = {"phase": "play", "plays_left": st.per_turn, "draws_left": 0, "asked": None}
    return replace(st, players=ps, turn=turn, **{**base, **kw})


def player(st, seat, **changes):
    ps = list(st.players)
    if "column" in changes:
        d, col = changes.pop("column")
        cols = list(ps[seat].columns)
        cols[d - 1] = col
        changes["columns"] = tuple(cols)
    if "tokens" in changes and isinstance(changes["tokens"], dict):
        changes["tokens"] = toks(**changes["tokens"])
    ps[seat] = replace(ps[seat], **changes)
    return replace(st, players=tuple(ps))


class Script:
    """A chance that plays back given dice (randint) and leaves shuffles alone."""

    def __init__(self, *values):
        self.values = list(values)

    def randint(self, a, b):
        v = self.values.pop(0)
        assert a <= v <= b
        return v

    def shuffle(self, x):
        pass

    def choice(self, seq):
        return seq[0]


def act(st, seat, move, chance=None, stop=None):
    """decide + evolve; checks decide leaves its input alone. `stop`: an event type at which to
    stop folding (e.g. "Drew", to see the position right after the card play)."""
    before = copy.deepcopy(st)
    events = GAME.decide(st, seat, move, chance or random.Random(0))
    assert st == before
    for e in events:
        if e.type == stop:
            break
        st = evolve(st, e)
    return st, events


def say(st, seat, text, chance=None):
    """Parse a command and apply every move it gives."""
    events = []
    for move in GAME.parse(st, seat, text):
        st, evs = act(st, seat, move, chance)
        events += evs
    return st, events


def rolled(st, seat, *dice):
    """The roll of `seat` with given dice (two d10, then d6s if taxed)."""
    rec = Recorder(evolve, st)
    roll(rec, seat, Script(*dice))
    return rec.state, rec.events[0]


def types(events):
    return [e.type for e in events]


def turn(st, seat, move, chance=None, stop=None):
    """A whole turn from one move: `act`, then (rules 2) the end of the open turn (M9
    amended), as the service does after a one-click link. Events of both are returned."""
    chance = chance or random.Random(0)
    st, events = act(st, seat, move, chance)
    end = GAME.finish_turn(st, seat)
    if end is None:
        return st, events
    st, more = act(st, seat, end, chance, stop)
    return st, events + more
