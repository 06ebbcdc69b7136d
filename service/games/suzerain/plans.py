"""What a seat may know when it writes a plan (service.play.moves.standingplans): the position as its
opponent's hand could be, from the writer's own knowledge only, so that accepting or refusing
a plan line never tells the writer where a hidden card is (issue: plans are private)."""
from __future__ import annotations

from dataclasses import replace

from ..cards import decktet
from ..contract import Move
from ..text import N_, phrase
from .rules import playable
from .state import DISCARD, LEAD, LOSER, RIGHT, State, ordered

#: answers offered at most in one email (plan_hints)
MAX_HINTS = 12


def possible_hand(state: State, writer: int) -> tuple[str, ...]:
    """Every card the opponent might hold, as the writer sees it: the cards hidden from the
    writer (the deck and the opponent's unseen cards, one pool) and the cards known to be the
    opponent's (`known_theirs`)."""
    other = 1 - writer
    hidden = set(state.deck) | {c for c in state.hands[other] + state.piles[other]
                                + state.removed[other] if c not in state.public}
    return ordered(list(hidden | known_theirs(state, other)))


def known_theirs(state: State, other: int) -> set[str]:
    """The cards known to be `other`'s and not set aside face up: in its hand, its pile or
    removed. Which of the three is not known (a discard or a removal never says which card,
    S6, S7), so a known card discarded is one it might still hold (the pile comes up as the
    hand, S8)."""
    return {c for c in state.hands[other] + state.piles[other] + state.removed[other]
            if c in state.public}


def plan_world(state: State, writer: int) -> State:
    """The position as a function of the writer's knowledge alone: the opponent holds every
    card it might hold, and what the writer cannot see is made of stand-ins from the hidden
    pool (the deck, the opponent's pile and removed cards: their sizes are public, their
    cards and order are not). The condition of a plan is read, and tried, against this, never
    against the real position, so its answer cannot depend on where a hidden card lies (a
    blind take tried against the real deck told the loser whether its top card was a Pawn or
    a Court: issue 48)."""
    other = 1 - writer
    pool = possible_hand(state, writer)
    hands, piles, removed = list(state.hands), list(state.piles), list(state.removed)
    hands[other] = pool
    piles[other] = pool[:len(state.piles[other])]
    removed[other] = pool[:len(state.removed[other])]
    return replace(state, hands=tuple(hands), piles=tuple(piles), removed=tuple(removed),
                   deck=stand_in_deck(state, writer))


def stand_in_deck(state: State, writer: int) -> tuple[str, ...]:
    """A deck of the public size made of cards it might hold as the writer sees it, in a fixed
    order: no Ace (all six are dealt, S2) and, first, the cards that are neither Pawn nor
    Court, so that a blind take tried in a plan's condition takes a card that goes to the
    pile where the deck may hold one. The loser's answer is then checked at once, as it would
    be after most blind takes; after a Pawn or Court the winner's right comes first (S7) and
    the answer is checked when played."""
    hidden = [c for c in possible_hand(state, writer)
              if c not in state.public and decktet.rank(c) != "1"]
    plain = [c for c in hidden if decktet.rank(c) not in "PT"]
    courts = [c for c in hidden if decktet.rank(c) in "PT"]
    return tuple(plain + courts)[:len(state.deck)]


def never_possible(state: State, writer: int, move: Move) -> dict | None:
    """Why the opponent can never make `move`, as far as the writer can know (None: it may)."""
    pool = set(possible_hand(state, writer))
    kind = move.get("type")
    cards = list(move.get("cards") or []) + ([move["card"]] if "card" in move else [])
    if kind == "take":
        pool |= set(state.display)
    for card in cards:
        if card not in pool:
            if card in state.hands[writer]:
                return phrase(N_("{card} is in your own hand"), card=decktet.name(card))
            return phrase(N_("{card} has already been played or is out of reach"),
                          card=decktet.name(card))
    return None


def plan_hints(state: State, seat: int) -> list[tuple[Move, list[Move]]]:
    """Likely plans for `seat`, from its own knowledge only: when the other seat leads the
    next trick, each of its hand cards known to all (a starting set, a face-up claim), with
    the follows `seat`'s hand allows now (S3). Nothing when the next leader is not known."""
    other = 1 - seat
    if state.phase == LEAD:
        leader = state.leader
    elif state.phase in (RIGHT, LOSER, DISCARD) or state.winner is not None:
        leader = state.next_leader
    else:
        leader = None
    if leader != other:
        return []
    known = [c for c in ordered(list(known_theirs(state, other)))
             if c not in (state.last or {}).values()]
    hints = []
    for card in known:
        follows = [{"type": "play", "card": c} for c in playable(state.hands[seat], card)]
        hints.append(({"type": "lead", "card": card}, follows))
    return hints
