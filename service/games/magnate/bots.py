"""Bots: uniform random legal play, and a greedy player that builds where it counts."""
from __future__ import annotations

from . import rules as R
from .moves import legal_moves
from .scoring import column_total
from .state import SI, SUITS, Prop, State, info, unvec


def random_bot(st: State, seat: int, rng) -> dict:
    return rng.choice(legal_moves(st, seat))


def _standing(mine: int, best_other: int) -> float:
    return 1.0 if mine > best_other else 0.4 if mine == best_other else 0.0


def _buy_score(st: State, seat: int, card: str, d: int) -> float:
    col = st.players[seat].columns[d]
    mine = column_total(col, st.modern)
    new = column_total(col + (Prop(card),), st.modern)
    others = [column_total(st.players[s].columns[d], st.modern)
              for s in st.contest[d] if s != seat]
    top = max(others) if others else 0
    gain = _standing(new, top) - _standing(mine, top)
    # building where the lead is still open counts; so does raw value (first tie-break)
    return gain * 10 + (new - mine) * 0.3 - (1.5 if mine > top + 8 else 0)


def greedy_bot(st: State, seat: int, rng) -> dict:
    if st.phase == "ask" and st.turn == seat:
        return {"type": "replace", "card": st.asked}
    if st.phase != "play" or st.turn != seat:
        return legal_moves(st, seat)[0]
    p = st.players[seat]
    modern = st.modern
    for _d, deed in R.deeds(p):                       # finish what is started
        pay = R.default_completion(p.tokens, deed.on, deed.card, modern)
        if pay is not None:
            return {"type": "add", "card": deed.card, "pay": unvec(pay)}
    best, best_score = None, -1e9
    for card in p.hand:
        pay = R.default_outright(p.tokens, card, modern)
        if pay is None:
            continue
        for d in R.places(st, seat, card):
            score = _buy_score(st, seat, card, d) + rng.random() * 0.01
            if score > best_score:
                best, best_score = {"type": "buy", "card": card, "district": d + 1,
                                    "pay": unvec(pay)}, score
    if best is not None:
        return best
    trade = _enabling_trade(st, seat)
    if trade:
        return trade
    for _d, deed in R.deeds(p):                       # park tokens safe from tax (M7)
        pays = R.add_payments(p.tokens, deed.on, deed.card, modern)
        if pays:
            return {"type": "add", "card": deed.card, "pay": unvec(max(pays, key=sum))}
    deeds = [(int(info(c)[0]) if info(c)[0].isdigit() else 10, c) for c in p.hand
             if R.deed_allowed(c, modern) and R.can_afford(p.tokens, R.deed_cost(c))
             and info(c)[0] not in "1"]
    for _rank, card in sorted(deeds, reverse=True):
        if _rank < 5 or st.final_left is not None:   # too late to finish a deed (M7, M12)
            break
        where = R.places(st, seat, card)
        if where:
            d = max(where, key=lambda x: _buy_score(st, seat, card, x))
            return {"type": "deed", "card": card, "district": d + 1}
    return {"type": "sell", "card": min(p.hand, key=lambda c: _keep_value(st, seat, c))}


def _keep_value(st: State, seat: int, card: str) -> float:
    where = R.places(st, seat, card)
    if not where:
        return -1
    return max(_buy_score(st, seat, card, d) for d in where) - R.cost(card, st.modern) * 0.2


def _enabling_trade(st: State, seat: int) -> dict | None:
    """One 3-for-1 trade (M10) that makes a hand card affordable right now."""
    p = st.players[seat]
    for card in sorted(p.hand, key=lambda c: -R.cost(c, st.modern)):
        if not R.places(st, seat, card):
            continue
        suits = info(card)[1]
        for give in SUITS:
            if give in suits or p.tokens[SI[give]] < 3:
                continue
            for get in suits:
                tok = list(p.tokens)
                tok[SI[give]] -= 3
                tok[SI[get]] += 1
                if R.default_outright(tuple(tok), card, st.modern) is not None:
                    return {"type": "trade", "give": give, "get": get}
    return None

