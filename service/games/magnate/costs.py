"""Costs, placement and payments: the static rules every other module asks.

Seed 000 "Play a card", M2-M8, M14, M15; and whether an open turn has anything left (M9).
"""
from __future__ import annotations

from itertools import product

from ..contract import IllegalMove
from ..text import N_
from .state import SI, SUITS, Player, State, info


def is_ace(card: str) -> bool:
    return info(card)[0] == "1"


def is_big(card: str) -> bool:
    """Courts (M14) and Pawn properties (M15): cost and count 10, never pay income."""
    return info(card)[0] in "TP"


def cost(card: str, modern: bool) -> int:
    """Tokens to develop outright, or to complete a deed (M2 cost is the card's real rank; M3)."""
    r = info(card)[0]
    if r == "1":
        return 3 if modern else 1
    if r in "TP":
        return 10
    return int(r)


def deed_allowed(card: str, modern: bool) -> bool:
    """M4: no deed on a 2; no deed on an Ace in classic."""
    r = info(card)[0]
    return r != "2" and (modern or r != "1")


def deed_cost(card: str) -> tuple[int, ...]:
    """M4: one token per suit on the card (a Court 3), paid to the bank."""
    s = info(card)[1]
    return tuple(1 if x in s else 0 for x in SUITS)


def sell_gain(card: str) -> tuple[int, ...]:
    """Seed 000 "Sell a card": one token per suit; an Ace two of its suit (M14 Court three)."""
    s = info(card)[1]
    n = 2 if is_ace(card) else 1
    return tuple(n if x in s else 0 for x in SUITS)


def district_open(st: State, d: int) -> bool:
    """First card anywhere in the Excuse district; with Pawn properties in every district (M15)."""
    return st.districts[d] in ("", "0", "0.1")


def can_place(st: State, seat: int, card: str, d: int) -> IllegalMove | None:
    """None if `card` (a property or a deed) may go in district d for seat, else why not (M8)."""
    if seat not in st.contest[d]:
        return IllegalMove(N_("district {district} is not yours to build in"), district=d + 1)
    col = st.players[seat].columns[d]
    if col and not col[-1].developed:
        return IllegalMove(N_("you hold an incomplete deed in district {district}: complete "
                              "it before placing anything else there"), district=d + 1)
    suits = set(info(card)[1])
    if col:
        if suits & set(info(col[-1].card)[1]):
            return None
        return IllegalMove(N_("it shares no suit with the last card of your column in "
                              "district {district}"), district=d + 1)
    if district_open(st, d) or suits & set(info(st.districts[d])[1]):
        return None
    return IllegalMove(N_("it shares no suit with the Pawn of district {district}"),
                       district=d + 1)


def places(st: State, seat: int, card: str) -> list[int]:
    return [d for d in range(len(st.districts)) if can_place(st, seat, card, d) is None]


def outright_payments(tokens, card: str, modern: bool) -> list[tuple[int, ...]]:
    """Every payment for developing `card` outright: its suits only, each at least once,
    totalling its cost (seed 000; M3 Aces; M14 Courts)."""
    suits = [SI[s] for s in info(card)[1]]
    c = cost(card, modern)
    return _spread(tokens, suits, c, (1,) * len(suits), (0,) * 6)


def _spread(tokens, suits, total, mins, base) -> list[tuple[int, ...]]:
    """Vectors over `suits` with each >= its minimum, <= held, summing to `total`."""
    out = []
    ranges = [range(m, min(tokens[s], total) + 1) for s, m in zip(suits, mins, strict=True)]
    if any(len(r) == 0 for r in ranges):
        return out
    for combo in product(*ranges):
        if sum(combo) != total:
            continue
        v = list(base)
        for s, k in zip(suits, combo, strict=True):
            v[s] = k
        out.append(tuple(v))
    return out


def add_ok(on, pay, card: str, modern: bool) -> IllegalMove | None:
    """M5: may `pay` be put on a deed already holding `on`? None if so, else why not."""
    suits = info(card)[1]
    if any(n for s, n in zip(SUITS, pay, strict=True) if s not in suits):
        return IllegalMove(N_("tokens on a deed must match one of its suits"))
    if sum(pay) <= 0:
        return IllegalMove(N_("add at least one token"))
    total = sum(on) + sum(pay)
    c = cost(card, modern)
    if total > c:
        return IllegalMove(N_("that would put {total} tokens on a card that needs {cost}"),
                           total=total, cost=c)
    if modern:
        after = [on[SI[s]] + pay[SI[s]] for s in suits]
        missing = sum(1 for k in after if k == 0)
        if c - total < missing:
            return IllegalMove(N_("the modern rules need each of its suits among the tokens "
                                  "at least once"))
    return None


def add_payments(tokens, on, card: str, modern: bool) -> list[tuple[int, ...]]:
    """Every legal addition to a deed (M5, M7)."""
    suits = [SI[s] for s in info(card)[1]]
    room = cost(card, modern) - sum(on)
    out = []
    ranges = [range(0, min(tokens[s], room) + 1) for s in suits]
    for combo in product(*ranges):
        if not 0 < sum(combo) <= room:
            continue
        v = [0] * 6
        for s, k in zip(suits, combo, strict=True):
            v[s] = k
        if add_ok(on, v, card, modern) is None:
            out.append(tuple(v))
    return out


def default_payment(tokens, suits: str, total: int, mins=None) -> tuple[int, ...] | None:
    """The documented default when a command names no payment: first the minimum of each suit
    (one each when buying outright), then one token at a time of the suit you have most of
    left, ties in suit order ("spend the suits you hold most of"). None if unaffordable."""
    idx = [SI[s] for s in suits]
    mins = mins if mins is not None else [1] * len(idx)
    pay = [0] * 6
    for s, m in zip(idx, mins, strict=True):
        pay[s] = m
    rest = total - sum(pay)
    if rest < 0 or any(pay[s] > tokens[s] for s in idx):
        return None
    for _ in range(rest):
        best = max(idx, key=lambda s: (tokens[s] - pay[s], -s))
        if tokens[best] - pay[best] <= 0:
            return None
        pay[best] += 1
    return tuple(pay)


def default_outright(tokens, card: str, modern: bool):
    return default_payment(tokens, info(card)[1], cost(card, modern))


def default_completion(tokens, on, card: str, modern: bool):
    """The default for "add to the Castle": complete it, spending what you hold most of."""
    suits = info(card)[1]
    need = cost(card, modern) - sum(on)
    mins = [1 if modern and on[SI[s]] == 0 else 0 for s in suits]
    return default_payment(tokens, suits, need, mins)


def can_afford(tokens, pay) -> bool:
    return all(t >= p for t, p in zip(tokens, pay, strict=True))


def deeds(p: Player) -> list[tuple[int, object]]:
    """(district index, deed) for each of a player's incomplete deeds."""
    return [(d, col[-1]) for d, col in enumerate(p.columns) if col and not col[-1].developed]


def pref_choices(card: str) -> str:
    """Suits a deed's income preference can usefully name (M19): only cards that pay income
    with more than one suit."""
    r, s = info(card)
    return s if r in "23456789" and len(s) > 1 else ""


def income_suit(p: Player, card: str) -> str:
    """M19: the owner's standing preference, else the card's suit they hold fewest of, ties in
    suit order."""
    chosen = p.pref(card)
    if chosen:
        return chosen
    suits = info(card)[1]
    return min(suits, key=lambda s: (p.tokens[SI[s]], SI[s]))


def more_possible(st: State, seat: int) -> bool:
    """M9 amended: may `seat` still trade (3 of a suit, M10) or add to one of its deeds (M5,
    M7)? When neither, an open turn ends by itself: nothing is left to wait for."""
    p = st.players[seat]
    if any(n >= 3 for n in p.tokens):
        return True
    return any(add_payments(p.tokens, deed.on, deed.card, st.modern) for _d, deed in deeds(p))
