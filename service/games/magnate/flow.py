"""`decide`: validate a move, then run everything automatic that follows it.

A turn (seed 000 "Game play", M9): the automatic roll, taxation and income; any trades and deed
additions; the card play (two in mega) that ends it; the automatic draw (with M16's Ace
replacement); then the next player's roll, taxation and income, all recorded as events so the
next player's position is ready. The end (M12) and scoring (M13) happen the same way.
"""
from __future__ import annotations

from dataclasses import replace

from ..cards import decktet
from ..contract import Event, IllegalMove
from . import rules as R
from .scoring import final
from .state import SI, SUITS, ZERO, State, add, evolve, info, unvec, vec

MODES = ("always", "never", "ask")


class Builder:
    """Events appended one by one, each folded at once so the next sees its effect."""

    def __init__(self, st: State):
        self.st = st
        self.events: list[Event] = []

    def emit(self, type_: str, **data) -> None:
        ev = Event(type_, data)
        self.events.append(ev)
        self.st = evolve(self.st, ev)


def roll(b: Builder, seat: int, chance) -> None:
    """Seed 000 (a) / M1 / M11: 2d10, taxation if a 1 shows, then income on the higher die."""
    st = b.st
    dice = [chance.randint(1, 10), chance.randint(1, 10)]
    tax_dice: list[int] = []
    taxed: list[str] = []
    if 1 in dice:
        k = 2 if st.options["double_taxation"] else 1
        tax_dice = [chance.randint(1, 6) for _ in range(k)]
        taxed = sorted({SUITS[x - 1] for x in tax_dice}, key=SI.get)   # same suit: once
    lost, after = [], []
    for p in st.players:
        loss = [0] * 6
        for s in taxed:
            n = p.tokens[SI[s]]
            loss[SI[s]] = n - 1 if n >= 2 else 0
        lost.append(loss)
        after.append(add(p.tokens, loss, -1))
    high = max(dice)
    income, paid = [], []
    for s, p in enumerate(st.players):
        gain = [0] * 6
        taxed_p = replace(p, tokens=after[s])
        if high == 10:
            sources = [(c, info(c)[1]) for c in p.crowns]
        else:
            sources = []
            for col in p.columns:
                for x in col:
                    r, suits = info(x.card)
                    if r != str(high):
                        continue
                    if x.developed:
                        sources.append((x.card, suits))
                    else:   # M1/M19: a deed pays one of its suits
                        sources.append((x.card, R.income_suit(taxed_p, x.card)))
        for card, suits in sources:
            for x in suits:
                gain[SI[x]] += 1
            paid.append([s, card, suits])
        income.append(gain)
    b.emit("Rolled", seat=seat, dice=dice, high=high, tax_dice=tax_dice, taxed=taxed,
           lost=lost, income=income, paid=paid)


def advance(b: Builder, chance) -> None:
    """Run the automatic steps until a player must decide or the game is over."""
    while True:
        st = b.st
        if st.phase != "draw":
            return
        if st.draws_left > 0:
            if not st.draw:
                if st.pile < st.piles:                       # M12: reshuffle, finish the draw
                    order = list(st.discard)
                    chance.shuffle(order)
                    b.emit("Reshuffled", pile=st.pile + 1, order=order)
                    if not b.st.draw and b.st.pile == b.st.piles:
                        b.emit("EndTriggered", pile=b.st.pile)
                    continue
                b.emit("EndTriggered", pile=st.pile)         # cannot happen; stay safe
                continue
            card = st.draw[0]
            p = st.players[st.turn]
            ace = R.is_ace(card) and st.options["replace_ace"]
            b.emit("Drew", seat=st.turn, card=card, ask=bool(ace and p.aces == "ask"))
            if not b.st.draw and b.st.pile == b.st.piles:
                b.emit("EndTriggered", pile=b.st.pile)        # M12: last pile used up
            if ace and p.aces == "always":
                b.emit("AceReplaced", seat=st.turn, card=card)
            continue
        if st.final_left == 0:
            b.emit("GameEnded", outcome=final(st))
            return
        roll(b, (st.turn + 1) % st.n, chance)


def _pay(move, key="pay") -> tuple[int, ...]:
    pay = move.get(key)
    if not isinstance(pay, dict) or any(s not in SUITS for s in pay):
        raise IllegalMove("say which tokens you pay, e.g. 'with 2 Waves and 2 Leaves'")
    if any(not isinstance(n, int) or isinstance(n, bool) or n < 0 for n in pay.values()):
        raise IllegalMove("token counts must be whole numbers, none negative")
    return vec(pay)


def _district(st: State, move) -> int:
    d = move.get("district")
    if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= len(st.districts):
        raise IllegalMove(f"there is no district {d!r}; districts are 1 to "
                          f"{len(st.districts)}")
    return d - 1


def _hand_card(st: State, seat: int, move) -> str:
    card = move.get("card")
    if card not in st.players[seat].hand:
        raise IllegalMove("you do not hold that card")
    return card


def _afford(p, pay) -> None:
    if not R.can_afford(p.tokens, pay):
        raise IllegalMove("you do not have those tokens")


def _own_deed(st: State, seat: int, card) -> int:
    for d, x in R.deeds(st.players[seat]):
        if x.card == card:
            return d
    raise IllegalMove("you hold no incomplete deed to that card")


def decide(st: State, seat: int, move, chance) -> list[Event]:
    if not isinstance(move, dict):
        raise IllegalMove("that is not a move")
    t = move.get("type")
    if st.phase == "over":
        raise IllegalMove("the game is over")
    if not isinstance(seat, int) or not 0 <= seat < st.n:
        raise IllegalMove("no such seat")
    b = Builder(st)
    p = st.players[seat]
    if t == "prefer":                                        # M19: any time, even off-turn
        d = _own_deed(st, seat, move.get("card"))
        card = st.players[seat].columns[d][-1].card
        suit = move.get("suit")
        if suit not in R.pref_choices(card):
            raise IllegalMove("that deed cannot pay that suit, or has no choice to make")
        if p.pref(card) == suit:
            raise IllegalMove("that is already your preference")
        b.emit("PreferenceSet", seat=seat, card=card, suit=suit)
        return b.events
    if t == "replace_aces":                                  # M16 standing choice
        mode = move.get("mode")
        if not st.options["replace_ace"]:
            raise IllegalMove("this game is played without the Replace the Ace variant")
        if mode not in MODES or mode == p.aces:
            raise IllegalMove("choose always, never or ask (a change from the current one)")
        b.emit("AceSettingSet", seat=seat, mode=mode)
        if st.phase == "ask" and st.turn == seat and mode != "ask":
            _answer(b, seat, st.asked, mode == "always")     # a standing answer answers now
            advance(b, chance)
        return b.events
    if seat != st.turn:
        raise IllegalMove("it is not your turn")
    if t in ("keep", "replace"):
        if st.phase != "ask":
            raise IllegalMove("there is no drawn Ace waiting for your answer")
        if move.get("card") != st.asked:
            raise IllegalMove("that is not the Ace you drew")
        _answer(b, seat, st.asked, t == "replace")
        advance(b, chance)
        return b.events
    if st.phase != "play":
        raise IllegalMove("first answer: keep or replace the Ace you drew")
    modern = st.modern
    if t == "trade":                                         # M10
        give, get = move.get("give"), move.get("get")
        if give not in SUITS or get not in SUITS or give == get:
            raise IllegalMove("trade 3 tokens of one suit for 1 of another suit")
        if p.tokens[SI[give]] < 3:
            raise IllegalMove("you need 3 tokens of that suit to trade")
        b.emit("Traded", seat=seat, give=give, get=get)
        return b.events
    if t == "add":                                           # M5, M7
        d = _own_deed(st, seat, move.get("card"))
        deed = p.columns[d][-1]
        pay = _pay(move)
        _afford(p, pay)
        why = R.add_ok(deed.on, pay, deed.card, modern)
        if why:
            raise IllegalMove(why)
        done = sum(deed.on) + sum(pay) == R.cost(deed.card, modern)
        b.emit("DeedAdded", seat=seat, card=deed.card, district=d + 1, pay=unvec(pay),
               completed=done)
        return b.events
    if t == "sell":
        card = _hand_card(st, seat, move)
        b.emit("Sold", seat=seat, card=card, gain=unvec(R.sell_gain(card)))
    elif t in ("buy", "deed"):
        card = _hand_card(st, seat, move)
        d = _district(st, move)
        why = R.can_place(st, seat, card, d)
        if why:
            raise IllegalMove(f"cannot place {_name(card)} there: {why}")
        if t == "deed":
            if not R.deed_allowed(card, modern):
                raise IllegalMove("no deed may be bought for a 2" if info(card)[0] == "2"
                                  else "in the classic rules an Ace has no deed")
            pay = R.deed_cost(card)
            _afford(p, pay)
            extra = _pay(move, "add") if "add" in move else None
            if extra is not None:                            # M7: tokens on it at once
                if not R.can_afford(add(p.tokens, pay, -1), extra):
                    raise IllegalMove("you do not have those tokens besides the deed's price")
                why = R.add_ok(ZERO, extra, card, modern)
                if why:
                    raise IllegalMove(why)
            b.emit("DeedBought", seat=seat, card=card, district=d + 1, pay=unvec(pay))
            if extra is not None:
                b.emit("DeedAdded", seat=seat, card=card, district=d + 1, pay=unvec(extra),
                       completed=sum(extra) == R.cost(card, modern))
        else:
            pay = _pay(move)
            _afford(p, pay)
            if pay not in R.outright_payments(p.tokens, card, modern):
                c = R.cost(card, modern)
                raise IllegalMove(f"{_name(card)} costs {c} tokens of its suits, at least one "
                                  "of each")
            b.emit("Bought", seat=seat, card=card, district=d + 1, pay=unvec(pay))
    else:
        raise IllegalMove(f"unknown move {t!r}")
    advance(b, chance)
    return b.events


def _answer(b: Builder, seat: int, card: str, swap: bool) -> None:
    if swap:
        b.emit("AceReplaced", seat=seat, card=card)
    else:
        b.emit("AceKept", seat=seat, card=card)


def _name(card: str) -> str:
    return decktet.name(card)


def begin(first_events: list[Event], chance) -> list[Event]:
    """The first turn's automatic roll, right after the deal (M17)."""
    st = None
    for e in first_events:
        st = evolve(st, e)
    b = Builder(st)
    roll(b, st.turn, chance)
    return first_events + b.events

