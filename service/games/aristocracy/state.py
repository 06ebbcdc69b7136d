"""Aristocracy's state and its pure fold (`evolve`).

The state is a frozen dataclass of tuples and small dicts; `evolve` builds a new one with
`dataclasses.replace` and never touches its input. Events carry every chance outcome (the deck
order, reshuffles, the ball's shuffle), so replaying them draws nothing.

Rules versions (docs/engines.md): `State.rules` is the version the game began under, read
from its first event (`folding.started_version`: 1 for logs older than versions). A game is
played to its end under the rules it began with; the rules that changed ask `s.rules`.

The discard pile (A13) runs oldest to newest; `State.face_up` holds the face-up cards in pile
order.

* Version 2 (A13 as amended, seed 001: "the bottom 4 cards in the discard pile are turned
  face up"): the 4 oldest discards are face up, always, whoever discarded them. A hidden
  tax discard (A14) or an unseen production card (A8, A11, A12) that lands among the 4
  oldest is turned up and is public from then on; one that lands later lies face down. A
  Buy takes a face-up card, and the oldest face-down one turns up (it is now among the 4
  oldest).
* Version 1 (kept for games begun under it): at most four cards lie face up, but a hidden
  or unseen discard went in face down even when fewer than four lay face up, and turned up
  only when a Buy took a face-up card.

A reshuffle of the whole pile into the deck (A13) is the same in both.

* Version 3 (A3, option `herald_order_commits`): a sealed choice made in Herald order is
  final. Later players choose seeing the counts of earlier choices, and in versions 1 and 2
  an earlier player could still change theirs after seeing the later counts
  (`rules.may_choose`). Choices made all at once (the default) may still change until the
  reveal, in every version.
* Version 4 (A19 as amended 2026-11-27): nobody is asked whether to end the game, since
  asking only those who qualify told the others about their face-down cards. Each player
  keeps a private standing choice (`play_on`: the seats that chose to play on; default:
  end), and at the end of each King phase the first player in Herald order who qualifies
  and whose choice is "end" ends it. Versions 1 to 3 still offer the end (`EndOffered`).
"""
from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass, field, replace
from typing import Any

from ..cards import french
from ..folding import Fold, started_version

ROYALS = ("K", "Q", "J")
ROYAL_ACTION = {"K": "build", "Q": "visit", "J": "buy"}
KINDS = ("farm", "estate", "chateau")
SIZES = {"4-5-6": (4, 5, 6), "5-6-7": (5, 6, 7), "4-5-7": (4, 5, 7), "2-3-4": (2, 3, 4)}
BCOUNTS = {k: tuple(x - 1 for x in v) for k, v in SIZES.items()}
SEALED = ("tax", "ball", "bid", "stall")
START_COINS = 3
RULES_VERSION = 4    # the rules this engine plays now; see the docstring
FACE_UP_PLACES = 4   # A13: at most four discards lie face up


def hand_size(sizes: str) -> int:
    """A21: twice the farm size minus one; the short 2-3-4 game says 5."""
    return 5 if sizes == "2-3-4" else 2 * SIZES[sizes][0] - 1


def all_cards(sizes: str) -> list[str]:
    """A1: two decks less one K/Q/J of diamonds (101); the short game uses one deck (49)."""
    if sizes == "2-3-4":
        return [c for c in french.deck(1) if c not in ("KD.1", "QD.1", "JD.1")]
    return french.deck(1) + [c for c in french.deck(2) if c not in ("KD.2", "QD.2", "JD.2")]


rank = french.rank
value = french.value


@dataclass(frozen=True)
class Building:
    address: str
    cards: tuple = ()            # face-down building cards (the exposed one included)
    exposed: str | None = None   # A12: a mismatching card left face up by a visitor
    production: str | None = None

    def complete(self) -> bool:
        return all(rank(c) == rank(self.address) for c in self.cards)

    def mismatches(self) -> list[str]:
        return [c for c in self.cards if rank(c) != rank(self.address)]

    def __deepcopy__(self, memo):
        return self   # frozen, and holds only strings and tuples of strings


@dataclass(frozen=True)
class State:
    n: int
    options: dict
    deck: tuple
    hands: tuple
    stalls: tuple
    buildings: tuple             # per seat: tuple of Building
    coins: tuple
    herald: int
    discard: tuple = ()          # A13: oldest first (face up and face down alike)
    face_up: tuple = ()          # A13: the face-up discards (at most 4), in pile order
    market: tuple = ()
    round: int = 1
    royal: str = "K"
    stage: str = "phase"
    sealed_seats: tuple = ()     # who takes part in the current sealed choice (Herald order)
    waiting: tuple = ()          # of those, who has not chosen yet (Herald order)
    choices: dict = field(default_factory=dict)   # seat -> choice (cards list or coins)
    turned: tuple = ()
    active: int | None = None
    actions: int = 0
    visit: dict | None = None
    auction: dict | None = None
    asked: tuple = ()
    offered: bool = False
    result: dict | None = None
    rules: int = 1               # the rules version the game began under (folding.started_version)
    known: tuple = ()            # discards shown to everyone as they were played (see _discard)
    play_on: tuple = ()          # rules 4 (A19): seats whose private standing choice is to play on

    def __deepcopy__(self, memo):
        """Tuples of strings and frozen Buildings are shared; only the dicts are copied
        (nothing mutates them, but a copy must not depend on that)."""
        return replace(self, **{k: deepcopy(getattr(self, k), memo)
                                for k in ("options", "choices", "visit", "auction", "result")})

    # ---- derived facts used everywhere
    @property
    def sizes(self) -> tuple:
        return SIZES[self.options["sizes"]]

    def bcounts(self) -> tuple:
        """Building cards (address excluded) for farm, estate, château."""
        return BCOUNTS[self.options["sizes"]]

    def level(self, b: Building) -> int:
        return BCOUNTS[self.options["sizes"]].index(len(b.cards))

    def kind(self, b: Building) -> str:
        return KINDS[self.level(b)]

    def order(self) -> list[int]:
        """A2: seat order starting at the Herald."""
        return [(self.herald + i) % self.n for i in range(self.n)]

    def hand_limit(self, seat: int) -> int:
        """A14: 7 (variant hand size) + châteaux owned, complete or not."""
        return hand_size(self.options["sizes"]) + sum(
            1 for b in self.buildings[seat] if self.level(b) == 2)

    def find(self, seat: int, address: str) -> int | None:
        for i, b in enumerate(self.buildings[seat]):
            if b.address == address:
                return i
        return None

    def points(self, seat: int) -> int:
        """A19: complete château 3, estate 2, farm 1."""
        return sum((1, 2, 3)[self.level(b)] for b in self.buildings[seat] if b.complete())

    def may_end(self, seat: int) -> bool:
        """A19: a complete château plus another complete château, two complete estates or
        three complete farms."""
        done = [self.level(b) for b in self.buildings[seat] if b.complete()]
        if done.count(2) < 1:
            return False
        return done.count(2) >= 2 or done.count(1) >= 2 or done.count(0) >= 3


def _set(tup: tuple, i: int, v: Any) -> tuple:
    return tup[:i] + (v,) + tup[i + 1:]


def _without(cards: tuple, gone) -> tuple:
    gone = set(gone)
    return tuple(c for c in cards if c not in gone)


def _take_from_player(s: State, seat: int, cards) -> State:
    """Remove cards from a seat's hand and stall, wherever each lies."""
    return replace(s, hands=_set(s.hands, seat, _without(s.hands[seat], cards)),
                   stalls=_set(s.stalls, seat, _without(s.stalls[seat], cards)))


def _to_hand(s: State, seat: int, cards) -> State:
    return replace(s, hands=_set(s.hands, seat, s.hands[seat] + tuple(cards)))


def _set_building(s: State, seat: int, i: int, b: Building | None) -> State:
    row = s.buildings[seat]
    row = row[:i] + row[i + 1:] if b is None else _set(row, i, b)
    return replace(s, buildings=_set(s.buildings, seat, row))


def _coins(s: State, seat: int, delta: int) -> State:
    return replace(s, coins=_set(s.coins, seat, s.coins[seat] + delta))


def _discard(s: State, cards, hidden: bool = False) -> State:
    """A13: cards go on the pile in order (see the module docstring for which lie face up).
    A card discarded in the open (a sale, a favor, the market, an exposed card) is `known`:
    everyone saw it go onto the pile, face up or not, so it is no secret while it lies
    there (hidden information: "a J/Q/K discarded for a favor"). Hidden and unseen ones
    (tax discards, production cards) are not."""
    cards = tuple(c for c in cards if c)
    pile = s.discard + cards
    known = s.known if hidden else s.known + cards
    if s.rules >= 2:
        return replace(s, discard=pile, face_up=pile[:FACE_UP_PLACES], known=known)
    up = s.face_up
    if not hidden:
        up = up + cards[:max(0, FACE_UP_PLACES - len(up))]
    return replace(s, discard=pile, face_up=up, known=known)


def _shrink(s: State, seat: int, i: int, removed) -> State:
    """Take `removed` building cards out (they go wherever the caller says); a farm that
    loses cards, or a building losing all, ceases to exist and everything left returns to the
    owner's hand, its production card discarded unseen (A8, A12)."""
    b = s.buildings[seat][i]
    left = _without(b.cards, removed)
    exposed = b.exposed if b.exposed in left else None
    if s.level(b) == 0 or not left:
        return _dissolve(s, seat, i, left)
    return _set_building(s, seat, i, replace(b, cards=left, exposed=exposed))


def _dissolve(s: State, seat: int, i: int, left) -> State:
    b = s.buildings[seat][i]
    s = _discard(s, [b.production], hidden=True)   # unseen (A8, A12)
    s = _to_hand(s, seat, [b.address, *left])
    return _set_building(s, seat, i, None)


def _started(_s, d):
    opts = d["options"]
    n = d["seats"]
    k = hand_size(opts["sizes"])
    deck = tuple(d["order"])
    hands = tuple(deck[i * k:(i + 1) * k] for i in range(n))
    return State(n=n, options=dict(opts), deck=deck[n * k:], hands=hands,
                 stalls=((),) * n, buildings=((),) * n, coins=(START_COINS,) * n,
                 herald=d["herald"], rules=started_version(d))


def _phase_began(s, d):
    return replace(s, round=d["round"], royal=d["royal"], stage="setup", turned=(),
                   offered=False, auction=None, visit=None)


def _reshuffled(s, d):
    return replace(s, deck=s.deck + tuple(d["order"]), discard=(), face_up=(), known=())


def _market_drawn(s, d):
    k = len(d["cards"])
    return replace(s, deck=s.deck[k:], market=s.market + tuple(d["cards"]))


def _cards_drawn(s, d):
    drawn = [c for c in d["cards"] if c]
    hands = tuple(h + ((c,) if c else ()) for h, c in zip(s.hands, d["cards"], strict=True))
    return replace(s, deck=s.deck[len(drawn):], hands=hands)


def _sealed_began(s, d):
    return replace(s, stage=d["kind"], sealed_seats=tuple(d["seats"]),
                   waiting=tuple(d["seats"]), choices={})


def _choice_made(s, d):
    seat = d["seat"]
    choices = dict(s.choices)
    choices[seat] = d["choice"]
    return replace(s, choices=choices, waiting=tuple(x for x in s.waiting if x != seat))


def _sealed_done(s):
    return dict(sealed_seats=(), waiting=(), choices={})


def _stalls_revealed(s, d):
    stalls = tuple(tuple(c) for c in d["stalls"])
    hands = tuple(_without(h, st) for h, st in zip(s.hands, stalls, strict=True))
    return replace(s, hands=hands, stalls=stalls, stage="turns", turned=(), **_sealed_done(s))


def _tax_paid(s, d):
    for seat, cards in enumerate(d["discards"]):
        s = _take_from_player(s, seat, cards)
        s = _discard(s, cards, hidden=True)        # A14: hidden, so face down
    return replace(s, stage="stalls", **_sealed_done(s))


def _ball_held(s, d):
    for seat, (given, back) in enumerate(zip(d["given"], d["returns"], strict=True)):
        s = _take_from_player(s, seat, given)
        s = _to_hand(s, seat, back)
    return replace(s, market=tuple(d["market"]), stage="stalls", **_sealed_done(s))


def _bids_revealed(s, d):
    """A16: a single top bidder pays the second-highest bid and picks; tied top bidders
    declare. Version 1 sold nothing on a top bid of 0; since version 2 (A16 as amended) 0 is
    a bid like any other, so when every bid is 0 all are tied top bidders and declare."""
    bids = d["bids"]
    placed = sorted((b for b in bids if b is not None), reverse=True)
    top = placed[0] if placed else 0
    order = s.order()
    tops = [x for x in order if bids[x] is not None and bids[x] == top]
    if (top == 0 and s.rules < 2) or not s.market:
        stage, auction = "stalls", None
    elif len(tops) == 1:
        second = placed[1] if len(placed) > 1 else 0
        stage, auction = "pick", {"bids": bids, "tied": tops, "price": second, "declared": []}
    else:
        stage, auction = "declare", {"bids": bids, "tied": tops, "price": top, "declared": []}
    return replace(s, stage=stage, auction=auction, **_sealed_done(s))


def _auction_taken(s, d):
    s = replace(s, market=_without(s.market, [d["card"]]), stage="stalls", auction=None)
    s = _to_hand(s, d["seat"], [d["card"]])
    return _coins(s, d["seat"], -d["price"])


def _declared(s, d):
    auction = dict(s.auction)
    auction["declared"] = auction["declared"] + [[d["seat"], d["card"]]]
    return replace(s, auction=auction)


def _declarations_settled(s, d):
    for seat, card in d["awards"]:
        s = replace(s, market=_without(s.market, [card]))
        s = _to_hand(s, seat, [card])
        s = _coins(s, seat, -d["price"])
    s = replace(s, market=_without(s.market, d["discarded"]))
    s = _discard(s, d["discarded"])
    return replace(s, stage="stalls", auction=None)


def _turn_began(s, d):
    return replace(s, stage="turn", active=d["seat"], actions=d["actions"],
                   turned=s.turned + (d["seat"],))


def _spent(s):
    return replace(s, actions=s.actions - 1)


def _traded(s, d):
    seat, give, take, src = d["seat"], d["give"], d["take"], d["from"]
    mine = tuple(take if c == give else c for c in s.stalls[seat])
    s = replace(s, stalls=_set(s.stalls, seat, mine))
    if src == "market":
        s = replace(s, market=tuple(give if c == take else c for c in s.market))
    else:
        theirs = tuple(give if c == take else c for c in s.stalls[src])
        s = replace(s, stalls=_set(s.stalls, src, theirs))
    return _spent(s)


def _stored(s, d):
    """A7: the card taken out goes where the incoming one came from; an exposed card swapped
    out ends the exposure."""
    seat, card, out = d["seat"], d["card"], d["out"]
    i = s.find(seat, d["building"])
    b = s.buildings[seat][i]
    b = replace(b, cards=tuple(card if c == out else c for c in b.cards),
                exposed=None if b.exposed == out else b.exposed)
    s = _set_building(s, seat, i, b)
    if card in s.stalls[seat]:
        s = replace(s, stalls=_set(s.stalls, seat,
                                   tuple(out if c == card else c for c in s.stalls[seat])))
    else:
        s = replace(s, hands=_set(s.hands, seat,
                                  tuple(out if c == card else c for c in s.hands[seat])))
    return _spent(s)


def _hid(s, d):
    s = _take_from_player(s, d["seat"], [d["card"]])
    return _spent(_to_hand(s, d["seat"], [d["card"]]))


def _sold(s, d):
    s = _discard(_take_from_player(s, d["seat"], d["cards"]), d["cards"])
    return _spent(_coins(s, d["seat"], 1))


def _harvested(s, d):
    seat = d["seat"]
    i = s.find(seat, d["building"])
    b = s.buildings[seat][i]
    s = _set_building(s, seat, i, replace(b, production=None))
    return _spent(_to_hand(s, seat, [d["card"]]))


def _favored(s, d):
    return _spent(_discard(_take_from_player(s, d["seat"], [d["card"]]), [d["card"]]))


def _royal_paid(s, d):
    return _spent(_coins(s, d["seat"], -1))


def _built(s, d):
    seat = d["seat"]
    s = _take_from_player(s, seat, [d["address"], *d["cards"]])
    row = s.buildings[seat] + (Building(d["address"], tuple(d["cards"])),)
    return replace(s, buildings=_set(s.buildings, seat, row))


def _upgraded(s, d):
    """A11: upgrading a farm discards its production card unseen."""
    seat = d["seat"]
    s = _take_from_player(s, seat, d["cards"])
    i = s.find(seat, d["building"])
    b = s.buildings[seat][i]
    s = _discard(s, [b.production], hidden=True)   # unseen (A11)
    return _set_building(s, seat, i, replace(b, cards=b.cards + tuple(d["cards"]),
                                             production=None))


def _visited(s, d):
    if d["paid"]:
        s = _coins(_coins(s, d["owner"], -1), d["seat"], 1)
    if d["mode"]:
        return replace(s, stage="visit", visit={"seat": d["seat"], "owner": d["owner"],
                                                "building": d["building"], "mode": d["mode"]})
    return s


def _exposed(s, d):
    if d["card"]:
        owner = d["owner"]
        i = s.find(owner, d["building"])
        s = _set_building(s, owner, i, replace(s.buildings[owner][i], exposed=d["card"]))
    return replace(s, stage="turn", visit=None)


def _exposed_discarded(s, d):
    """A12: château -> estate -> farm -> gone; cards back to the owner, production
    discarded unseen. Where one card less is no size (4-5-7), `returned` names the extra."""
    owner = d["owner"]
    i = s.find(owner, d["building"])
    s = _discard(s, [d["card"]])
    if d["returned"]:
        s = _to_hand(s, owner, d["returned"])
    s = _shrink(s, owner, i, [d["card"], *d["returned"]])
    return replace(s, stage="turn", visit=None)


def _visit_coin(s, d):
    if d["paid"]:
        s = _coins(_coins(s, d["owner"], -1), d["seat"], 1)
    return replace(s, stage="turn", visit=None)


def _bought(s, d):
    """A13: Buy takes a face-up card; the oldest face-down one turns up."""
    pile = _without(s.discard, [d["card"]])
    known = _without(s.known, [d["card"]])
    if s.rules >= 2:    # the 4 oldest are the face-up ones, always
        s = replace(s, discard=pile, face_up=pile[:FACE_UP_PLACES], known=known)
        return _to_hand(s, d["seat"], [d["card"]])
    up = _without(s.face_up, [d["card"]])
    down = [c for c in pile if c not in up]
    if down:
        turned = down[0]
        up = tuple(c for c in pile if c in up or c == turned)
    s = replace(s, discard=pile, face_up=up, known=known)
    return _to_hand(s, d["seat"], [d["card"]])


def _downgraded(s, d):
    seat = d["seat"]
    i = s.find(seat, d["building"])
    b = s.buildings[seat][i]
    if s.level(b) == 0 or len(d["cards"]) == len(b.cards):
        return _spent(_dissolve(s, seat, i, b.cards))   # the whole building comes home
    s = _to_hand(s, seat, d["cards"])
    return _spent(_shrink(s, seat, i, d["cards"]))


def _turn_ended(s, d):
    return replace(s, stage="turns", active=None, actions=0)


def _market_cleared(s, d):
    return replace(_discard(s, s.market), market=())


def _stalls_returned(s, d):
    hands = tuple(h + st for h, st in zip(s.hands, s.stalls, strict=True))
    return replace(s, hands=hands, stalls=((),) * s.n, stage="closing")


def _end_offered(s, d):
    return replace(s, stage="end", asked=tuple(d["seats"]), offered=True)


def _end_declined(s, d):
    asked = tuple(x for x in s.asked if x != d["seat"])
    return replace(s, asked=asked, stage="end" if asked else "closing")


def _phase_ended(s, d):
    """A18 income after the Queen; A17 production after the Jack, then the royals pass."""
    coins = tuple(c + g for c, g in zip(s.coins, d["income"], strict=True))
    s = replace(s, coins=coins)
    for seat, address, card in d["production"]:
        i = s.find(seat, address)
        s = _set_building(s, seat, i, replace(s.buildings[seat][i], production=card))
        s = replace(s, deck=s.deck[1:])
    nxt = ROYALS.index(s.royal) + 1
    if nxt == 3:
        return replace(s, stage="phase", royal="K", round=s.round + 1,
                       herald=(s.herald + 1) % s.n)
    return replace(s, stage="phase", royal=ROYALS[nxt])


def _end_choice_set(s, d):
    """A19 (rules 4): a player's private standing choice, end the game when able or not."""
    others = tuple(x for x in s.play_on if x != d["seat"])
    return replace(s, play_on=others if d["end"] else tuple(sorted(others + (d["seat"],))))


def _game_ended(s, d):
    order = s.order()
    key = {x: (s.points(x), s.coins[x], sum(value(c) for c in s.hands[x] + s.stalls[x]),
               -order.index(x)) for x in range(s.n)}
    winner = max(range(s.n), key=lambda x: key[x])
    result = {"how": d["how"], "by": d.get("by"), "winner": winner,
              "points": [key[x][0] for x in range(s.n)],
              "coins": list(s.coins),
              "hand_value": [key[x][2] for x in range(s.n)]}
    return replace(s, stage="over", result=result, active=None, asked=())


evolve = Fold("aristocracy", "GameStarted", {
    "GameStarted": _started, "PhaseBegan": _phase_began, "Reshuffled": _reshuffled,
    "MarketDrawn": _market_drawn, "CardsDrawn": _cards_drawn, "SealedBegan": _sealed_began,
    "ChoiceMade": _choice_made, "StallsRevealed": _stalls_revealed, "TaxPaid": _tax_paid,
    "BallHeld": _ball_held, "BidsRevealed": _bids_revealed, "AuctionTaken": _auction_taken,
    "Declared": _declared, "DeclarationsSettled": _declarations_settled,
    "TurnBegan": _turn_began, "Traded": _traded, "Stored": _stored, "Hid": _hid,
    "Sold": _sold, "Harvested": _harvested, "Favored": _favored, "RoyalPaid": _royal_paid,
    "Built": _built, "Upgraded": _upgraded, "Visited": _visited, "Exposed": _exposed,
    "ExposedDiscarded": _exposed_discarded, "VisitCoinTaken": _visit_coin,
    "Bought": _bought, "Downgraded": _downgraded, "TurnEnded": _turn_ended,
    "MarketCleared": _market_cleared, "StallsReturned": _stalls_returned,
    "EndOffered": _end_offered, "EndDeclined": _end_declined, "PhaseEnded": _phase_ended,
    "EndChoiceSet": _end_choice_set, "GameEnded": _game_ended,
})
