"""District totals and the final result (seed 000 "Victory", M3, M13, M14)."""
from __future__ import annotations

from ..text import N_
from .costs import is_ace, is_big
from .state import State, info


def card_value(card: str, column, modern: bool) -> int:
    """What one developed card adds to its column's total."""
    if is_big(card):
        return 10
    if is_ace(card):
        if not modern:
            return 1
        # M3: one per fully developed card in this column bearing the Ace's suit, itself too
        suit = info(card)[1]
        return sum(1 for x in column if x.developed and suit in info(x.card)[1])
    return int(info(card)[0])


def column_total(column, modern: bool) -> int:
    return sum(card_value(x.card, column, modern) for x in column if x.developed)


def totals(st: State) -> list[list[int | None]]:
    """[district][seat] -> total of developed ranks, None where the seat does not contest."""
    return [[column_total(st.players[s].columns[d], st.modern) if s in st.contest[d] else None
             for s in range(st.n)] for d in range(len(st.districts))]


def leader(row: list[int | None]) -> int | None:
    """M13: a district's winner has a strictly higher total than every other contestant."""
    vals = [(t, s) for s, t in enumerate(row) if t is not None]
    best = max(t for t, _ in vals)
    top = [s for t, s in vals if t == best]
    return top[0] if len(top) == 1 else None


def standings(st: State) -> dict:
    tot = totals(st)
    points = [0] * st.n
    leaders = []
    for row in tot:
        w = leader(row)
        leaders.append(w)
        if w is not None:
            points[w] += 1
    developed = [sum(row[s] or 0 for row in tot) for s in range(st.n)]
    tokens = [sum(p.tokens) for p in st.players]
    return {"totals": tot, "leaders": leaders, "points": points, "developed": developed,
            "tokens": tokens}


def _how(keys: list[tuple], winners: list[int], n: int, rules: int) -> str:
    """M13: which tie-break decided, in words."""
    best = keys[winners[0]]
    contenders = [k for k in keys if k[0] == best[0]]
    if len(contenders) == 1:
        return N_("most districts")
    if len([k for k in contenders if k[1] == best[1]]) == 1:
        return N_("tie on districts, broken by developed value")
    if len(winners) == 1:
        return N_("tie on districts and developed value, broken by tokens")
    if len(winners) == n or rules < 2:   # rules 1 called any shared first place a draw
        return "draw"
    return N_("shared win: tied on districts, developed value and tokens")


def final(st: State) -> dict:
    """M13: most points; tie: higher developed value; tie: more tokens; still tied: a shared
    win of those tied, a draw only when every player is tied (rules 2).
    Called on the state after hands and incomplete deeds are gone (M7, M12)."""
    sd = standings(st)
    keys = [(sd["points"][s], sd["developed"][s], sd["tokens"][s]) for s in range(st.n)]
    best = max(keys)
    winners = [s for s in range(st.n) if keys[s] == best]
    return {"scores": sd["points"], "winners": winners,
            "how": _how(keys, winners, st.n, st.rules),
            "detail": {"developed": sd["developed"], "tokens": sd["tokens"],
                       "leaders": sd["leaders"], "totals": sd["totals"]}}
