"""Suzerain's state and its fold (`evolve`); see the package docstring for the zones."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..cards import decktet as dk
from ..contract import Event
from .scoring import sort_key

MOON_SET = ("2MK", "3MV", "4MS")
WYRM_SET = ("2SY", "3LY", "4YK")
STARTING = MOON_SET + WYRM_SET
POOL = tuple(c for c in dk.ALL if c != dk.EXCUSE and dk.rank(c) != "1" and c not in STARTING)
CARDS = POOL + STARTING + dk.ACES          # the 44 cards in play (S1)
assert len(POOL) == 32 and len(CARDS) == 44

LEAD, FOLLOW, CLAIM, LOSER, DISCARD, OVER = "lead", "follow", "claim", "loser", "discard", "over"
SEAT_CHOICES = ("random", "first", "second")


def value(card: str) -> int:
    return dk.RANK_VALUE[dk.rank(card)]


def suit_words(card: str) -> str:
    return " or ".join(dk.SUIT_NAMES[s] for s in dk.suits(card))


def listing(cards) -> str:
    cards = [dk.name(c) for c in cards]
    if len(cards) <= 1:
        return "".join(cards) or "nothing"
    return ", ".join(cards[:-1]) + " and " + cards[-1]


def ordered(cards) -> tuple[str, ...]:
    return tuple(sorted(cards, key=sort_key))


def _put(pair: tuple, seat: int, val) -> tuple:
    return (val, pair[1]) if seat == 0 else (pair[0], val)


@dataclass(frozen=True)
class State:
    dealer: int
    moon: int                                  # seat holding the Moon set (the other: Wyrm)
    phase: str
    trick: int                                 # 1..16
    leader: int                                # leads (or led) the current trick
    deck: tuple[str, ...]
    display: tuple[str, ...]
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    piles: tuple[tuple[str, ...], tuple[str, ...]]
    kept: tuple[tuple[str, ...], tuple[str, ...]]
    used: tuple[tuple[str, ...], tuple[str, ...]]      # kept cards whose right is spent
    removed: tuple[tuple[str, ...], tuple[str, ...]]
    table: tuple[str, ...] = ()                # the led card while the follower decides
    last: Mapping[str, Any] | None = None      # the decided trick, until the next lead
    winner: int | None = None
    next_leader: int | None = None
    public: frozenset = frozenset()            # cards whose owner every seat knows
    discarded: tuple[int, int] = (0, 0)        # public counts of S6 discards
    blind: tuple[int, int] = (0, 0)            # public counts of blind claims

    @property
    def loser(self) -> int | None:
        return None if self.winner is None else 1 - self.winner

    def owned(self, seat: int) -> tuple[str, ...]:
        return (self.hands[seat] + self.piles[seat] + self.kept[seat] + self.removed[seat])


def evolve(state: State | None, event: Event) -> State:
    """The fold: each event's effect, drawing nothing, copying what changes."""
    d = event.data
    t = event.type
    if t == "Started":
        sets = [tuple(s) for s in d["sets"]]
        hands = tuple(ordered(list(sets[s]) + list(d["aces"][s])) for s in (0, 1))
        return State(dealer=d["dealer"], moon=d["moon"], phase=LEAD, trick=1,
                     leader=1 - d["dealer"], deck=tuple(d["deck"]),
                     display=tuple(d["display"]), hands=hands, piles=((), ()),
                     kept=((), ()), used=((), ()), removed=((), ()),
                     public=frozenset(STARTING))
    s = d.get("seat")
    if t == "Led":
        card = d["card"]
        return replace(state, phase=FOLLOW, table=(card,), last=None,
                       hands=_put(state.hands, s, _without(state.hands[s], card)),
                       public=state.public | {card})
    if t == "Followed":
        return replace(state, table=state.table + (d["card"],),
                       hands=_put(state.hands, s, _without(state.hands[s], d["card"])),
                       public=state.public | {d["card"]})
    if t == "TrickWon":
        leader = state.leader
        lead, follow = state.table
        piles = _put(state.piles, leader, state.piles[leader] + (lead,))
        piles = _put(piles, 1 - leader, piles[1 - leader] + (follow,))
        last = {"trick": state.trick, "leader": leader, "lead": lead, "follow": follow,
                "followed": d["followed"], "winner": d["winner"],
                "next_leader": d["next_leader"]}
        return replace(state, phase=CLAIM, table=(), piles=piles, last=last,
                       winner=d["winner"], next_leader=d["next_leader"])
    if t == "Claimed":
        card = d["card"]
        if d["blind"]:
            deck, display = state.deck[1:], state.display
            blind = _put(state.blind, s, state.blind[s] + 1)
        else:
            deck, display, blind = state.deck, _without(state.display, card), state.blind
        public = state.public if d["blind"] and not d["kept"] else state.public | {card}
        if d["kept"]:
            kept, piles = _put(state.kept, s, state.kept[s] + (card,)), state.piles
        else:
            kept, piles = state.kept, _put(state.piles, s, state.piles[s] + (card,))
        phase = LOSER if s == state.winner else DISCARD
        return replace(state, deck=deck, display=display, kept=kept, piles=piles,
                       public=public, phase=phase, blind=blind)
    if t == "DisplayRefilled":
        n = len(d["cards"])
        return replace(state, display=state.display + tuple(d["cards"]),
                       deck=state.deck[n:])
    if t == "Discarded":
        cards = tuple(d["cards"])
        hand = tuple(c for c in state.hands[s] if c not in cards)
        return replace(state, hands=_put(state.hands, s, hand),
                       piles=_put(state.piles, s, state.piles[s] + cards),
                       discarded=_put(state.discarded, s, state.discarded[s] + len(cards)),
                       phase=LEAD, trick=state.trick + 1, leader=state.next_leader,
                       winner=None, next_leader=None)
    if t == "PileTakenUp":
        return replace(state, hands=_put(state.hands, s, ordered(state.piles[s])),
                       piles=_put(state.piles, s, ()))
    if t == "Removed":
        card, by = d["card"], d["with"]
        return replace(state, hands=_put(state.hands, s, _without(state.hands[s], card)),
                       removed=_put(state.removed, s, ordered(state.removed[s] + (card,))),
                       used=_put(state.used, s, state.used[s] + (by,)))
    if t == "Ended":
        return replace(state, phase=OVER, public=frozenset(CARDS))
    raise ValueError(f"Suzerain has no event {t!r}")


def to_act(state: State) -> frozenset[int]:
    if state.phase == LEAD:
        return frozenset({state.leader})
    if state.phase == FOLLOW:
        return frozenset({1 - state.leader})
    if state.phase == CLAIM:
        return frozenset({state.winner})
    if state.phase in (LOSER, DISCARD):
        return frozenset({state.loser})
    return frozenset()


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]
