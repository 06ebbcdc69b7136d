"""Bots: "easy" plays a uniformly random legal move; "normal" is a greedy player that builds
where it counts, then ends its turn (M9 amended). "random" and "greedy" are the older names."""
from __future__ import annotations

from . import costs
from .rules import legal_moves
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


def _complete_a_deed(st: State, seat: int) -> dict | None:
    """Finish what is started: a deed completed with the default payment (M7)."""
    p = st.players[seat]
    for _d, deed in costs.deeds(p):
        pay = costs.default_completion(p.tokens, deed.on, deed.card, st.modern)
        if pay is not None:
            return {"type": "add", "card": deed.card, "pay": unvec(pay)}
    return None


def _best_buy(st: State, seat: int, rng) -> dict | None:
    p = st.players[seat]
    best, best_score = None, -1e9
    for card in p.hand:
        pay = costs.default_outright(p.tokens, card, st.modern)
        if pay is None:
            continue
        for d in costs.places(st, seat, card):
            score = _buy_score(st, seat, card, d) + rng.random() * 0.01
            if score > best_score:
                best, best_score = {"type": "buy", "card": card, "district": d + 1,
                                    "pay": unvec(pay)}, score
    return best


def _park(st: State, seat: int) -> dict | None:
    """Park tokens on a deed, safe from tax (M7)."""
    p = st.players[seat]
    for _d, deed in costs.deeds(p):
        pays = costs.add_payments(p.tokens, deed.on, deed.card, st.modern)
        if pays:
            return {"type": "add", "card": deed.card, "pay": unvec(max(pays, key=sum))}
    return None


def _good_deed(st: State, seat: int) -> dict | None:
    """A deed worth buying: rank 5+ while there is time to finish it (M7, M12)."""
    p = st.players[seat]
    modern = st.modern
    deeds = [(int(info(c)[0]) if info(c)[0].isdigit() else 10, c) for c in p.hand
             if costs.deed_allowed(c, modern) and costs.can_afford(p.tokens, costs.deed_cost(c))
             and info(c)[0] not in "1"]
    for _rank, card in sorted(deeds, reverse=True):
        if _rank < 5 or st.final_left is not None:   # too late to finish a deed (M7, M12)
            break
        where = costs.places(st, seat, card)
        if where:
            d = max(where, key=lambda x: _buy_score(st, seat, card, x))
            return {"type": "deed", "card": card, "district": d + 1}
    return None


def _card_play(st: State, seat: int, rng) -> dict:
    p = st.players[seat]
    return (_complete_a_deed(st, seat) or _best_buy(st, seat, rng)
            or _enabling_trade(st, seat) or _park(st, seat) or _good_deed(st, seat)
            or {"type": "sell", "card": min(p.hand, key=lambda c: _keep_value(st, seat, c))})


def _open_turn(st: State, seat: int) -> dict:
    """After the card play (M9 amended): finish or feed deeds, then end the turn."""
    return _complete_a_deed(st, seat) or _park(st, seat) or {"type": "end"}


def greedy_bot(st: State, seat: int, rng) -> dict:
    if st.phase == "ask" and st.turn == seat:
        return {"type": "replace", "card": st.asked}
    if st.turn == seat and st.phase == "open":
        return _open_turn(st, seat)
    if st.phase != "play" or st.turn != seat:
        return legal_moves(st, seat)[0]
    return _card_play(st, seat, rng)


def _keep_value(st: State, seat: int, card: str) -> float:
    where = costs.places(st, seat, card)
    if not where:
        return -1
    return max(_buy_score(st, seat, card, d) for d in where) - costs.cost(card, st.modern) * 0.2


def _enabling_trade(st: State, seat: int) -> dict | None:
    """One 3-for-1 trade (M10) that makes a hand card affordable right now."""
    p = st.players[seat]
    for card in sorted(p.hand, key=lambda c: -costs.cost(c, st.modern)):
        if not costs.places(st, seat, card):
            continue
        suits = info(card)[1]
        for give in SUITS:
            if give in suits or p.tokens[SI[give]] < 3:
                continue
            for get in suits:
                tok = list(p.tokens)
                tok[SI[give]] -= 3
                tok[SI[get]] += 1
                if costs.default_outright(tuple(tok), card, st.modern) is not None:
                    return {"type": "trade", "give": give, "get": get}
    return None



BOTS = {"easy": random_bot, "normal": greedy_bot,
        "random": random_bot, "greedy": greedy_bot}   # older names, kept for tests and logs
