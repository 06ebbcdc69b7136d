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


def N_(message: str) -> str:
    """Marks an engine's template for the catalogs (babel.cfg's extraction reads `N_`); the
    place that shows the sentence translates it (the display, or whoever shows a `Refusal`).
    Engines import it from service.games.text; it lives here for this module's own."""
    return message


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
                raise OptionError(N_("option {name} must be a whole number, not {value}"),
                                  name=repr(name), value=repr(value)) from None
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            wrong = KIND_REFUSALS.get(kind) or f"option {{name}} must be {kind.__name__}, not {{value}}"
            raise OptionError(wrong, name=repr(name), value=repr(value))
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise OptionError(N_("option {name} must be one of {allowed}; {value} is not"),
                              name=repr(name), allowed=allowed, value=repr(value))
        return value


# An option's value of the wrong type (a number where on/off was asked, from the API), the
# type named whole in each sentence: a language says "a whole number", not the type's name.
KIND_REFUSALS = {
    int: N_("option {name} must be int, not {value}"),
    bool: N_("option {name} must be bool, not {value}"),
    str: N_("option {name} must be str, not {value}"),
}


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended. `scores` per seat; several winners = a shared win or a draw.

    `places`: each seat's place by the rules (1 first, equal places shared: 1, 1, 3), their
    tie-breaks applied below first place too, the seats placed 1 being exactly `winners`.
    Empty where the winners first and the others by score say it all (two seats). The
    service ranks a game by them (service.play.ranking, RULINGS P1) and stores its own
    ranking, so they are not part of `to_json`, the engine's view of its result."""

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    how: str
    detail: Mapping[str, Any] = field(default_factory=dict)
    places: tuple[int, ...] = ()

    def to_json(self) -> dict:
        return {"scores": list(self.scores), "winners": list(self.winners), "how": self.how,
                "detail": dict(self.detail)}


def places_by(keys: Sequence[Any]) -> tuple[int, ...]:
    """Each seat's place by its key (a higher key places higher; equal keys share a place,
    and the next place is skipped: 1, 1, 3), for `Outcome.places`."""
    return tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)


def english(template: str, args: Mapping) -> str:
    """`template` filled from `args` as written (str.format's named braces), a parameter that
    is a phrase (service.games.text.phrase) in its English."""
    return template.format(**{k: english(v["template"], v["args"]) if isinstance(v, dict) else v
                              for k, v in args.items()})


class Refusal(Exception):
    """A refusal said to the player. `why` is its English sentence; `template` and `values`
    are what it was made from (`values`: Exception has its own `args`), so that the place that
    shows it to a person can say it in the reader's language (the engine marks the template with service.games.text.N_ and passes
    card names as the rules name them). Given no args, the template is the sentence itself:
    an engine's English not yet made a template is shown as it is."""

    def __init__(self, why: str, /, **values):      # a value may be named "why" too
        self.template, self.values = why, values
        self.why = english(why, values) if values else why
        super().__init__(self.why)


class IllegalMove(Refusal):
    """A move the rules forbid in this position."""


class CommandError(Refusal):
    """Text that does not read as a move. `suggestions` are canonical texts that would work."""

    def __init__(self, why: str, /, suggestions: Sequence[str] = (), **values):
        super().__init__(why, **values)
        self.suggestions = list(suggestions)

    def suggesting(self, suggestions: Sequence[str]) -> CommandError:
        """The same refusal with other suggestions (a grammar that knows better ones)."""
        return CommandError(self.template, suggestions, **self.values)


class OptionError(Refusal, ValueError):
    """Options that cannot make a game (an unknown name, a bad value, an impossible mix): a
    refusal, its template and values said in the reader's language where the lobby, a
    command or the API shows it (service.play.errors.reason)."""


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

    # What each must guarantee (tests/games/test_invariants.py, test_conformance.py and
    # test_hidden_information.py check it on every registered engine): every method is pure
    # (`decide` and `start` draw chance only from `chance`, and record every outcome in their
    # events); `evolve` is a fold that draws nothing, so replaying the log rebuilds the state;
    # `to_act` is never empty before the `outcome`; a seat to act has a legal move, and a seat
    # not to act has only choices it may make at any time (an engine that takes plans names
    # their events in `Hooks.plan_out_of_turn`); `menu` is a part of `legal_moves`;
    # `describe` is canonical (`parse(describe(m)) == [m]`); `view`, `legal_moves`, `menu`,
    # `parse` and `decide`'s refusals for a seat, and the bots' moves for it, come from that
    # seat's knowledge alone (the same in every position it cannot tell apart); `redact`
    # shows a seat no card it may not know.
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

    # Every card's place, and who may not know it: for the invariant tests, and `secrets` for
    # the service's undo too (a move that showed a seat a card cannot be taken back).
    def zones(self, state: State) -> Mapping[str, Sequence[str]]:
        """Every card in the game by where it lies ("hand:0", "draw", "tree:1M"...)."""
        ...

    def secrets(self, state: State, seat: int | None) -> set[str]:
        """Card ids whose whereabouts `seat` may not know now (None = a spectator)."""
        ...

    # The optional hooks are the `Hooks` protocol below: the service asks for each by name
    # and does without where an engine has none.


class Hooks(Protocol):
    """The optional hooks: the service looks each one up on an engine by name (`getattr`) and
    does without it where the engine has none. Each says what it must guarantee; the
    conformance suite (tests/games/test_conformance.py) checks every guarantee on every
    registered engine that has the hook, for positions of seeded random play, and
    tests/games/test_hidden_information.py checks "from the seat's knowledge alone" by dealing
    every card the seat cannot see again (docs/engines.md, "Optional hooks").

    Every hook is pure: it changes nothing it is given and draws no chance. "From `seat`'s
    knowledge alone" means: the same answer in every position `seat` cannot tell from this one
    (the deck, the others' hands and face-down cards dealt again, the others' hidden standing
    choices chosen again)."""

    # ---- time and turns

    def timeout_move(self, state: State, seat: int) -> Move | None:
        """The move made for `seat` when its time to choose runs out (the clock's move,
        service.play.time.sweep), or None where nothing sensible can be chosen for it; None
        when `seat` is not to act. A move `decide` accepts, chosen from `seat`'s knowledge
        alone (it is played in the seat's name)."""
        ...

    def finish_turn(self, state: State, seat: int) -> Move | None:
        """For games whose turn stays open after its main action (Magnate, M9): the move that
        ends `seat`'s open turn, or None when it has no turn open that may end now. The service
        plays it after a reply's lines (unless the last is ``keep``), after a one-click link
        and after a plan's answer, so each is one whole turn (service.play.moves.submit). A
        move `decide` accepts; from `seat`'s knowledge alone."""
        ...

    def forced_move(self, state: State, seat: int) -> Move | None:
        """`seat`'s one legal move when making it shows the seat nothing it did not know (a
        follow forced by holding one card of the led suit), else None; played for the seat
        after the bots' delay when its `forced_moves` preference is on (service.play.notify,
        service.play.moves.tablebots). Never a move that draws or turns up a card, nor one whose
        haste would tell the others what the rules keep from them. When not None: `seat` is to
        act, `legal_moves` is exactly [this move], and deciding it shrinks none of `seat`'s
        secrets; from `seat`'s knowledge alone."""
        ...

    def can_take_back(self, state_before: State, events: Sequence[Event]) -> bool:
        """Whether a move that produced `events` from `state_before` may be taken back when
        every player agrees (service.play.moves.undo): False if they drew chance (a card, a
        shuffle, the dice) or turned up to its maker anything hidden. True only when the same
        move decided under any chance makes the same events and its maker learnt no card. (The
        service also refuses when any seat's `secrets` shrank, and never asks about a move
        that ended the game: a finished game takes nothing back.) Without it no move can be
        taken back."""
        ...

    def freshness(self, state: State, seat: int | None) -> Any:
        """The part of `seat`'s view its links and forms depend on (service.linking.freshness;
        default: the whole view): JSON-safe, from `seat`'s knowledge alone, and different
        whenever `seat`'s legal moves are. Leave out what others' progress changes without
        touching this seat's decision (who has chosen so far in a sealed round)."""
        ...

    def seats_for(self, options: Mapping[str, Any]) -> range:
        """The player counts these options (a lobby entry's preset) allow, within `seats` (a
        ruleset may allow fewer than its engine: classic Magnate is for two): the lobby's
        counts (registry.player_counts). `validate_options(n, options)` accepts exactly
        these n."""
        ...

    # ---- plans (service.play.moves.standingplans and planplay; docs/architecture.md, "Plans")

    def plan_world(self, state: State, writer: int) -> State:
        """The position as `writer` may know it, against which a plan's condition (another
        seat's move) is read and tried: every other seat holding every card it might hold,
        what the writer cannot see made of stand-ins of the public sizes, hidden choices at
        their plainest. A function of `writer`'s knowledge alone: equal for every position the
        writer cannot tell from this one, with the same seats to act and the same legal moves
        for `writer`. An engine without it takes no plans."""
        ...

    def never_possible(self, state: State, writer: int, move: Move) -> dict | str | None:
        """Why another seat can never make `move`, as far as `writer` can know (a clause: "the
        Mill is in your own hand", as service.games.text.phrase so the writer reads it in their
        language; a plain str is shown as it is), or None where it may. Required with
        `plan_world`; from `writer`'s knowledge alone."""
        ...

    def plan_hints(self, state: State, seat: int) -> Sequence[tuple[Move, Sequence[Move]]]:
        """Likely plans for `seat` (another seat's move, `seat`'s answers to it), offered in
        its emails and on its page (service.play.moves.standingplans.hints): from `seat`'s knowledge
        alone, and each one, written as a plan, a line the service keeps."""
        ...

    #: Event types of choices a seat may make at any time, out of its turn and unseen by the
    #: others (Magnate's income preference and Ace setting, M16, M19): no plan answers them,
    #: and none lapses by them (service.play.moves.planplay). Every event a move of a seat not
    #: to act makes is of one of these types, and no other seat's history shows it.
    plan_out_of_turn: frozenset[str]

    #: Why plans are refused in this game, as a clause ("its choices are sealed and revealed
    #: together, so there is no move of another player to answer"): the service refuses
    #: every plan line with it and never looks for plans in its games.
    sealed_choices: str

    # ---- a player's figures (service.play.community.activity)

    #: Event types of a seat's standing private choices, which it may make at any time and
    #: nobody else sees (Magnate's income preferences and Ace setting, Aristocracy's choice
    #: to end): not moves of its turn, so a player's reliability and quickness leave them out
    #: (RULINGS P2), lest toggling one raise them or show the table it was made.
    standing_choices: frozenset[str]

    # ---- the display (service.display.seatview: emails and pages)

    def view_said(self, state: State, seat: int | None) -> Mapping[str, dict]:
        """The view's own sentences (Suzerain's prompt: "Waiting for {p1} to follow.") as
        templates the display says in the reader's language (service.games.text.said), by the
        key each has in `view(state, seat)`: each one's `text` is exactly that key's string
        there. From `seat`'s knowledge alone, as the view is. Without it the display shows
        those sentences in their English."""
        ...

    # ---- emails (service.play.mail, the turn email's headline)

    #: Event types that only follow a move (Trees' draw after every action, a tree started by
    #: itself): a turn email's headline leads with the last news line that is not one of them,
    #: so it names the move that mattered.
    follow_on_events: frozenset[str]


def _members(protocol: type) -> tuple[str, ...]:
    methods = [n for n, v in vars(protocol).items() if callable(v) and not n.startswith("_")]
    return (*protocol.__annotations__, *methods)


#: what every engine has, by name (`Game`)
REQUIRED: tuple[str, ...] = _members(Game)
#: every optional hook the service may call on an engine, by name (`Hooks`)
OPTIONAL_HOOKS: tuple[str, ...] = _members(Hooks)


def validate_options(game: Game, seats: int, options: Mapping[str, Any]) -> dict:
    """Shared option checking: unknown names refused, values coerced, defaults filled in.
    Engines call this first in their own `validate_options`, then check combinations."""
    if seats not in game.seats:
        raise OptionError(N_("{game} is for {least} to {most} players, not {seats}"),
                          game=game.title, least=game.seats.start, most=game.seats.stop - 1,
                          seats=seats)
    unknown = sorted(set(options) - set(game.options))
    if unknown:
        if not game.options:
            raise OptionError(N_("{game} has no option {name} (its options: none)"),
                              game=game.title, name=repr(unknown[0]))
        raise OptionError(N_("{game} has no option {name} (its options: {known})"),
                          game=game.title, name=repr(unknown[0]),
                          known=", ".join(sorted(game.options)))
    return {name: (opt.coerce(name, options[name]) if name in options else opt.default)
            for name, opt in game.options.items()}


def replay(game: Game, events: Sequence[Event], state: State | None = None) -> State:
    """Fold events into a state: the one way a state is ever rebuilt."""
    for event in events:
        state = game.evolve(state, event)
    return state
