"""`decide`: validate a move, then run everything automatic that follows it.

A turn (seed 000 "Game play", M9): the automatic roll, taxation and income; any trades and deed
additions; the card play (two in mega); under rules 2 the turn then stays open for more trades
and additions until its player ends it (`{"type": "end"}`) or nothing more is possible (M9
amended); under rules 1 the card play ends it. Then the automatic draw (with M16's Ace
replacement), then the next player's roll, taxation and income, all recorded as events so the
next player's position is ready. The end (M12) and scoring (M13) happen the same way.
"""
from __future__ import annotations

from dataclasses import replace

from ..cards import decktet
from ..contract import Event, IllegalMove
from ..folding import Recorder
from ..shapes import Shapes, counts, one_of, string, whole
from ..text import N_, phrase
from . import costs
from .scoring import final
from .state import MODES, SI, SUITS, ZERO, Player, State, add, evolve, info, unvec, vec

# ---------------------------------------------------------------- the roll (M1, M11, M17)


def _tax(st: State, chance) -> tuple[list[int], list[int], list[str]]:
    """2d10; if a 1 shows, one tax die (two with double taxation); the same suit twice taxes
    it once (M11)."""
    dice = [chance.randint(1, 10), chance.randint(1, 10)]
    tax_dice: list[int] = []
    if 1 in dice:
        k = 2 if st.options["double_taxation"] else 1
        tax_dice = [chance.randint(1, 6) for _ in range(k)]
    taxed = sorted({SUITS[x - 1] for x in tax_dice}, key=SI.get)
    return dice, tax_dice, taxed


def _loss(p: Player, taxed: list[str]) -> list[int]:
    """M11: 2+ tokens of a taxed suit keep 1; tokens on deeds are safe (M7)."""
    loss = [0] * 6
    for s in taxed:
        n = p.tokens[SI[s]]
        loss[SI[s]] = n - 1 if n >= 2 else 0
    return loss


def _sources(p: Player, high: int) -> list[tuple[str, str]]:
    """(card, suits paid) for each of p's income sources on `high` (M1). `p` holds its
    after-tax tokens, which the M19 default suit choice looks at."""
    if high == 10:
        return [(c, info(c)[1]) for c in p.crowns]
    out = []
    for col in p.columns:
        for x in col:
            r, suits = info(x.card)
            if r != str(high):
                continue
            # M1/M19: a deed pays one of its suits
            out.append((x.card, suits if x.developed else costs.income_suit(p, x.card)))
    return out


def roll(rec: Recorder, seat: int, chance) -> None:
    """Seed 000 (a) / M1 / M11: 2d10, taxation if a 1 shows, then income on the higher die.
    Every turn's roll, the very first included, is taxed alike (M17)."""
    st = rec.state
    dice, tax_dice, taxed = _tax(st, chance)
    high = max(dice)
    lost, income, paid = [], [], []
    for s, p in enumerate(st.players):
        loss = _loss(p, taxed)
        lost.append(loss)
        gain = [0] * 6
        for card, suits in _sources(replace(p, tokens=add(p.tokens, loss, -1)), high):
            for x in suits:
                gain[SI[x]] += 1
            paid.append([s, card, suits])
        income.append(gain)
    rec.emit("Rolled", seat=seat, dice=dice, high=high, tax_dice=tax_dice, taxed=taxed,
             lost=lost, income=income, paid=paid)


# ---------------------------------------------------------------- what happens by itself


def _last_pile_ends(rec: Recorder) -> bool:
    st = rec.state
    return not st.draw and st.pile == st.piles


def _reshuffle(rec: Recorder, chance) -> None:
    """M12: the first time a card must be drawn from an empty pile, the discards make a new
    pile and the draw goes on."""
    st = rec.state
    if st.pile < st.piles:
        order = list(st.discard)
        chance.shuffle(order)
        rec.emit("Reshuffled", pile=st.pile + 1, order=order)
        if _last_pile_ends(rec):
            rec.emit("EndTriggered", pile=rec.state.pile)
        return
    rec.emit("EndTriggered", pile=st.pile)         # cannot happen; stay safe


def _draw_one(rec: Recorder) -> None:
    st = rec.state
    card = st.draw[0]
    p = st.players[st.turn]
    ace = costs.is_ace(card) and st.options["replace_ace"]
    if ace and st.rules >= 2 and len(st.draw) == 1 and st.pile == st.piles:
        ace = False     # M16 (rules 2): no card is left to replace it: the drawer keeps it
    rec.emit("Drew", seat=st.turn, card=card, ask=bool(ace and p.aces == "ask"))
    if _last_pile_ends(rec):
        rec.emit("EndTriggered", pile=rec.state.pile)        # M12: last pile used up
    if ace and p.aces == "always":
        rec.emit("AceReplaced", seat=st.turn, card=card)


def advance(rec: Recorder, chance) -> None:
    """Run the automatic steps until a player must decide or the game is over."""
    while True:
        st = rec.state
        if st.phase == "open":
            if costs.more_possible(st, st.turn):
                return
            rec.emit("TurnEnded", seat=st.turn, auto=True)   # M9: nothing left to do
            continue
        if st.phase != "draw":
            return
        if st.draws_left > 0:
            if st.draw:
                _draw_one(rec)
            else:
                _reshuffle(rec, chance)
            continue
        if st.final_left == 0:
            rec.emit("GameEnded", outcome=final(st))
            return
        roll(rec, (st.turn + 1) % st.n, chance)


# ---------------------------------------------------------------- reading a move's fields


def _pay(move, key="pay") -> tuple[int, ...]:
    pay = move.get(key)
    if not isinstance(pay, dict) or any(s not in SUITS for s in pay):
        raise IllegalMove(N_("say which tokens you pay, e.g. 'with 2 Waves and 2 Leaves'"))
    if any(not isinstance(n, int) or isinstance(n, bool) or n < 0 for n in pay.values()):
        raise IllegalMove(N_("token counts must be whole numbers, none negative"))
    return vec(pay)


def _district(st: State, move) -> int:
    d = move.get("district")
    if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= len(st.districts):
        raise IllegalMove(N_("there is no district {district}; districts are 1 to {last}"),
                          district=repr(d), last=len(st.districts))
    return d - 1


def _hand_card(st: State, seat: int, move) -> str:
    card = move.get("card")
    if card not in st.players[seat].hand:
        raise IllegalMove(N_("you do not hold that card"))
    return card


def _afford(p, pay) -> None:
    if not costs.can_afford(p.tokens, pay):
        raise IllegalMove(N_("you do not have those tokens"))


def _own_deed(st: State, seat: int, card) -> int:
    for d, x in costs.deeds(st.players[seat]):
        if x.card == card:
            return d
    raise IllegalMove(N_("you hold no incomplete deed to that card"))


def _name(card: str) -> str:
    return decktet.name(card)



# ---------------------------------------------------------------- one handler per move type


def _prefer(rec: Recorder, seat: int, move) -> None:
    """M19: a deed's income suit, set at any time, even off-turn."""
    st = rec.state
    d = _own_deed(st, seat, move.get("card"))
    card = st.players[seat].columns[d][-1].card
    suit = move.get("suit")
    if suit not in tuple(costs.pref_choices(card)):     # one suit letter, never a fragment
        raise IllegalMove(N_("that deed cannot pay that suit, or has no choice to make"))
    if st.players[seat].pref(card) == suit:
        raise IllegalMove(N_("that is already your preference"))
    rec.emit("PreferenceSet", seat=seat, card=card, suit=suit)


def _replace_aces(rec: Recorder, seat: int, move) -> None:
    """M16 standing choice, any time; a standing answer answers a waiting question now."""
    st = rec.state
    mode = move.get("mode")
    if not st.options["replace_ace"]:
        raise IllegalMove(N_("this game is played without the Replace the Ace variant"))
    if mode not in MODES or mode == st.players[seat].aces:
        raise IllegalMove(N_("choose always, never or ask (a change from the current one)"))
    rec.emit("AceSettingSet", seat=seat, mode=mode)
    if st.phase == "ask" and st.turn == seat and mode != "ask":
        _answer(rec, seat, st.asked, mode == "always")


def _keep_or_replace(rec: Recorder, seat: int, move) -> None:
    st = rec.state
    if st.phase != "ask":
        raise IllegalMove(N_("there is no drawn Ace waiting for your answer"))
    if move.get("card") != st.asked:
        raise IllegalMove(N_("that is not the Ace you drew"))
    _answer(rec, seat, st.asked, move["type"] == "replace")


def _answer(rec: Recorder, seat: int, card: str, swap: bool) -> None:
    rec.emit("AceReplaced" if swap else "AceKept", seat=seat, card=card)


def _trade(rec: Recorder, seat: int, move) -> None:
    """M10: 3 of one suit for 1 of another, with the bank."""
    give, get = move.get("give"), move.get("get")
    if give not in SUITS or get not in SUITS or give == get:
        raise IllegalMove(N_("trade 3 tokens of one suit for 1 of another suit"))
    if rec.state.players[seat].tokens[SI[give]] < 3:
        raise IllegalMove(N_("you need 3 tokens of that suit to trade"))
    rec.emit("Traded", seat=seat, give=give, get=get)


def _add(rec: Recorder, seat: int, move) -> None:
    """M5, M7: tokens onto one of your incomplete deeds."""
    st = rec.state
    p = st.players[seat]
    d = _own_deed(st, seat, move.get("card"))
    deed = p.columns[d][-1]
    pay = _pay(move)
    _afford(p, pay)
    why = costs.add_ok(deed.on, pay, deed.card, st.modern)
    if why:
        raise why
    done = sum(deed.on) + sum(pay) == costs.cost(deed.card, st.modern)
    rec.emit("DeedAdded", seat=seat, card=deed.card, district=d + 1, pay=unvec(pay),
             completed=done)


def _sell(rec: Recorder, seat: int, move) -> None:
    card = _hand_card(rec.state, seat, move)
    rec.emit("Sold", seat=seat, card=card, gain=unvec(costs.sell_gain(card)))


def _placed_in(st: State, seat: int, move) -> tuple[str, int]:
    card = _hand_card(st, seat, move)
    d = _district(st, move)
    why = costs.can_place(st, seat, card, d)
    if why:
        raise IllegalMove(N_("cannot place {card} there: {why}"), card=_name(card),
                          why=phrase(why.template, **why.values))
    return card, d


def _buy(rec: Recorder, seat: int, move) -> None:
    st = rec.state
    card, d = _placed_in(st, seat, move)
    p = st.players[seat]
    pay = _pay(move)
    _afford(p, pay)
    if pay not in costs.outright_payments(p.tokens, card, st.modern):
        c = costs.cost(card, st.modern)
        raise IllegalMove(N_("{card} costs {cost} tokens of its suits, at least one of each"),
                          card=_name(card), cost=c)
    rec.emit("Bought", seat=seat, card=card, district=d + 1, pay=unvec(pay))


def _deed_extra(p: Player, card: str, pay, move, modern: bool):
    """M7: tokens put on a deed as it is bought ("add" in the move), checked, or None."""
    if "add" not in move:
        return None
    extra = _pay(move, "add")
    if not costs.can_afford(add(p.tokens, pay, -1), extra):
        raise IllegalMove(N_("you do not have those tokens besides the deed's price"))
    why = costs.add_ok(ZERO, extra, card, modern)
    if why:
        raise why
    return extra


def _deed(rec: Recorder, seat: int, move) -> None:
    st = rec.state
    card, d = _placed_in(st, seat, move)
    if not costs.deed_allowed(card, st.modern):
        raise IllegalMove(N_("no deed may be bought for a 2") if info(card)[0] == "2"
                          else N_("in the classic rules an Ace has no deed"))
    p = st.players[seat]
    pay = costs.deed_cost(card)
    _afford(p, pay)
    extra = _deed_extra(p, card, pay, move, st.modern)
    rec.emit("DeedBought", seat=seat, card=card, district=d + 1, pay=unvec(pay))
    if extra is not None:
        rec.emit("DeedAdded", seat=seat, card=card, district=d + 1, pay=unvec(extra),
                 completed=sum(extra) == costs.cost(card, st.modern))


def _end(rec: Recorder, seat: int, _move) -> None:
    """M9 amended: the explicit end of an open turn; the draw follows."""
    rec.emit("TurnEnded", seat=seat, auto=False)


ANY_TIME = {"prefer": _prefer, "replace_aces": _replace_aces}
CARD_PLAYS = {"sell": _sell, "buy": _buy, "deed": _deed}
BETWEEN = {"trade": _trade, "add": _add}     # M7, M10: before and after the card play
ON_TURN = {"keep": _keep_or_replace, "replace": _keep_or_replace, "end": _end,
           **CARD_PLAYS, **BETWEEN}


def _phase_check(st: State, t: str) -> None:
    """Which on-turn moves the turn's phase allows (M9, M16)."""
    if t in ("keep", "replace"):
        return
    if st.phase == "ask":
        raise IllegalMove(N_("first answer: keep or replace the Ace you drew"))
    if t == "end":
        if st.phase != "open":
            raise IllegalMove(N_("make your card play first") if st.rules >= 2 else
                              N_("in this game the card play ends the turn"))
    elif t in CARD_PLAYS and st.phase == "open":
        raise IllegalMove(N_("you have made your card play this turn: trade, add to a deed, "
                             "or end your turn"))


_CARD = {"card": string}
_PAY = counts(SUITS)
#: every move's keys (legalmoves.py lists the moves): a payment names only the suits it pays
SHAPES = Shapes("Magnate", {
    "buy": ({"card": string, "district": whole, "pay": _PAY}, {}),
    "deed": ({"card": string, "district": whole}, {"add": _PAY}),
    "add": ({"card": string, "pay": _PAY}, {}),
    "sell": (_CARD, {}),
    "trade": ({"give": one_of(*SUITS), "get": one_of(*SUITS)}, {}),
    "prefer": ({"card": string, "suit": one_of(*SUITS)}, {}),
    "replace_aces": ({"mode": one_of(*MODES)}, {}),
    "replace": (_CARD, {}), "keep": (_CARD, {}),
    "end": ({}, {}),
})


def _handler(st: State, seat: int, move):
    SHAPES.check(move)
    if st.phase == "over":
        raise IllegalMove(N_("the game is over"))
    if not isinstance(seat, int) or not 0 <= seat < st.n:
        raise IllegalMove(N_("no such seat"))
    t = move.get("type")
    if t in ANY_TIME:
        return ANY_TIME[t]
    if t not in ON_TURN:
        raise IllegalMove(N_("unknown move {type}"), type=repr(t))
    if seat != st.turn:
        raise IllegalMove(N_("it is not your turn"))
    _phase_check(st, t)
    return ON_TURN[t]


def decide(st: State, seat: int, move, chance) -> list[Event]:
    handler = _handler(st, seat, move)
    rec = Recorder(evolve, st)
    handler(rec, seat, move)
    advance(rec, chance)
    return rec.events


def begin(first_events: list[Event], chance) -> list[Event]:
    """The first turn's automatic roll, right after the deal, taxed like any other (M17)."""
    rec = Recorder(evolve, None)
    for e in first_events:
        rec.emit(e.type, **e.data)
    roll(rec, rec.state.turn, chance)
    return rec.events
