"""Suzerain's state and its fold (`evolve`); see the package docstring for the zones.

`evolve` is a `folding.Fold`: one small handler per event type, each returning a new State
(frozen, tuples only) and drawing nothing. What a handler needs to know beyond the state is in
the event; which events happen, and when, is `rules.decide`'s business.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..cards import decktet
from ..folding import Fold, started_version

MOON_SET = ("2MK", "3MV", "4MS")
WYRM_SET = ("2SY", "3LY", "4YK")
STARTING = MOON_SET + WYRM_SET
POOL = tuple(c for c in decktet.ALL if c != decktet.EXCUSE and decktet.rank(c) != "1" and c not in STARTING)
CARDS = POOL + STARTING + decktet.ACES          # the 44 cards in play (S1)
assert len(POOL) == 32 and len(CARDS) == 44

LEAD, FOLLOW, CLAIM, LOSER, DISCARD, OVER = "lead", "follow", "claim", "loser", "discard", "over"
# rules 2 (amended S7): the winner who just set a Pawn or Court aside may use it at once,
# before the loser claims
RIGHT = "right"
SEAT_CHOICES = ("random", "first", "second")

_ORDER = {c: i for i, c in enumerate(sorted(decktet.ALL, key=lambda c: (decktet.RANK_VALUE[decktet.rank(c)],
                                                                   decktet.ALL.index(c))))}


def sort_key(card: str) -> int:
    """Rank order, then suit order: the order hands and piles are shown in."""
    return _ORDER[card]


def value(card: str) -> int:
    return decktet.RANK_VALUE[decktet.rank(card)]


def suit_words(card: str) -> str:
    return " or ".join(decktet.SUIT_NAMES[s] for s in decktet.suits(card))


def listing(cards) -> str:
    cards = [decktet.name(c) for c in cards]
    if len(cards) <= 1:
        return "".join(cards) or "nothing"
    return ", ".join(cards[:-1]) + " and " + cards[-1]


def ordered(cards) -> tuple[str, ...]:
    return tuple(sorted(cards, key=sort_key))


def _put(pair: tuple, seat: int, val) -> tuple:
    return (val, pair[1]) if seat == 0 else (pair[0], val)


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]


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
    rules: int = 1                             # the rules version the game started under
    offer: str | None = None                   # rules 2: the fresh right offered in RIGHT

    @property
    def loser(self) -> int | None:
        return None if self.winner is None else 1 - self.winner

    def owned(self, seat: int) -> tuple[str, ...]:
        return (self.hands[seat] + self.piles[seat] + self.kept[seat] + self.removed[seat])


# ----- one handler per event type ---------------------------------------------------------


def _started(_: None, d) -> State:
    sets = [tuple(s) for s in d["sets"]]
    hands = tuple(ordered(list(sets[s]) + list(d["aces"][s])) for s in (0, 1))
    return State(dealer=d["dealer"], moon=d["moon"], phase=LEAD, trick=1,
                 leader=1 - d["dealer"], deck=tuple(d["deck"]),
                 display=tuple(d["display"]), hands=hands, piles=((), ()),
                 kept=((), ()), used=((), ()), removed=((), ()),
                 public=frozenset(STARTING), rules=started_version(d))


def _played(s: State, seat: int, card: str) -> State:
    return replace(s, hands=_put(s.hands, seat, _without(s.hands[seat], card)),
                   public=s.public | {card})


def _led(s: State, d) -> State:
    return replace(_played(s, d["seat"], d["card"]), phase=FOLLOW, table=(d["card"],),
                   last=None)


def _followed(s: State, d) -> State:
    return replace(_played(s, d["seat"], d["card"]), table=s.table + (d["card"],))


def _trick_won(s: State, d) -> State:
    """S4: both played cards go to their players' piles; the claims begin."""
    leader = s.leader
    lead, follow = s.table
    piles = _put(s.piles, leader, s.piles[leader] + (lead,))
    piles = _put(piles, 1 - leader, piles[1 - leader] + (follow,))
    last = {"trick": s.trick, "leader": leader, "lead": lead, "follow": follow,
            "followed": d["followed"], "winner": d["winner"], "next_leader": d["next_leader"]}
    return replace(s, phase=CLAIM, table=(), piles=piles, last=last, winner=d["winner"],
                   next_leader=d["next_leader"])


def _claimed(s: State, d) -> State:
    """S5/S7: a blind claim comes off the deck, an open one off the display; a Pawn or Court
    is set aside face up (public even when blind), anything else goes to the pile."""
    seat, card, blind, kept = d["seat"], d["card"], d["blind"], d["kept"]
    if blind:
        deck, display = s.deck[1:], s.display
        counts = _put(s.blind, seat, s.blind[seat] + 1)
    else:
        deck, display, counts = s.deck, _without(s.display, card), s.blind
    public = s.public if blind and not kept else s.public | {card}
    if kept:
        kept_, piles = _put(s.kept, seat, s.kept[seat] + (card,)), s.piles
    else:
        kept_, piles = s.kept, _put(s.piles, seat, s.piles[seat] + (card,))
    phase = LOSER if seat == s.winner else DISCARD
    return replace(s, deck=deck, display=display, kept=kept_, piles=piles, public=public,
                   phase=phase, blind=counts)


def _right_offered(s: State, d) -> State:
    """Rules 2 (S7 amended): the winner may use the right just claimed before the loser's
    claim; the loser waits until it is used or declined."""
    return replace(s, phase=RIGHT, offer=d["with"])


def _offer_closed(s: State, d) -> State:
    return replace(s, phase=LOSER, offer=None)


def _display_refilled(s: State, d) -> State:
    n = len(d["cards"])
    return replace(s, display=s.display + tuple(d["cards"]), deck=s.deck[n:])


def _discarded(s: State, d) -> State:
    """S6: the loser's 0-2 cards go to its pile; the next trick begins (cleanup follows as
    PileTakenUp events)."""
    seat, cards = d["seat"], tuple(d["cards"])
    hand = tuple(c for c in s.hands[seat] if c not in cards)
    return replace(s, hands=_put(s.hands, seat, hand),
                   piles=_put(s.piles, seat, s.piles[seat] + cards),
                   discarded=_put(s.discarded, seat, s.discarded[seat] + len(cards)),
                   phase=LEAD, trick=s.trick + 1, leader=s.next_leader,
                   winner=None, next_leader=None)


def _pile_taken_up(s: State, d) -> State:
    """S8: the pile becomes the new hand."""
    seat = d["seat"]
    return replace(s, hands=_put(s.hands, seat, ordered(s.hands[seat] + s.piles[seat])),
                   piles=_put(s.piles, seat, ()))


def _removed(s: State, d) -> State:
    """S7: the card leaves the hand, set aside secretly; the right is spent."""
    seat, card, by = d["seat"], d["card"], d["with"]
    return replace(s, hands=_put(s.hands, seat, _without(s.hands[seat], card)),
                   removed=_put(s.removed, seat, ordered(s.removed[seat] + (card,))),
                   used=_put(s.used, seat, s.used[seat] + (by,)))


def _ended(s: State, d) -> State:
    return replace(s, phase=OVER, public=frozenset(CARDS))


evolve = Fold("suzerain", "Started", {
    "Started": _started,
    "Led": _led,
    "Followed": _followed,
    "TrickWon": _trick_won,
    "Claimed": _claimed,
    "RightOffered": _right_offered,
    "OfferClosed": _offer_closed,
    "DisplayRefilled": _display_refilled,
    "Discarded": _discarded,
    "PileTakenUp": _pile_taken_up,
    "Removed": _removed,
    "Ended": _ended,
})


def acting(state: State) -> int | None:
    """The one seat whose decision the game waits on (None when it is over)."""
    return {LEAD: state.leader, FOLLOW: 1 - state.leader, CLAIM: state.winner,
            RIGHT: state.winner, LOSER: state.loser, DISCARD: state.loser}.get(state.phase)


def to_act(state: State) -> frozenset[int]:
    seat = acting(state)
    return frozenset() if seat is None else frozenset({seat})
