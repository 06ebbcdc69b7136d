"""What a seat may know when it writes a plan (service.play.moves.standingplans): the position with
every other seat holding any card it might hold, its hidden standing choices (income
preferences, M19; the Ace setting, M16) at their plainest, so that accepting or refusing a plan
line never tells the writer where a hidden card is or what another chose (plans are private).

A seat gains cards only by drawing at the end of its own turn, so on its next turn it plays
from the hand it holds now: a card the writer can see anywhere (its own hand, a column, the
discards) can never be one it buys, deeds or sells."""
from __future__ import annotations

from dataclasses import replace

from ..contract import Move
from ..text import N_, phrase
from .commands import card_text
from .state import State

#: events of choices a seat may make at any time, out of its turn and unseen by the others
#: (M16, M19): no plan answers them, and none lapses by them
OUT_OF_TURN = frozenset({"PreferenceSet", "AceSettingSet"})


def possible_hand(st: State, writer: int) -> list[str]:
    """Every card another seat might hold, as the writer sees it: the draw pile and the other
    hands, one pool."""
    pool = set(st.draw)
    for seat, player in enumerate(st.players):
        if seat != writer:
            pool |= set(player.hand)
    return sorted(pool)


def plan_world(st: State, writer: int) -> State:
    """The position as a function of the writer's knowledge alone: each other seat holds the
    whole pool with no hidden choice made, and the draw pile (its size public) is the pool in a
    fixed order."""
    pool = tuple(possible_hand(st, writer))
    # the cards seen elsewhere come after the pool (a copy in the pool is read first): a
    # condition naming one reads, and never_possible says why it cannot happen
    seen = tuple(sorted(set(st.players[writer].hand) | set(st.discard) | _placed(st)))
    players = tuple(p if seat == writer else
                    replace(p, hand=pool + seen, prefs=(), aces="never")
                    for seat, p in enumerate(st.players))
    return replace(st, players=players, draw=pool[:len(st.draw)])


def _placed(st: State) -> set[str]:
    return {prop.card for p in st.players for col in p.columns for prop in col}


def never_possible(st: State, writer: int, move: Move) -> dict | None:
    """Why another seat can never make `move` on its next turn, as far as the writer can know
    (None: it may)."""
    card = move.get("card")
    if move.get("type") not in ("buy", "deed", "sell") or card is None:
        return None
    if card in st.players[writer].hand:
        return phrase(N_("{card} is in your own hand"), card=card_text(card))
    if card in st.discard or card in _placed(st):
        return phrase(N_("{card} has already been played"), card=card_text(card))
    return None
