"""Suzerain's moves: what is legal, and the events each legal move makes."""
from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations

from ..cards import decktet as dk
from ..contract import Chance, Event, IllegalMove, Move, Outcome
from . import scoring
from .state import (
    CARDS,
    CLAIM,
    DISCARD,
    FOLLOW,
    LEAD,
    LOSER,
    OVER,
    State,
    _put,
    _without,
    evolve,
    listing,
    ordered,
    suit_words,
    to_act,
    value,
)


def legal_moves(state: State, seat: int) -> list[Move]:
    if seat not in to_act(state):
        return []
    hand = state.hands[seat]
    if state.phase == LEAD:
        moves = [{"type": "lead", "card": c} for c in hand]
    elif state.phase == FOLLOW:
        moves = [{"type": "play", "card": c} for c in _playable(hand, state.table[0])]
    elif state.phase in (CLAIM, LOSER):
        moves = [{"type": "take", "card": c} for c in ordered(state.display)]
        if state.phase == CLAIM and state.deck:
            moves.append({"type": "take_blind"})
    else:
        moves = [{"type": "discard", "cards": []}]
        moves += [{"type": "discard", "cards": [c]} for c in hand]
        moves += [{"type": "discard", "cards": [a, b]} for a, b in combinations(hand, 2)]
    return moves + rights(state, seat)


def rights(state: State, seat: int) -> list[Move]:
    """S7: the removals open to `seat` now (never its last card while it must still play)."""
    hand = state.hands[seat]
    if state.phase in (LEAD, FOLLOW) and len(hand) < 2:
        return []
    return [{"type": "remove", "card": c, "with": k}
            for k in state.kept[seat] if k not in state.used[seat]
            for c in hand if dk.shares_suit(c, k)]


def decide(state: State, seat: int, move: Move, chance: Chance) -> list[Event]:
    kind = move.get("type") if isinstance(move, Mapping) else None
    if kind not in ("lead", "play", "take", "take_blind", "discard", "remove"):
        raise IllegalMove("that is not a Suzerain move (lead, play, take, discard, remove)")
    if state.phase == OVER:
        raise IllegalMove("the game is over")
    if seat not in to_act(state):
        raise IllegalMove(f"it is not your turn: your opponent must {_task(state)}")
    if kind == "remove":
        return _remove(state, seat, move)
    expected = {LEAD: "lead", FOLLOW: "play", CLAIM: "take", LOSER: "take",
                DISCARD: "discard"}[state.phase]
    if kind.split("_")[0] != expected:
        raise IllegalMove(f"you must {_task(state)} now")
    hand = state.hands[seat]
    if kind == "lead":
        card = _card_of(move)
        if card not in hand:
            raise IllegalMove(f"you do not hold {_called(card)}")
        return [Event("Led", {"seat": seat, "card": card, "trick": state.trick})]
    if kind == "play":
        return _follow(state, seat, _card_of(move))
    if kind in ("take", "take_blind"):
        return _claim(state, seat, move)
    return _discard(state, seat, move)


def _follow(state: State, seat: int, card: str) -> list[Event]:
    hand, led = state.hands[seat], state.table[0]
    if card not in hand:
        raise IllegalMove(f"you do not hold {_called(card)}")
    followers = _playable(hand, led)
    followed = dk.shares_suit(card, led)
    if not followed and len(followers) < len(hand):
        raise IllegalMove(f"you must follow {suit_words(led)}: you hold {listing(followers)}")
    leader = state.leader
    winner = seat if followed and value(card) > value(led) else leader
    nxt = seat if value(card) > value(led) else leader
    return [Event("Followed", {"seat": seat, "card": card, "followed": followed}),
            Event("TrickWon", {"trick": state.trick, "winner": winner, "loser": 1 - winner,
                               "next_leader": nxt, "followed": followed,
                               "cards": [led, card]})]


def _claim(state: State, seat: int, move: Move) -> list[Event]:
    if move["type"] == "take_blind":
        if state.phase == LOSER:
            raise IllegalMove("the loser of the trick must take a face-up card: "
                              f"{listing(ordered(state.display))}")
        if not state.deck:
            raise IllegalMove("the deck is empty: take a face-up card")
        card, blind = state.deck[0], True
    else:
        card, blind = _card_of(move), False
        if card not in state.display:
            raise IllegalMove(f"{_called(card)} is not face up; face up: "
                              f"{listing(ordered(state.display))}")
    kept = dk.rank(card) in "PT"
    events = [Event("Claimed", {"seat": seat, "card": card, "blind": blind, "kept": kept,
                                "trick": state.trick})]
    if state.phase == CLAIM:
        return events
    # the loser's claim: refill (S5), then the end (S9) or the discard (S6) and cleanup
    display = _without(state.display, card)
    fill = list(state.deck[:2 - len(display)])
    if fill:
        events.append(Event("DisplayRefilled", {"cards": fill}))
    if not display and not fill:
        return events + [_ended(state, events)]
    if not state.hands[seat]:
        events.append(Event("Discarded", {"seat": seat, "cards": [], "auto": True}))
        events += _cleanup(state.hands)
    return events


def _discard(state: State, seat: int, move: Move) -> list[Event]:
    cards = move.get("cards")
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise IllegalMove("say which cards to discard, or 'discard none'")
    if len(cards) > 2:
        raise IllegalMove(f"you may discard at most 2 cards, not {len(cards)}")
    if len(set(cards)) != len(cards):
        raise IllegalMove("name each card to discard once")
    missing = [c for c in cards if c not in state.hands[seat]]
    if missing:
        raise IllegalMove(f"you do not hold {_called(missing[0])}")
    hands = _put(state.hands, seat, tuple(c for c in state.hands[seat] if c not in cards))
    return [Event("Discarded", {"seat": seat, "cards": list(ordered(cards))}),
            *_cleanup(hands)]


def _remove(state: State, seat: int, move: Move) -> list[Event]:
    card, by = _card_of(move), move.get("with")
    if not isinstance(by, str) or by not in state.kept[seat]:
        mine = [k for k in state.kept[seat] if k not in state.used[seat]]
        raise IllegalMove(f"you have no Pawn or Court {_called(by)}; your unused rights: "
                          f"{listing(mine)}" if mine else
                          "you have no Pawn or Court with an unused right")
    if by in state.used[seat]:
        raise IllegalMove(f"you have already used {dk.name(by)}")
    if card not in state.hands[seat]:
        raise IllegalMove(f"you do not hold {_called(card)}")
    if not dk.shares_suit(card, by):
        raise IllegalMove(f"{dk.name(card)} shares no suit with {dk.name(by)} "
                          f"({suit_words(by)})")
    if state.phase in (LEAD, FOLLOW) and len(state.hands[seat]) < 2:
        raise IllegalMove(f"{dk.name(card)} is your last card and you must still play it")
    return [Event("Removed", {"seat": seat, "card": card, "with": by})]


def _ended(state: State, events: list[Event]) -> Event:
    after = state
    for e in events:
        after = evolve(after, e)
    parts = scoring.breakdown([after.owned(s) for s in (0, 1)])
    won, how = scoring.winners(parts)
    return Event("Ended", {"scores": [p["total"] for p in parts], "winners": list(won),
                           "how": how,
                           "owned": [list(ordered(after.owned(s))) for s in (0, 1)]})


def outcome(state: State) -> Outcome | None:
    if state.phase != OVER:
        return None
    parts = scoring.breakdown([state.owned(s) for s in (0, 1)])
    won, how = scoring.winners(parts)
    return Outcome(scores=tuple(p["total"] for p in parts), winners=won, how=how,
                   detail={"seats": parts})


def _playable(hand, led: str) -> list[str]:
    """S3: the cards sharing a suit with the led card, or the whole hand if none does."""
    follow = [c for c in hand if dk.shares_suit(c, led)]
    return follow or list(hand)


def _cleanup(hands) -> list[Event]:
    """S8: every seat with an empty hand takes up its pile."""
    return [Event("PileTakenUp", {"seat": s}) for s in (0, 1) if not hands[s]]


def _task(state: State) -> str:
    return {LEAD: "lead a card", FOLLOW: f"play a card to {dk.name(state.table[0])}"
            if state.table else "play a card",
            CLAIM: "take a face-up card or take blind", LOSER: "take a face-up card",
            DISCARD: "discard 0, 1 or 2 cards ('discard none' for none)"}.get(state.phase, "wait")


def _card_of(move: Move) -> str:
    card = move.get("card")
    if not isinstance(card, str) or card not in CARDS:
        raise IllegalMove(f"there is no card {card!r} in Suzerain")
    return card


def _called(card) -> str:
    return dk.name(card) if isinstance(card, str) and card in CARDS else repr(card)
