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
  {"type": "end"}                                            (rules 2: ends an open turn, M9)
"""
from __future__ import annotations

from . import costs
from .state import MODES, SUITS, ZERO, State, add, unvec

END = {"type": "end"}


def plays(st: State, seat: int, menu: bool = False) -> list[dict]:
    p = st.players[seat]
    modern = st.modern
    buys, deeds, sells = [], [], []
    for card in p.hand:
        where = costs.places(st, seat, card)
        for d in where:
            if menu:
                pay = costs.default_outright(p.tokens, card, modern)
                pays = [pay] if pay else []
            else:
                pays = costs.outright_payments(p.tokens, card, modern)
            for pay in pays:
                buys.append({"type": "buy", "card": card, "district": d + 1,
                             "pay": unvec(pay)})
        if costs.deed_allowed(card, modern) and costs.can_afford(p.tokens, costs.deed_cost(card)):
            deeds.extend({"type": "deed", "card": card, "district": d + 1} for d in where)
            if not menu:   # M7: tokens may go on the deed the turn it is bought
                left = add(p.tokens, costs.deed_cost(card), -1)
                extras = costs.add_payments(left, ZERO, card, modern)
                deeds.extend({"type": "deed", "card": card, "district": d + 1,
                              "add": unvec(x)} for d in where for x in extras)
        sells.append({"type": "sell", "card": card})
    return buys + deeds + sells


def _between(st: State, seat: int) -> list[dict]:
    """Deed additions and trades: legal before and after the card play (M7, M9, M10)."""
    p = st.players[seat]
    out = [{"type": "add", "card": deed.card, "pay": unvec(pay)}
           for _d, deed in costs.deeds(p)
           for pay in costs.add_payments(p.tokens, deed.on, deed.card, st.modern)]
    out.extend({"type": "trade", "give": g, "get": s}
               for i, g in enumerate(SUITS) if p.tokens[i] >= 3
               for s in SUITS if s != g)
    return out


def _answers(st: State) -> list[dict]:
    return [{"type": "replace", "card": st.asked}, {"type": "keep", "card": st.asked}]


def _on_turn(st: State, seat: int) -> list[dict]:
    if st.phase == "ask":
        return _answers(st)
    if st.phase == "play":
        return plays(st, seat) + _between(st, seat)
    if st.phase == "open":
        return _between(st, seat) + [dict(END)]
    return []


def legal_moves(st: State, seat: int) -> list[dict]:
    if st.phase == "over" or not 0 <= seat < st.n:
        return []
    out = _on_turn(st, seat) if seat == st.turn else []
    return out + standing(st, seat)


def standing(st: State, seat: int) -> list[dict]:
    """Standing choices a player may change at any time: only real changes are offered."""
    p = st.players[seat]
    out = []
    for _d, deed in costs.deeds(p):
        out.extend({"type": "prefer", "card": deed.card, "suit": s}
                   for s in costs.pref_choices(deed.card) if s != p.pref(deed.card))
    if st.options["replace_ace"]:
        out.extend({"type": "replace_aces", "mode": m} for m in MODES if m != p.aces)
    return out


def _completions(st: State, seat: int) -> list[dict]:
    """One-click deed completions, each with its default payment (M7)."""
    p = st.players[seat]
    out = []
    for _d, deed in costs.deeds(p):
        pay = costs.default_completion(p.tokens, deed.on, deed.card, st.modern)
        if pay is not None:
            out.append({"type": "add", "card": deed.card, "pay": unvec(pay)})
    return out


def menu(st: State, seat: int) -> list[dict]:
    """The turn's card plays, one per option, each with its default payment; or the answer;
    or, in an open turn (M9 amended), the deed completions and the end of the turn."""
    if st.phase == "over" or seat != st.turn:
        return []
    if st.phase == "ask":
        return _answers(st)
    if st.phase == "open":
        return _completions(st, seat) + [dict(END)]
    return plays(st, seat, menu=True) if st.phase == "play" else []


def finish_turn(st: State, seat: int) -> dict | None:
    """M9 amended: the move that ends `seat`'s open turn, or None when it has none that may
    end now (not its turn, card play not made yet, an Ace question waiting, rules 1)."""
    if st.phase == "open" and st.turn == seat:
        return dict(END)
    return None


def timeout_move(st: State, seat: int) -> dict | None:
    """The move made for `seat` when its time runs out; None when it has nothing to decide.

    * an open turn (card play made, M9 amended): end it;
    * an Ace question waiting (M16 "ask"): keep the Ace, the seed's standard rule (no token
      handed to everyone on the absent player's behalf);
    * a card play due: sell a card. Selling is always legal (M9), costs nothing and gains
      tokens, and never commits the player's tokens or districts: the least harmful play.
      The card sold is the cheapest to develop (its cost, M2/M3/M14), ties by hand order,
      so the cards worth most stay in hand.
    """
    if st.phase == "over" or st.turn != seat:
        return None
    if st.phase == "open":
        return dict(END)
    if st.phase == "ask":
        return {"type": "keep", "card": st.asked}
    hand = st.players[seat].hand
    if st.phase != "play" or not hand:
        return None
    card = min(hand, key=lambda c: costs.cost(c, st.modern))
    return {"type": "sell", "card": card}
