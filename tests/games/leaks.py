"""The history leak check: does a seat's history entry mention a card that seat may not know?

`check_views` in test_invariants.py compares only whole strings equal to a card id, so it sees
nothing in a sentence ("{p0} drew the Mill", "The market gets 3♦ 7♣") and nothing at all of
Aristocracy, whose history names cards by label only. This module reads an entry the way a
person does. In every string of ``redact(event, seat)`` (the ``text`` sentence, every other
field, dict keys included) it finds every card mention:

* by id: a whole string that is a card id ("8VL", "10H.2"), or an id written inside a sentence
  ("... 8VL ..."; digit-only words such as "0" count only as a whole string);
* by Decktet name: "the Mill", "The Mill", "Mill", "the Ace of Moons" (the Decktet label
  "the Mill (8 Waves/Leaves)" contains the name);
* by French label and name: "3♦", "10♠", "J♣"; "Jack of Clubs", "3 of Diamonds".

An id names one card. A name, a label, or a copy-less id in a double-deck game ("8VL" when the
cards are 8VL.1 and 8VL.2) names a *class*: every copy of that card. A label is ambiguous when
one copy is public and another secret, so classes are judged by counting: a list of cards in
an entry ("The market gets 3♦ 3♦ 7♣") names different cards, so it may name a class at most as
many times as there are copies of it the seat may know. Two lists of one entry may name the
same card ("you gave A♣ ... Market: A♣" is one card), so counts are not added across lists.

Which cards a seat may not know, for one event: the cards secret to it both BEFORE the event
and AFTER it (``game.secrets``). A card secret before but not after is revealed by the event
(a card played face up, drawn into the reader's hand): the entry may name it. A card public
before but secret after is hidden by the event in plain sight (market leftovers discarded face
down, a sale's cards shuffled into the deck): everyone saw it go, so the entry may name it as
it goes. Only a card hidden on both sides of the event must not be named. For GameStarted
there is no "before": the cards secret after it are the ones.

Every non-None entry of every event is read for every seat and the spectator: nothing is
skipped, and `HistoryCheck.stats` counts the entries read and the mentions compared, so a test
can prove that the check compares something in every game.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from service.games.cards import decktet, french, is_french

Card = str


def base(card_id: Card) -> str:
    return card_id.split(".", 1)[0]


def strings_in(obj: Any) -> Iterator[str]:
    """Every string anywhere in a JSON-safe value, dict keys included."""
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            yield x
        elif isinstance(x, Mapping):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, (list, tuple, set, frozenset)):
            stack.extend(x)


@dataclass(frozen=True)
class Mention:
    """One card mention in an entry: `exact` names one card (an id with its copy suffix, or
    the only copy); otherwise `cards` is the class it may mean (every copy)."""

    kind: str                  # "id", "name" or "label"
    token: str                 # as written
    cards: frozenset[Card]     # the copies it may mean
    exact: Card | None = None


def phrases(card_id: Card) -> list[tuple[str, str]]:
    """(kind, phrase) for every way a history sentence may name this card's class: the
    French label and name ("3♦", "3 of Diamonds"), the Decktet name without its article
    ("Mill", "Ace of Moons"; the reader takes "the Mill", "The Mill" and "Mill" alike)."""
    if is_french(card_id):
        r, s = french.rank(card_id), french.suit(card_id)
        return [("label", french.label(card_id)),
                ("name", f"{french.RANK_NAMES.get(r, r)} of {french.SUIT_NAMES[s]}")]
    return [("name", decktet.name(card_id).removeprefix("the "))]


# What a card mention can look like; the match is then looked up among the game's phrases.
# Decktet nouns are matched case-sensitively ("the end of the game" is not the End, "the
# market" is not the Market): a name of several words, "Ace of <Suits>", or one capitalised
# word.
_FRENCH = (r"(?<![\w])(?:(?P<label>(?:10|[2-9AJQK])[♠♥♦♣])"
           r"|(?P<fname>(?:Ace|King|Queen|Jack|10|[2-9]) of (?:Spades|Hearts|Diamonds|Clubs)))")
_LONG_NAMES = "|".join(r"\s+".join(map(re.escape, decktet.name(c).split()[1:]))
                       for c in decktet.ALL if len(decktet.name(c).split()) > 2)
_DECKTET = (r"(?<![\w])(?:[Tt]he\s+)?(?P<dname>" + _LONG_NAMES + r"|[A-Z][a-z]+)(?![\w])")


class Vocabulary:
    """Every way the cards of one game can be mentioned, and a reader for entries."""

    def __init__(self, cards: Iterable[Card]):
        self.cards = frozenset(cards)
        classes: dict[str, set[Card]] = {}
        for c in self.cards:
            classes.setdefault(base(c), set()).add(c)
        self.classes = {b: frozenset(cs) for b, cs in classes.items()}
        self.phrases: dict[str, tuple[str, str]] = {}     # phrase -> (kind, class base)
        for b, cs in self.classes.items():
            for kind, phrase in phrases(next(iter(cs))):
                self.phrases[phrase] = (kind, b)
        french_deck = any(is_french(c) for c in self.cards)
        decktet_deck = any(not is_french(c) for c in self.cards)
        self._phrase_rx = re.compile("|".join(
            ([_FRENCH] if french_deck else []) + ([_DECKTET] if decktet_deck else []))
            or r"(?!)")
        self._words = re.compile(r"[0-9A-Za-z]+(?:\.[0-9]+)?")

    def _phrase(self, m: re.Match) -> tuple[str, str, str] | None:
        """(kind, class base, text) of a candidate match, or None when it names no card."""
        text = m.group()
        found = m.lastgroup and m.group(m.lastgroup)
        if not found:
            return None
        key = re.sub(r"\s+", " ", found)
        return (*self.phrases[key], text) if key in self.phrases else None

    def _id_mention(self, token: str) -> Mention | None:
        if token in self.cards:
            return Mention("id", token, frozenset([token]), token)
        if token in self.classes:              # a copy-less id in a double-deck game
            return Mention("id", token, self.classes[token])
        return None

    def mentions(self, entry: Any) -> list[list[Mention]]:
        """Every card mention in `entry`, grouped in lists: mentions one after another in a
        sentence, separated only by spaces, commas or "and" ("3♦ 3♦ 7♣", "the Mill, the
        Sailor and the Sea"), are one list, and a list names different cards. Every other
        mention (an id field, a card named elsewhere in the sentence) is a list of its own."""
        out: list[list[Mention]] = []
        for text in strings_in(entry):
            whole = self._id_mention(text)
            if whole is not None:
                out.append([whole])
                continue
            for m in self._words.finditer(text):
                tok = m.group()
                if not tok.isdigit() and (found := self._id_mention(tok)) is not None:
                    out.append([found])
            end = None
            for m in self._phrase_rx.finditer(text):
                found = self._phrase(m)
                if found is None:
                    continue
                kind, b, written = found
                cs = self.classes[b]
                mention = Mention(kind, written, cs, next(iter(cs)) if len(cs) == 1 else None)
                if end is not None and _LIST_GAP.fullmatch(text[end:m.start()]):
                    out[-1].append(mention)
                else:
                    out.append([mention])
                end = m.end()
        return out


_LIST_GAP = re.compile(r"(?:\s|,|\band\b)*")


@dataclass(frozen=True)
class Leak:
    game: str
    event: str                 # event type
    index: int                 # position of the event in the game's log
    seat: int | None
    token: str                 # the mention as written
    cards: tuple[Card, ...]    # the secret cards it may mean
    mentioned: int             # how often the entry mentions that class
    known: int                 # copies of it the seat may know
    entry: str                 # the entry's text (or the whole entry)
    data: Any = field(default=None, compare=False, repr=False)   # the event's own data

    def __str__(self) -> str:
        who = "the spectator" if self.seat is None else f"seat {self.seat}"
        return (f"{self.game} #{self.index} {self.event}: {who} reads {self.token!r} "
                f"(secret: {', '.join(self.cards)}; mentioned {self.mentioned}x, "
                f"{self.known} cop{'y' if self.known == 1 else 'ies'} known) in {self.entry!r}")


def leaks_in(entry: Any, hidden: set[Card], vocab: Vocabulary
             ) -> tuple[list[tuple], list[Mention]]:
    """Compare one redacted entry with the cards its reader may not know (`hidden`).

    Returns (problems, the mentions compared); a problem is (token, secret cards, mentioned,
    known). Exact ids are judged one by one. A class is judged by counting: the most copies
    of it that one list names (a list names different cards; two lists may name one card
    twice, "you gave A♣ ... Market: A♣") may not exceed the copies the reader may know."""
    problems: list[tuple] = []
    lists = vocab.mentions(entry)
    mentions = [m for group in lists for m in group]
    per_class: Counter[frozenset] = Counter()
    first: dict[frozenset, str] = {}
    for group in lists:
        in_list: Counter[frozenset] = Counter()
        for m in group:
            if m.exact is not None:
                if m.exact in hidden:
                    problems.append((m.token, (m.exact,), 1, 0))
            else:
                in_list[m.cards] += 1
                first.setdefault(m.cards, m.token)
        for cs, n in in_list.items():
            per_class[cs] = max(per_class[cs], n)
    for cs, n in per_class.items():
        known = len(cs - hidden)
        if n > known:
            problems.append((first[cs], tuple(sorted(cs & hidden)), n, known))
    return problems, mentions


def rules_reveal(game_id: str, event: Any, seat: int | None) -> set[Card]:
    """Cards the rules let this event show to `seat` although `secrets` (a snapshot of what
    a seat may know *now*) still counts them secret on both sides of it. Each is a moment
    of seeing, not a place a card lies in, so `secrets` cannot say it:

    * Aristocracy A12: a visitor privately sees the building cards ("and sees 4♥ 4♦"); when
      nothing mismatches the visit is over at once and `secrets` hides them again.
    * Aristocracy A15 option `ball_reveal`: the pooled cards are shown to everyone before
      they are dealt back; which hand each went to stays secret.
    """
    d = event.data
    if game_id == "aristocracy":
        if event.type == "Visited" and seat == d.get("seat"):
            return set(d["look"])
        if event.type == "BallHeld" and d.get("reveal"):
            return {c for gift in d["given"] for c in gift}
    return set()


@dataclass
class HistoryCheck:
    """Reads every entry of a game as it is played (call `event` after each evolve).

    `strict` raises AssertionError on the first event with a leak; otherwise leaks are
    collected in `leaks`. `known` (a predicate over a Leak) marks leaks already reported:
    they go to `known_leaks` and never fail the check."""

    game: Any
    seats: int
    strict: bool = True
    known: Any = None
    reveals: Any = None            # (game id, event, seat) -> cards; default rules_reveal
    vocab: Vocabulary | None = None
    leaks: list[Leak] = field(default_factory=list)
    known_leaks: list[Leak] = field(default_factory=list)
    stats: Counter = field(default_factory=Counter)
    index: int = 0
    _secret: dict = field(default_factory=dict)    # seat -> secrets of `_state`
    _state: Any = None                              # the latest state read

    def readers(self) -> list[int | None]:
        return [*range(self.seats), None]

    def event(self, before: Any, event: Any, after: Any) -> list[Leak]:
        game = self.game
        if self.vocab is None:
            self.vocab = Vocabulary(c for cs in game.zones(after).values() for c in cs)
        if before is None or before is not self._state:
            self._secret = {}                        # not the state read last: recompute
        found: list[Leak] = []
        new_secret = {}
        for seat in self.readers():
            after_secret = set(game.secrets(after, seat))
            new_secret[seat] = after_secret
            prior = self._secret.get(seat) if before is not None else None
            if before is not None and prior is None:
                prior = set(game.secrets(before, seat))
            hidden = after_secret if prior is None else after_secret & prior
            hidden -= (self.reveals or rules_reveal)(getattr(game, "id", "?"), event, seat)
            entry = game.redact(event, seat)
            if entry is None:
                self.stats["entries withheld"] += 1
                continue
            self.stats["entries"] += 1
            problems, mentions = leaks_in(entry, hidden, self.vocab)
            self.stats["mentions"] += len(mentions)
            self.stats.update(f"{m.kind} mentions" for m in mentions)
            for token, cards, mentioned, known in problems:
                text = entry.get("text") if isinstance(entry, dict) else None
                found.append(Leak(getattr(game, "id", "?"), event.type, self.index, seat,
                                  token, cards, mentioned, known,
                                  text if isinstance(text, str) else repr(entry),
                                  event.data))
        self._secret, self._state = new_secret, after
        self.index += 1
        fresh = [x for x in found if not (self.known and self.known(x))]
        self.known_leaks.extend(x for x in found if x not in fresh)
        self.leaks.extend(fresh)
        if self.strict and fresh:
            raise AssertionError("history leaks a card its reader may not know:\n"
                                 + "\n".join(f"  {x}" for x in fresh))
        return fresh


def play_and_read(game: Any, seats: int, options: Mapping[str, Any], seed: int,
                  check: HistoryCheck) -> Any:
    """Random legal play from a seeded start to the end, every event read by `check`."""
    import random

    rng = random.Random(seed)
    options = game.validate_options(seats, dict(options))
    state = None
    for event in game.start(seats, options, rng):
        new = game.evolve(state, event)
        check.event(state, event, new)
        state = new
    steps = 0
    while game.outcome(state) is None:
        steps += 1
        assert steps < 20_000, "random play did not finish"
        seat = rng.choice(sorted(game.to_act(state)))
        move = rng.choice(game.legal_moves(state, seat))
        for event in game.decide(state, seat, move, rng):
            new = game.evolve(state, event)
            check.event(state, event, new)
            state = new
    return state


def spelled(card_id: Card) -> str:
    """How a history sentence names a card: "3♦" (French), "the Mill" (Decktet)."""
    return french.label(card_id) if is_french(card_id) else decktet.name(card_id)


class Leaky:
    """An engine whose `redact` leaks: every `every`-th entry names a card its reader may not
    know, one hidden from it on both sides of the event and all of whose copies are hidden
    (preferably in another seat's hand), so naming it is a leak however it is written.

    `how`: "text" appends its label/name to the sentence ("... (3♦)"), "field" adds its id
    as a new field, "both" takes turns. `planted` records (how, event type, seat, card) of
    every leak it made."""

    def __init__(self, game: Any, how: str = "both", every: int = 5):
        self._game, self.how, self.every = game, how, every
        self.planted: list[tuple[str, int | None, Card]] = []
        self._before = self._after = None
        self._calls = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def evolve(self, state: Any, event: Any) -> Any:
        new = self._game.evolve(state, event)
        self._before, self._after = state, new
        return new

    def redact(self, event: Any, seat: int | None) -> dict | None:
        entry = self._game.redact(event, seat)
        if entry is None:
            return None
        self._calls += 1
        if self._calls % self.every:
            return entry
        game, after = self._game, self._after
        hidden = set(game.secrets(after, seat))
        if self._before is not None:
            hidden &= set(game.secrets(self._before, seat))
        zones = game.zones(after)
        copies: dict[str, set] = {}
        for cs in zones.values():
            for c in cs:
                copies.setdefault(base(c), set()).add(c)
        fully = sorted(c for c in hidden if copies[base(c)] <= hidden)
        theirs = [c for name, cs in sorted(zones.items()) if name.startswith("hand:")
                  and name != f"hand:{seat}" for c in cs if c in fully]
        pool = theirs or fully
        if not pool:
            return entry
        card = pool[self._calls % len(pool)]
        entry = dict(entry)
        how = self.how if self.how != "both" else ("text", "field")[len(self.planted) % 2]
        if how == "text":
            entry["text"] = f"{entry.get('text', '')} ({spelled(card)})"
        else:
            entry["peek"] = card
        self.planted.append((how, event.type, seat, card))
        return entry
