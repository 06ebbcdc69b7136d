"""Who acts, what they may do, and what their move does: `validate` (option combinations),
`start`, `to_act`, `legal_moves`, `menu`, `decide` and `timeout_move` (the default made for a
seat whose clock runs out). Rules that changed in versions 2 and 3 ask `s.rules` (state.py).

Moves (JSON-safe dicts, exact card ids):

* sealed choices: ``stall``/``ball``/``discard`` (tax) with ``cards``; ``bid`` with ``coins``
* auction: ``take`` (single top bidder) and ``declare`` (tied top bidders), with ``card``
* the nine actions (A6-A10): ``trade`` (give, take, from = "market" or a seat), ``store``
  (card, building, out), ``hide`` (card), ``sell`` (cards), ``harvest`` (building), ``favor``
  (card + a royal action), ``royal`` (a royal action), ``downgrade`` (building, cards),
  ``pass``. A royal action is ``do`` = build (address, cards) | upgrade (building, cards) |
  visit (owner, building) | buy (take). Buildings are named by their address card.
* after a visit: ``expose`` (card or None), ``discard_exposed``, ``take_coin``
* after a King phase (rules 1-3): ``end`` or ``pass``
* any time, by anyone (rules 4, A19 amended): ``end_choice`` with ``end`` true ("end the game
  when I can", the default) or false ("play on"), a private standing choice

`legal_moves` is COMPLETE for bids, auction picks and declarations, trades, hides, harvests,
visits, buys, visit follow-ups and the end of the game. Elsewhere it is a REPRESENTATIVE list,
because the full spaces are combinatorial: equal-rank cards of one zone are shown once (suits
play no role); stalls and ball gifts list nothing, each single rank, pairs of ranks (at most
12) and the cheapest k cards for every k; tax discards list at most 24 rank-distinct sets;
builds and upgrades list, per address rank and size, the matching cards first, topped up
with the cheapest others (each card the copy its plain name reads as: hand before stall);
store lists no same-rank swaps; sales list rank-distinct pairs; downgrades take the exposed
card, then mismatches. `decide` accepts ANY legal move, whichever copy it names.

Every listed move is in `copies.canonical` form: two copies of one card in one zone are
interchangeable, so a move uses the lowest copy present there, and no two listed moves differ
only by a copy; where copies are not interchangeable (hand vs stall, exposed vs face-down,
two buildings at one address card, declarations) the move carries the ``mark`` its text
needs. `decide` ignores ``mark``.
"""
from __future__ import annotations

from itertools import combinations

from ..contract import Chance, Event, IllegalMove, OptionError
from ..shapes import Shapes, flag, one_of, string, string_or_none, strings, whole, words
from ..text import N_, any_of, phrase
from .copies import canonical
from .flow import advance, recorder
from .state import KINDS, ROYAL_ACTION, SEALED, State, all_cards, rank, value

SEALED_MOVE = {"stall": "stall", "ball": "ball", "tax": "discard", "bid": "bid"}
FACE = {"K": "build", "Q": "visit", "J": "buy"}


def validate(opts: dict) -> dict:
    """The combinations the shared option check cannot see (`contract.validate_options`
    has coerced every value and filled in the defaults already)."""
    if opts["round_cap"] < 1:
        raise OptionError(N_("the round cap must be at least 1"))
    if opts["deck"]:
        order = [c.strip() for c in opts["deck"].split(",") if c.strip()]
        if sorted(order) != sorted(all_cards(opts["sizes"])):
            raise OptionError(N_("the deck must list every card of the game exactly once "
                                 "({count} cards)"), count=len(all_cards(opts["sizes"])))
    return opts


def start(seats: int, opts: dict, chance: Chance, version: int) -> list[Event]:
    """The first event (the deck order, the first Herald, and ``rules``: the version the game
    is played under to its end), then everything up to the first decision."""
    if opts["deck"]:
        order = [c.strip() for c in opts["deck"].split(",") if c.strip()]
    else:
        order = all_cards(opts["sizes"])
        chance.shuffle(order)
    run = recorder(None)
    run.emit("GameStarted", seats=seats, options=opts, order=order,
             herald=chance.randint(0, seats - 1), rules=version)
    return advance(run, chance)


def to_act(s: State) -> frozenset[int]:
    if s.stage in SEALED:
        return frozenset(s.waiting[:1] if s.options["herald_order_commits"] else s.waiting)
    if s.stage == "pick":
        return frozenset(s.auction["tied"][:1])
    if s.stage == "declare":
        return frozenset(s.auction["tied"][len(s.auction["declared"]):][:1])
    if s.stage in ("turn", "visit"):
        return frozenset([s.active])
    if s.stage == "end":
        return frozenset(s.asked[:1])
    return frozenset()


def may_choose(s: State, seat: int) -> bool:
    """A sealed choice may be replaced until the last one is in; under
    `herald_order_commits` a seat that has not chosen waits for those before it, and from
    rules 3 a choice made there is final (`choice_is_final`)."""
    if s.stage not in SEALED or seat not in s.sealed_seats:
        return False
    if seat in s.choices:
        return not choice_is_final(s)
    return seat in to_act(s)


def choice_is_final(s: State) -> bool:
    """A3, `herald_order_commits`: later players choose seeing the counts of earlier choices,
    so an earlier player who could still change theirs would choose after seeing the later
    counts (rules 3 makes the choice final; rules 1 and 2 let it change until the reveal). All
    at once (the default) nobody sees anything before the reveal, so a choice may change
    until then."""
    return s.options["herald_order_commits"] and s.rules >= 3


def timeout_move(s: State, seat: int) -> dict | None:
    """The move the service makes for `seat` when its time to choose runs out: the mildest
    legal choice, the same every time for the same position, for every decision there is.

    * sealed choices (A3): an empty stall or ball gift, a bid of 0, and for tax the first
      cards of the hand, as many as the limit asks (A14);
    * a single top bidder (A16): take the first market card (they bid, so they want one);
    * tied top bidders (A16): declare the first market card nobody has declared yet (else
      the first), so a silent bidder does not spoil another's card where it can be helped;
    * an action turn (A4): pass, ending the turn;
    * after a visit (A12): expose nothing, or take the coin rather than discard the card;
    * the end-of-game offer (A19): pass, never ending the game for a silent player.

    None when `seat` has nothing to decide now (another seat is to act, a sealed choice it
    has already made, or, under `herald_order_commits`, one whose turn to choose has not
    come)."""
    if seat not in to_act(s):       # (under `herald_order_commits` only the next chooser)
        return None
    if s.stage in SEALED:
        return sealed_default(s, seat)
    return _TIMEOUTS[s.stage](s, seat) if s.stage in _TIMEOUTS else None


def sealed_default(s: State, seat: int) -> dict:
    """The sealed choice made for a seat that makes none (shown to it in its view)."""
    if s.stage == "bid":
        return {"type": "bid", "coins": 0}
    if s.stage == "tax":
        return {"type": "discard", "cards": list(s.hands[seat][:_tax_count(s, seat)])}
    return {"type": SEALED_MOVE[s.stage], "cards": []}


def _declare_default(s: State, seat: int) -> dict:
    taken = {card for _, card in s.auction["declared"]}
    free = [c for c in s.market if c not in taken]
    return canonical(s, seat, {"type": "declare", "card": (free or list(s.market))[0]})


def _visit_default(s: State, seat: int) -> dict:
    if s.visit["mode"] == "exposed":
        return {"type": "take_coin"}
    return {"type": "expose", "card": None}


_TIMEOUTS = {
    "pick": lambda s, seat: canonical(s, seat, {"type": "take", "card": s.market[0]}),
    "declare": _declare_default,
    "turn": lambda s, seat: {"type": "pass"},
    "visit": _visit_default,
    "end": lambda s, seat: {"type": "pass"},
}


def _tax_count(s: State, seat: int) -> int:
    return max(0, len(s.hands[seat]) - s.hand_limit(seat))


def reps(cards) -> list[str]:
    seen, out = set(), []
    for c in cards:
        if rank(c) not in seen:
            seen.add(rank(c))
            out.append(c)
    return out


def cheapest(cards) -> list[str]:
    return sorted(cards, key=lambda c: (value(c), c))


# ---------------------------------------------------------------- legal moves


def legal_moves(s: State, seat: int) -> list[dict]:
    """Every listed move once, in canonical form (see the module doc), then the standing
    choice a player may change at any time."""
    return decisions(s, seat) + standing(s, seat)


def standing(s: State, seat: int) -> list[dict]:
    """A19 amended (rules 4): the private choice to end the game when able, or to play on;
    only the change is offered."""
    if s.rules < 4 or s.stage == "over" or not 0 <= seat < s.n:
        return []
    return [{"type": "end_choice", "end": seat in s.play_on}]


def decisions(s: State, seat: int) -> list[dict]:
    """The moves of the decision `seat` faces now (what the bots choose among)."""
    seen, out = set(), []
    for m in _raw_moves(s, seat):
        m = canonical(s, seat, m, plain=m.get("do") in ("build", "upgrade"))
        key = repr(sorted(m.items()))
        if key not in seen:
            seen.add(key)
            out.append(m)
    return out


def menu(s: State, seat: int) -> list[dict]:
    """One-click moves for the email: passing/ending first, then the first legal ones."""
    moves = decisions(s, seat)
    first = [m for m in moves if m["type"] in ("pass", "end")]
    return first + [m for m in moves if m not in first][:12 - len(first)]


def _raw_moves(s: State, seat: int) -> list[dict]:
    if seat not in to_act(s) and not may_choose(s, seat):
        return []
    st = s.stage
    if st in SEALED:
        return _sealed_moves(s, seat)
    if st == "pick":
        return [{"type": "take", "card": c} for c in reps(s.market)]
    if st == "declare":
        return [{"type": "declare", "card": c} for c in s.market]
    if st == "end":
        return [{"type": "end"}, {"type": "pass"}]
    if st == "visit":
        return _visit_moves(s)
    return _action_moves(s, seat)


def _sealed_moves(s: State, seat: int) -> list[dict]:
    hand = s.hands[seat]
    if s.stage == "bid":
        return [{"type": "bid", "coins": k} for k in range(s.coins[seat] + 1)]
    if s.stage == "tax":
        k = _tax_count(s, seat)
        sets = [list(hand[:k]), cheapest(hand)[:k]]
        for n, combo in enumerate(combinations(hand, k)):
            if len(sets) >= 24 or n > 400:
                break
            sets.append(list(combo))
        return [{"type": "discard", "cards": c} for c in _distinct(sets)]
    sets = [[]] + [[c] for c in reps(hand)]
    sets += [list(p) for p in combinations(reps(hand), 2)][:12]
    low = cheapest(hand)
    sets += [low[:k] for k in range(2, len(low) + 1)]
    return [{"type": SEALED_MOVE[s.stage], "cards": c} for c in _distinct(sets)]


def _distinct(sets):
    seen, out = set(), []
    for cards in sets:
        key = tuple(sorted(rank(c) for c in cards))
        if key not in seen:
            seen.add(key)
            out.append(cards)
    return out


def _visit_moves(s: State) -> list[dict]:
    v = s.visit
    b = s.buildings[v["owner"]][s.find(v["owner"], v["building"])]
    if v["mode"] == "exposed":
        return [{"type": "discard_exposed"}, {"type": "take_coin"}]
    return [{"type": "expose", "card": c} for c in reps(b.mismatches())] + [
        {"type": "expose", "card": None}]


def _trade_moves(s: State, seat: int) -> list[dict]:
    out = []
    for give in reps(s.stalls[seat]):
        for c in reps(s.market):
            out.append({"type": "trade", "give": give, "take": c, "from": "market"})
        for other in s.order():
            if other != seat:
                for c in reps(s.stalls[other]):
                    out.append({"type": "trade", "give": give, "take": c, "from": other})
    return out


def _store_moves(s: State, seat: int) -> list[dict]:
    """No same-rank swaps of face-down cards (they change nothing); the exposed card may
    always be swapped out (A7 ends the exposure)."""
    out = []
    mine = reps(s.hands[seat]) + reps(s.stalls[seat])
    for b in s.buildings[seat]:
        outs = reps([c for c in b.cards if c != b.exposed]) + ([b.exposed] if b.exposed else [])
        for card in mine:
            for o in outs:
                if rank(o) != rank(card) or o == b.exposed:
                    out.append({"type": "store", "card": card, "building": b.address, "out": o})
    return out


def _stall_moves(s: State, seat: int) -> list[dict]:
    """Hide, sell and harvest."""
    stall = s.stalls[seat]
    out = [{"type": "hide", "card": c} for c in reps(stall)]
    out += [{"type": "sell", "cards": list(p)} for p in _distinct(combinations(stall, 2))]
    out += [{"type": "harvest", "building": b.address}
            for b in s.buildings[seat] if b.production]
    return out


def _face_moves(s: State, seat: int) -> list[dict]:
    """Favors (any phase, A10) and the paid royal action of this phase."""
    out = []
    for face in reps([c for c in s.hands[seat] + s.stalls[seat] if rank(c) in FACE]):
        for act in _royal_options(s, seat, FACE[rank(face)], face):
            out.append({"type": "favor", "card": face, **act})
    if s.coins[seat] >= 1:
        for act in _royal_options(s, seat, ROYAL_ACTION[s.royal], None):
            out.append({"type": "royal", **act})
    return out


def _action_moves(s: State, seat: int) -> list[dict]:
    return [{"type": "pass"}, *_trade_moves(s, seat), *_store_moves(s, seat),
            *_stall_moves(s, seat), *_face_moves(s, seat), *_downgrade_moves(s, seat)]


def _royal_options(s: State, seat: int, action: str, exclude: str | None) -> list[dict]:
    if action == "visit":
        return [{"do": "visit", "owner": o, "building": b.address}
                for o in s.order() if o != seat for b in s.buildings[o]]
    if action == "buy":
        return [{"do": "buy", "take": c} for c in reps(s.face_up)]
    pool = [c for c in s.hands[seat] + s.stalls[seat] if c != exclude]
    bc = s.bcounts()
    out = []
    for addr in reps(pool):
        others = [c for c in pool if c != addr]
        fill = ([c for c in others if rank(c) == rank(addr)]
                + cheapest(c for c in others if rank(c) != rank(addr)))
        for need in bc:
            if len(fill) >= need:
                out.append({"do": "build", "address": addr, "cards": fill[:need]})
    for b in s.buildings[seat]:
        fill = ([c for c in pool if rank(c) == rank(b.address)]
                + cheapest(c for c in pool if rank(c) != rank(b.address)))
        for target in bc[s.level(b) + 1:]:
            need = target - len(b.cards)
            if len(fill) >= need:
                out.append({"do": "upgrade", "building": b.address, "cards": fill[:need]})
    return out


def _downgrade_targets(s: State, level: int) -> list[int]:
    """Building-card counts a downgrade may leave (0 = the building is gone); A8."""
    bc = s.bcounts()
    if level == 0:
        return [0]
    return [0, *bc[:level]] if s.options["downgrade_many"] else [bc[level - 1]]


def _downgrade_moves(s: State, seat: int) -> list[dict]:
    out = []
    for b in s.buildings[seat]:
        lvl = s.level(b)
        for t in _downgrade_targets(s, lvl):
            if lvl == 0:
                cards = []
            elif t == 0:
                cards = list(b.cards)
            else:
                first = ([b.exposed] if b.exposed else []) + [
                    c for c in b.mismatches() if c != b.exposed]
                rest = [c for c in b.cards if c not in first]
                cards = (first + rest)[:len(b.cards) - t]
            out.append({"type": "downgrade", "building": b.address, "cards": cards})
    return out


# ---------------------------------------------------------------- decide


def _seat_or_market(x) -> bool:
    return x == "market" if isinstance(x, str) else whole(x)


def _shape(req: dict, opt: dict | None = None) -> tuple[dict, dict]:
    return req, {**(opt or {}), "mark": words}      # `mark`: the words a text needs, ignored


# the keys of each royal action, inside a favor or royal move
ACTION_KEYS = {"build": {"address", "cards"}, "upgrade": {"building", "cards"},
               "visit": {"owner", "building"}, "buy": {"take"}}
_ACTION = {"address": string, "cards": strings, "building": string, "owner": whole, "take": string}
_CARDS = {"cards": strings}
SHAPES = Shapes("Aristocracy", {
    "stall": _shape(_CARDS), "ball": _shape(_CARDS), "discard": _shape(_CARDS),
    "bid": _shape({"coins": whole}),
    "take": _shape({"card": string}), "declare": _shape({"card": string}),
    "hide": _shape({"card": string}),
    "trade": _shape({"give": string, "take": string, "from": _seat_or_market}),
    "store": _shape({"card": string, "building": string, "out": string}),
    "sell": _shape(_CARDS), "harvest": _shape({"building": string}),
    "favor": _shape({"card": string, "do": one_of(*ACTION_KEYS)}, _ACTION),
    "royal": _shape({"do": one_of(*ACTION_KEYS)}, _ACTION),
    "downgrade": _shape({"building": string, "cards": strings}),
    "expose": _shape({"card": string_or_none}),
    "discard_exposed": _shape({}), "take_coin": _shape({}), "pass": _shape({}),
    "end": _shape({}), "end_choice": _shape({"end": flag}),
})


def _check_shape(move) -> str:
    kind = SHAPES.check(move)
    if kind in ("favor", "royal"):
        keys = set(move) - {"type", "do", "card", "mark"} if kind == "favor" else \
            set(move) - {"type", "do", "mark"}
        if keys != ACTION_KEYS[move["do"]]:
            raise IllegalMove(N_("a {action} action takes {keys}"), action=move["do"],
                              keys=", ".join(sorted(ACTION_KEYS[move["do"]])))
    return kind


def decide(s: State, seat: int, move: dict, chance: Chance) -> list[Event]:
    _check_shape(move)
    if s.stage == "over":
        raise IllegalMove(N_("the game is over"))
    run = recorder(s)
    kind = move["type"]
    if kind == "end_choice":
        _end_choice(run, s, seat, move)
        return run.events
    if s.stage in SEALED:
        if kind != SEALED_MOVE[s.stage]:
            raise IllegalMove(NOW_CHOOSING[s.stage])
        if not may_choose(s, seat):
            raise _no_choice(s, seat)
        run.emit("ChoiceMade", kind=s.stage, seat=seat, choice=_check_sealed(s, seat, move))
        return advance(run, chance)
    if seat not in to_act(s):
        raise IllegalMove(N_("it is not your turn"))
    handler = _STAGE_MOVES.get(s.stage, {}).get(kind)
    if handler is None:
        raise IllegalMove(N_("you cannot {move} now"), move=kind)
    handler(run, s, seat, move)
    return advance(run, chance)


def _end_choice(run, s: State, seat: int, move: dict) -> None:
    """A19 amended: set at any time, on or off turn; nothing waits on it."""
    if s.rules < 4:
        raise IllegalMove(N_("in this game the players who may end it are asked (A19)"))
    if not isinstance(seat, int) or not 0 <= seat < s.n:
        raise IllegalMove(N_("no such seat"))
    end = move["end"]
    if end == (seat not in s.play_on):
        raise IllegalMove(N_("that is already your choice"))
    run.emit("EndChoiceSet", seat=seat, end=end)


def _no_choice(s: State, seat: int) -> IllegalMove:
    if seat not in s.sealed_seats:
        return IllegalMove(N_("you have no choice to make now"))
    if seat in s.choices:
        return IllegalMove(FINAL[s.stage])
    return IllegalMove(N_("wait for the players before you in Herald order"))


# Each sealed choice's sentences whole (German and French make "their" and "your" agree
# with what is chosen)
NOW_CHOOSING = {"stall": N_("now everyone chooses their stall"),
                "ball": N_("now everyone chooses their ball contribution"),
                "tax": N_("now everyone chooses their tax discards"),
                "bid": N_("now everyone chooses their auction bid")}
FINAL = {
    "stall": N_("your stall cannot change: in Herald order a choice is final, as later "
                "players choose knowing its count (A3)"),
    "ball": N_("your ball contribution cannot change: in Herald order a choice is final, as "
               "later players choose knowing its count (A3)"),
    "tax": N_("your tax discards cannot change: in Herald order a choice is final, as later "
              "players choose knowing its count (A3)"),
    "bid": N_("your auction bid cannot change: in Herald order a choice is final, as later "
              "players choose knowing its count (A3)")}
#: a card not where a move takes it from, by where (a sentence each, for the prepositions)
NOT_IN = {"your hand": N_("{card} is not in your hand"),
          "your stall": N_("{card} is not in your stall"),
          "the market": N_("{card} is not in the market"),
          "that stall": N_("{card} is not in that stall"),
          "your hand or stall": N_("{card} is not in your hand or stall"),
          "that building": N_("{card} is not in that building")}


def _cards_arg(move, key="cards") -> list[str]:
    cards = move.get(key)
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise IllegalMove(N_("name the cards"))
    if len(set(cards)) != len(cards):
        raise IllegalMove(N_("a card is named twice"))
    return cards


def _own(cards, pool, where="your hand"):
    missing = [c for c in cards if c not in pool]
    if missing:
        raise IllegalMove(NOT_IN[where], card=missing[0])


def _check_sealed(s: State, seat: int, move: dict):
    if s.stage == "bid":
        coins = move.get("coins")
        if not isinstance(coins, int) or isinstance(coins, bool) or not 0 <= coins <= s.coins[seat]:
            raise IllegalMove(N_("bid from 0 to {coins} coins"), coins=s.coins[seat])
        return coins
    cards = _cards_arg(move)
    _own(cards, s.hands[seat])
    if s.stage == "tax" and len(cards) != _tax_count(s, seat):
        raise IllegalMove(N_("discard exactly {count} cards (A14)"), count=_tax_count(s, seat))
    return cards


def _take(run, s, seat, move):
    if move.get("card") not in s.market:
        raise IllegalMove(N_("take a card from the market"))
    run.emit("AuctionTaken", seat=seat, card=move["card"], price=s.auction["price"])


def _declare(run, s, seat, move):
    if move.get("card") not in s.market:
        raise IllegalMove(N_("declare a card in the market"))
    run.emit("Declared", seat=seat, card=move["card"])


def _end(run, s, seat, move):
    run.emit("GameEnded", how="ended", by=seat)


def _decline(run, s, seat, move):
    run.emit("EndDeclined", seat=seat)


def _pass(run, s, seat, move):
    run.emit("TurnEnded", seat=seat, passed=True)


def _trade(run, s, seat, move):
    give, take, src = move.get("give"), move.get("take"), move.get("from")
    _own([give], s.stalls[seat], "your stall")
    if src == "market":
        pool = s.market
    elif isinstance(src, int) and not isinstance(src, bool) and 0 <= src < s.n and src != seat:
        pool = s.stalls[src]
    else:
        raise IllegalMove(N_("trade with the market or an opponent's stall"))
    _own([take], pool, "that stall" if src != "market" else "the market")
    run.emit("Traded", seat=seat, give=give, take=take, **{"from": src})


def _building(s, seat, address):
    i = s.find(seat, address) if isinstance(address, str) else None
    if i is None:
        raise IllegalMove(N_("there is no such building"))
    return s.buildings[seat][i]


def _store(run, s, seat, move):
    card = move.get("card")
    _own([card], s.hands[seat] + s.stalls[seat], "your hand or stall")
    b = _building(s, seat, move.get("building"))
    if move.get("out") not in b.cards:
        raise IllegalMove(N_("that card is not in that building"))
    run.emit("Stored", seat=seat, card=card, building=b.address, out=move["out"])


def _hide(run, s, seat, move):
    _own([move.get("card")], s.stalls[seat], "your stall")
    run.emit("Hid", seat=seat, card=move["card"])


def _sell(run, s, seat, move):
    cards = _cards_arg(move)
    if len(cards) != 2:
        raise IllegalMove(N_("sell exactly two stall cards (A9)"))
    _own(cards, s.stalls[seat], "your stall")
    run.emit("Sold", seat=seat, cards=cards)


def _harvest(run, s, seat, move):
    b = _building(s, seat, move.get("building"))
    if not b.production:
        raise IllegalMove(N_("that farm has no production card"))
    run.emit("Harvested", seat=seat, building=b.address, card=b.production)


def _favor(run, s, seat, move):
    face = move.get("card")
    _own([face], s.hands[seat] + s.stalls[seat], "your hand or stall")
    if rank(face) not in FACE:
        raise IllegalMove(N_("a favor needs a King, Queen or Jack (A10)"))
    do = move.get("do")
    if do not in (("build", "upgrade") if rank(face) == "K" else (FACE[rank(face)],)):
        raise IllegalMove(N_("a {rank} grants the {action} action"), rank=rank(face),
                          action=FACE[rank(face)])
    check = _ROYAL_CHECKS[do](s, seat, move, face)
    run.emit("Favored", seat=seat, card=face, royal=rank(face))
    check(run)


def _royal(run, s, seat, move):
    if s.coins[seat] < 1:
        raise IllegalMove(N_("the royal action costs 1 coin"))
    do = move.get("do")
    allowed = ("build", "upgrade") if s.royal == "K" else (ROYAL_ACTION[s.royal],)
    if do not in allowed:
        raise IllegalMove(N_("in this phase the royal action is {action}"),
                          action=ROYAL_ACTION[s.royal])
    check = _ROYAL_CHECKS[do](s, seat, move, None)
    run.emit("RoyalPaid", seat=seat, royal=s.royal)
    check(run)


def _check_build(s, seat, move, face):
    address, cards = move.get("address"), _cards_arg(move)
    if address in cards:
        raise IllegalMove(N_("the address card cannot also be a building card"))
    _own([address, *cards], [c for c in s.hands[seat] + s.stalls[seat] if c != face],
         "your hand or stall")
    if len(cards) not in s.bcounts():
        raise IllegalMove(N_("a farm, estate or château takes {counts} building cards (A11)"),
                          counts="/".join(map(str, s.bcounts())))
    return lambda run: run.emit("Built", seat=seat, address=address, cards=cards)


def _check_upgrade(s, seat, move, face):
    b = _building(s, seat, move.get("building"))
    cards = _cards_arg(move)
    _own(cards, [c for c in s.hands[seat] + s.stalls[seat] if c != face], "your hand or stall")
    if not cards or len(b.cards) + len(cards) not in s.bcounts():
        raise IllegalMove(N_("an upgrade makes a farm an estate or château, or an estate a "
                             "château"))
    return lambda run: run.emit("Upgraded", seat=seat, building=b.address, cards=cards)


def _check_visit(s, seat, move, face):
    owner = move.get("owner")
    if not isinstance(owner, int) or isinstance(owner, bool) or not 0 <= owner < s.n \
            or owner == seat:
        raise IllegalMove(N_("visit an opponent's building"))
    b = _building(s, owner, move.get("building"))

    def emit(run):
        """A12: the visitor looks; an exposed card: choose; mismatches: the owner pays."""
        if b.exposed:
            mode, paid = "exposed", False
        elif b.mismatches():
            mode, paid = "expose", s.coins[owner] >= 1
        else:
            mode, paid = None, False
        run.emit("Visited", seat=seat, owner=owner, building=b.address, look=list(b.cards),
                 paid=paid, mode=mode)
    return emit


def _check_buy(s, seat, move, face):
    card = move.get("take")
    if card not in s.face_up:
        raise IllegalMove(N_("buy one of the face-up discards (A13)"))
    return lambda run: run.emit("Bought", seat=seat, card=card)


_ROYAL_CHECKS = {"build": _check_build, "upgrade": _check_upgrade, "visit": _check_visit,
                 "buy": _check_buy}


def _downgrade(run, s, seat, move):
    b = _building(s, seat, move.get("building"))
    cards = _cards_arg(move)
    _own(cards, b.cards, "that building")
    lvl = s.level(b)
    left = 0 if lvl == 0 else len(b.cards) - len(cards)
    if (lvl > 0 and not cards) or left not in _downgrade_targets(s, lvl) \
            or (lvl == 0 and cards):
        raise _downgrade_refusal(s, b)
    run.emit("Downgraded", seat=seat, building=b.address, cards=cards)


def _downgrade_refusal(s: State, b) -> IllegalMove:
    """A8: the refusal names exactly the downgrades `_downgrade_moves` offers: a farm comes
    home whole; otherwise as many building cards as make it the next size down, which is
    two for a château with sizes 4-5-7 (one downgrade all the same); `downgrade_many` adds
    every smaller size and taking them all."""
    lvl = s.level(b)
    if lvl == 0:
        return IllegalMove(N_("a downgraded farm comes home whole: name no cards (A8)"))
    bc = s.bcounts()
    ways = []
    for t in _downgrade_targets(s, lvl):
        k = len(b.cards) - t
        what = phrase(N_("the building comes home")) if t == 0 else \
            phrase(N_("it becomes a {kind}"), kind=KINDS[bc.index(t)])
        ways.append(phrase(N_("{count} building card ({what})") if k == 1 else
                           N_("{count} building cards ({what})"), count=k, what=what))
    return IllegalMove(N_("from this {kind} a downgrade takes {ways} (A8)"), kind=s.kind(b),
                       ways=any_of(ways))


def _expose(run, s, seat, move):
    v = s.visit
    if v["mode"] != "expose":
        raise IllegalMove(N_("choose: discard the exposed card or take a coin"))
    b = _building(s, v["owner"], v["building"])
    card = move.get("card")
    if card is not None and card not in b.mismatches():
        raise IllegalMove(N_("expose one of the mismatching cards, or nothing"))
    run.emit("Exposed", seat=seat, owner=v["owner"], building=b.address, card=card)


def _discard_exposed(run, s, seat, move):
    v = s.visit
    if v["mode"] != "exposed":
        raise IllegalMove(N_("there is no exposed card here"))
    b = _building(s, v["owner"], v["building"])
    lvl = s.level(b)
    rest = [c for c in b.cards if c != b.exposed]
    extra = 0 if lvl == 0 else len(rest) - s.bcounts()[lvl - 1]
    run.emit("ExposedDiscarded", seat=seat, owner=v["owner"], building=b.address,
             card=b.exposed, returned=rest[len(rest) - extra:] if extra else [])


def _take_coin(run, s, seat, move):
    v = s.visit
    if v["mode"] != "exposed":
        raise IllegalMove(N_("there is no exposed card here"))
    run.emit("VisitCoinTaken", seat=seat, owner=v["owner"], paid=s.coins[v["owner"]] >= 1)


_STAGE_MOVES = {
    "pick": {"take": _take},
    "declare": {"declare": _declare},
    "end": {"end": _end, "pass": _decline},
    "visit": {"expose": _expose, "discard_exposed": _discard_exposed, "take_coin": _take_coin},
    "turn": {"pass": _pass, "trade": _trade, "store": _store, "hide": _hide, "sell": _sell,
             "harvest": _harvest, "favor": _favor, "royal": _royal, "downgrade": _downgrade},
}


#: events that draw chance or turn up hidden cards (draws, reshuffles, sealed choices turned up, the ball): a move whose events
#: include one of them cannot be taken back (the service's undo by agreement)
NO_TAKING_BACK = frozenset({"Reshuffled", "MarketDrawn", "CardsDrawn", "StallsRevealed", "BidsRevealed",
                         "BallHeld"})


def can_take_back(state_before, events) -> bool:
    """Whether a move that produced `events` from `state_before` may be taken back by
    agreement: not if it drew chance or turned up anything hidden. (The service also checks
    that no seat learnt a card it did not know.)"""
    return not any(e.type in NO_TAKING_BACK for e in events)
