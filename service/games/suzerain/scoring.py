"""Suzerain's final scoring (docs/rules/rulings.md S10-S13), broken down by rule for the reveal.

Every one of the 44 cards is owned at the end (the 12 starting cards and the 32 claimed ones),
so a majority is simply "more than the other seat" (S10). Pawns and Courts are owned too:
they score through Aces (S11) and through 2s, 3s and 4s (S12), never by themselves.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import decktet
from ..text import N_
from .state import sort_key

MAJORITY_RANKS = ("5", "6", "7", "8", "9", "N")
RANK_WORD = {"5": "5s", "6": "6s", "7": "7s", "8": "8s", "9": "9s", "N": "Crowns"}
# how many cards of each majority rank the deck holds (3, but 6 Crowns)
RANK_SIZE = {r: sum(1 for c in decktet.ALL if decktet.rank(c) == r) for r in MAJORITY_RANKS}


def shared(a: str, b: str) -> int:
    """How many suits two cards share."""
    return len(set(decktet.suits(a)) & set(decktet.suits(b)))


def majority_points(mine: int, theirs: int, size: int) -> int:
    """S10: all cards of the rank 3, more than the opponent 1, else 0."""
    if mine == size:
        return 3
    return 1 if mine > theirs else 0


def breakdown(owned: Sequence[Iterable[str]]) -> list[dict]:
    """Per seat: points by rule and the total. `owned[s]` = every card seat s owns."""
    owned = [list(cards) for cards in owned]
    counts = [{r: sum(1 for c in cards if decktet.rank(c) == r) for r in MAJORITY_RANKS}
              for cards in owned]
    out = []
    for seat, cards in enumerate(owned):
        other = counts[1 - seat]
        majorities = {}
        for r in MAJORITY_RANKS:
            majorities[r] = {"cards": counts[seat][r], "of": RANK_SIZE[r],
                             "points": majority_points(counts[seat][r], other[r], RANK_SIZE[r])}
        pawns = [c for c in cards if decktet.rank(c) == "P"]
        courts = [c for c in cards if decktet.rank(c) == "T"]
        aces = []
        for ace in sorted(c for c in cards if decktet.rank(c) == "1"):
            with_ = [p for p in pawns if shared(ace, p)]
            aces.append({"card": ace, "pawns": with_, "points": len(with_)})
        low = []
        for card in sorted((c for c in cards if decktet.rank(c) in "234"), key=sort_key):
            per = {t: shared(card, t) for t in courts if shared(card, t)}
            low.append({"card": card, "courts": per, "points": sum(per.values())})
        s10 = sum(m["points"] for m in majorities.values())
        s11 = sum(a["points"] for a in aces)
        s12 = sum(x["points"] for x in low)
        out.append({"majorities": majorities, "aces": aces, "low": low,
                    "S10": s10, "S11": s11, "S12": s12, "total": s10 + s11 + s12,
                    "fives": counts[seat]["5"]})
    return out


def winners(parts: Sequence[dict]) -> tuple[tuple[int, ...], str]:
    """Highest total; tie: more 5s (S13); still tied: a draw (cannot happen with three 5s all
    owned, but the rule is kept whole)."""
    best = max(p["total"] for p in parts)
    top = [s for s, p in enumerate(parts) if p["total"] == best]
    if len(top) == 1:
        return tuple(top), "score"
    most = max(parts[s]["fives"] for s in top)
    top5 = [s for s in top if parts[s]["fives"] == most]
    if len(top5) == 1:
        return tuple(top5), N_("tie broken by more 5s")
    return tuple(top5), N_("draw")
