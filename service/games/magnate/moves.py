"""Every legal move, and the short menu of card plays for one-click links.

Move shapes (JSON-safe dicts; payments are {suit letter: count}, districts 1-based):
  {"type": "buy", "card": "8VL", "district": 3, "pay": {"V": 2, "L": 6}}
  {"type": "deed", "card": "7SK", "district": 5}            (+ "add": {"K": 2}: M7, tokens
                                                             put on it the turn it is bought)
  {"type": "add", "card": "7SK", "pay": {"K": 2}}
  {"type": "sell", "card": "4VL"}
  {"type": "trade", "give": "M", "get": "K"}
  {"type": "prefer", "card": "4VL", "suit": "V"}             (M19, any time)
  {"type": "replace_aces", "mode": "always"|"never"|"ask"}   (M16, any time)
  {"type": "replace"|"keep", "card": "1M"}                   (M16 answer when asked)
"""
from __future__ import annotations

from . import rules as R
from .flow import MODES
from .state import SUITS, ZERO, State, add, unvec


def plays(st: State, seat: int, menu: bool = False) -> list[dict]:
    p = st.players[seat]
    modern = st.modern
    buys, deeds, sells = [], [], []
    for card in p.hand:
        where = R.places(st, seat, card)
        for d in where:
            if menu:
                pay = R.default_outright(p.tokens, card, modern)
                pays = [pay] if pay else []
            else:
                pays = R.outright_payments(p.tokens, card, modern)
            for pay in pays:
                buys.append({"type": "buy", "card": card, "district": d + 1,
                             "pay": unvec(pay)})
        if R.deed_allowed(card, modern) and R.can_afford(p.tokens, R.deed_cost(card)):
            deeds.extend({"type": "deed", "card": card, "district": d + 1} for d in where)
            if not menu:   # M7: tokens may go on the deed the turn it is bought
                left = add(p.tokens, R.deed_cost(card), -1)
                extras = R.add_payments(left, ZERO, card, modern)
                deeds.extend({"type": "deed", "card": card, "district": d + 1,
                              "add": unvec(x)} for d in where for x in extras)
        sells.append({"type": "sell", "card": card})
    return buys + deeds + sells


def legal_moves(st: State, seat: int) -> list[dict]:
    if st.phase == "over" or not 0 <= seat < st.n:
        return []
    p = st.players[seat]
    out: list[dict] = []
    if seat == st.turn:
        if st.phase == "ask":
            out += [{"type": "replace", "card": st.asked}, {"type": "keep", "card": st.asked}]
        elif st.phase == "play":
            out += plays(st, seat)
            for _d, deed in R.deeds(p):
                out.extend({"type": "add", "card": deed.card, "pay": unvec(pay)}
                           for pay in R.add_payments(p.tokens, deed.on, deed.card, st.modern))
            out.extend({"type": "trade", "give": g, "get": s}
                       for i, g in enumerate(SUITS) if p.tokens[i] >= 3
                       for s in SUITS if s != g)
    out += standing(st, seat)
    return out


def standing(st: State, seat: int) -> list[dict]:
    """Standing choices a player may change at any time: only real changes are offered."""
    p = st.players[seat]
    out = []
    for _d, deed in R.deeds(p):
        out.extend({"type": "prefer", "card": deed.card, "suit": s}
                   for s in R.pref_choices(deed.card) if s != p.pref(deed.card))
    if st.options["replace_ace"]:
        out.extend({"type": "replace_aces", "mode": m} for m in MODES if m != p.aces)
    return out


def menu(st: State, seat: int) -> list[dict]:
    """The turn's card plays, one per option, each with its default payment; or the answer."""
    if st.phase == "over" or seat != st.turn:
        return []
    if st.phase == "ask":
        return [{"type": "replace", "card": st.asked}, {"type": "keep", "card": st.asked}]
    return plays(st, seat, menu=True) if st.phase == "play" else []
