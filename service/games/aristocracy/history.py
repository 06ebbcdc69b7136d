"""Aristocracy's history (`redact`): what each seat may know of an event, and its sentence.

Each sentence is a template (service.games.text.said) the display says in the reader's
language, with the reader's own form when it is about them; its English `text` is what the
golden games record. Seats are written {p0}, {p1}...; cards by label ("7♥"), never by id, so a
card's later whereabouts cannot be read from the history; building kinds and royal actions
are the rule text's words. Private facts (own draws, tax discards, ball returns, a visitor's look) are told
to their seat only.
"""
from __future__ import annotations

from collections.abc import Callable

from ..cards import french
from ..contract import Event
from ..text import N_, joined, phrase, said
from .state import hand_size

L = french.label


def redact(e: Event, seat: int | None) -> dict | None:
    write = _WRITERS.get(e.type)
    told = write(e.data, seat) if write else None
    if told is None:
        return None
    out = {"type": e.type, **told}
    if "seat" in e.data:
        out["seat"] = e.data["seat"]
    return out


def _p(x) -> str:
    return "{p" + str(x) + "}"


def _cards(cards) -> dict | str:
    """Cards by label ("7♥ 8♦"); none is "nothing", ours to translate."""
    return " ".join(L(c) for c in cards) or phrase(N_("nothing"))


def _listed(items: list) -> dict | str:
    """Items as the English lists them, apart by semicolons ("{p0} 7♥; {p1} 8♦"): the
    semicolon ours to translate (French sets it apart by a space)."""
    if len(items) < 2:
        return items[0] if items else ""
    return phrase(N_("{one}; {more}"), one=items[0], more=_listed(items[1:]))


def _clause(template: str, mine: str | None, seat: int, **args) -> dict:
    """A part of a sentence about `seat` ("{player} gives 2"), a parameter of a `said`: the
    display gives it the reader's form ("you give 2") when the reader is `seat`."""
    return said(template, mine, seat, **args)["say"]


def _to_other(reader: int | None, other: int, sentence: dict, theirs: dict) -> dict:
    """`sentence` as told to `other`, a second seat it is about (the owner of the building
    visited, of the stall traded from), when that is the reader: `theirs` says it to them
    ("... visits your building"), which German and French cannot make of the name by rule.
    The English `text` stays the sentence's, as the golden games keep it."""
    if reader != other:
        return sentence
    return {"text": sentence["text"], "say": theirs["say"]}


# ------------------------------------------------------------------ one writer per event type

def _started(d, seat):
    begins = said(N_("The game begins; {player} is the first Herald."),
                  N_("The game begins; you are the first Herald."), d["herald"])
    if seat is None:
        return begins
    k = hand_size(d["options"]["sizes"])
    return joined(begins, said(N_("Your hand: {cards}."),
                               cards=_cards(d["order"][seat * k:(seat + 1) * k])))


#: a phase by its royal card: the card's name is ours to translate (the view names it too)
_PHASES = {"K": N_("Round {round}, the King phase begins."),
           "Q": N_("Round {round}, the Queen phase begins."),
           "J": N_("Round {round}, the Jack phase begins.")}


def _phase(d, seat):
    return said(_PHASES[d["royal"]], round=d["round"])


def _drawn(d, seat):
    mine = d["cards"][seat] if seat is not None else None
    if mine:
        return said(N_("Everyone draws a card; you draw {card}."), card=L(mine))
    return said(N_("Everyone draws a card."))


_SEALED = {"tax": N_("Sealed choice: tax discards (over the hand limit) from {seats}."),
           "ball": N_("Sealed choice: gifts to the ball from {seats}."),
           "bid": N_("Sealed choice: auction bids from {seats}."),
           "stall": N_("Sealed choice: stalls from {seats}.")}


def _sealed(d, seat):
    return said(_SEALED[d["kind"]], seats=", ".join(_p(x) for x in d["seats"]))


#: the reader's own sealed choice, by kind, and an empty one ("nothing" is no card list in
#: French: "vous ne choisissez rien")
_CHOSEN = {"tax": N_("You choose {choice} (tax)."), "ball": N_("You choose {choice} (ball)."),
           "bid": N_("You choose {choice} (bid)."), "stall": N_("You choose {choice} (stall).")}
_CHOSEN_NOTHING = {"tax": N_("You choose nothing (tax)."),
                   "ball": N_("You choose nothing (ball)."),
                   "stall": N_("You choose nothing (stall).")}


def _choice(d, seat):
    if d.get("auto"):      # A16: a player without coins bids 0, in the open
        # the reader's form as English has always said it ("bids" and all)
        return said(N_("{player} has no coins and bids 0."),
                    N_("You have no coins and bids 0."), d["seat"])
    if seat == d["seat"]:
        c, kind = d["choice"], d["kind"]
        if kind == "bid":
            return said(_CHOSEN[kind], choice=c)
        return said(_CHOSEN[kind], choice=_cards(c)) if c else said(_CHOSEN_NOTHING[kind])
    return said(N_("{player} has made their choice."), seat=d["seat"])


def _stall(x: int, cards) -> dict | str:
    if cards:
        return f"{_p(x)} {' '.join(L(c) for c in cards)}"
    return phrase(N_("{player} nothing"), player=_p(x))


def _stalls(d, seat):
    return said(N_("Stalls revealed: {stalls}."),
                stalls=_listed([_stall(x, c) for x, c in enumerate(d["stalls"])]))


def _tax(d, seat):
    parts = [_clause(N_("{player} discards {cards}"), N_("you discard {cards}"), x,
                     cards=_cards(c)) if x == seat else
             _clause(N_("{player} discards {count}"), None, x, count=len(c))
             for x, c in enumerate(d["discards"]) if c]
    if not parts:
        return said(N_("Tax: nobody discards."))
    return said(N_("Tax: {discards}."), discards=_listed(parts))


def _bids(d, seat):
    return said(N_("Bids: {bids}."), bids=_listed([f"{_p(x)} {b}" for x, b in
                                                   enumerate(d["bids"]) if b is not None]))


def _settled(d, seat):
    parts = [_clause(N_("{player} takes {card}"), N_("you take {card}"), x, card=L(c))
             for x, c in d["awards"]]
    if d["discarded"]:
        parts.append(phrase(N_("{cards} discarded"), cards=_cards(d["discarded"])))
    if not parts:
        return said(N_("Auction: nothing sold (price {price})."), price=d["price"])
    return said(N_("Auction: {settled} (price {price})."), settled=_listed(parts),
                price=d["price"])


def _ball(d, seat):
    gifts = [_clause(N_("{player} gives {count}"), N_("you give {count}"), x, count=len(g))
             for x, g in enumerate(d["given"]) if g]
    # clauses joined as written: the gifts, what was pooled, the reader's own exchange, the
    # market
    told = [said(N_("The ball: {gifts}"), gifts=_listed(gifts)) if gifts else
            said(N_("The ball: nobody gives anything"))]
    pooled = [c for g in d["given"] for c in g]
    if pooled and d.get("reveal"):
        told.append(said(N_(" (pooled: {cards})"), cards=_cards(pooled)))
    if seat is not None and d["given"][seat]:
        told.append(said(N_("; you gave {given} and get {returned}"),
                         given=_cards(d["given"][seat]), returned=_cards(d["returns"][seat])))
    told.append(said(N_(". Market: {cards}."), cards=_cards(d["market"])))
    return joined(*told, sep="")


def _traded(d, seat):
    give, take = L(d["give"]), L(d["take"])
    if d["from"] == "market":
        return said(N_("{player} trades {give} for {take} from the market."),
                    N_("You trade {give} for {take} from the market."), d["seat"],
                    give=give, take=take)
    owner = d["from"]
    return _to_other(seat, owner,
                     said(N_("{player} trades {give} for {take} from {owner}'s stall."),
                          N_("You trade {give} for {take} from {owner}'s stall."), d["seat"],
                          give=give, take=take, owner=_p(owner)),
                     said(N_("{player} trades {give} for {take} from your stall."),
                          seat=d["seat"], give=give, take=take))


def _stored(d, seat):
    if seat == d["seat"]:
        return said(N_("{player} stores {card} in the building at {building}, taking out "
                       "{out}."),
                    N_("You store {card} in the building at {building}, taking out {out}."),
                    d["seat"], card=L(d["card"]), building=L(d["building"]), out=L(d["out"]))
    return said(N_("{player} stores a card in the building at {building}."), seat=d["seat"],
                building=L(d["building"]))


def _harvested(d, seat):
    if seat == d["seat"]:
        return said(N_("{player} harvests the farm at {building} ({card})."),
                    N_("You harvest the farm at {building} ({card})."), d["seat"],
                    building=L(d["building"]), card=L(d["card"]))
    return said(N_("{player} harvests the farm at {building}."), seat=d["seat"],
                building=L(d["building"]))


def _visited(d, seat):
    visitor, owner, building = d["seat"], d["owner"], L(d["building"])
    if seat == visitor:        # the visitor alone is told what the building holds (A12)
        if d["paid"]:
            return said(N_("{player} visits {owner}'s building at {building} and sees "
                           "{cards}; {owner} pays a coin."),
                        N_("You visit {owner}'s building at {building} and see {cards}; "
                           "{owner} pays a coin."), visitor,
                        owner=_p(owner), building=building, cards=_cards(d["look"]))
        return said(N_("{player} visits {owner}'s building at {building} and sees {cards}."),
                    N_("You visit {owner}'s building at {building} and see {cards}."),
                    visitor, owner=_p(owner), building=building, cards=_cards(d["look"]))
    if d["paid"]:
        return _to_other(seat, owner,
                         said(N_("{player} visits {owner}'s building at {building}; {owner} "
                                 "pays a coin."), seat=visitor, owner=_p(owner),
                              building=building),
                         said(N_("{player} visits your building at {building}; you pay a "
                                 "coin."), seat=visitor, building=building))
    return _to_other(seat, owner,
                     said(N_("{player} visits {owner}'s building at {building}."),
                          seat=visitor, owner=_p(owner), building=building),
                     said(N_("{player} visits your building at {building}."), seat=visitor,
                          building=building))


def _exposed(d, seat):
    if d["card"]:
        return said(N_("{player} exposes {card}."), N_("You expose {card}."), d["seat"],
                    card=L(d["card"]))
    return said(N_("{player} exposes nothing."), N_("You expose nothing."), d["seat"])


def _exposed_discarded(d, seat):
    card, owner = L(d["card"]), d["owner"]
    return _to_other(seat, owner,
                     said(N_("{player} discards the exposed {card} from {owner}'s building."),
                          N_("You discard the exposed {card} from {owner}'s building."),
                          d["seat"], card=card, owner=_p(owner)),
                     said(N_("{player} discards the exposed {card} from your building."),
                          seat=d["seat"], card=card))


def _coin(d, seat):
    owner = d["owner"]
    if d["paid"]:
        return _to_other(seat, owner,
                         said(N_("{player} takes a coin from {owner}."),
                              N_("You take a coin from {owner}."), d["seat"], owner=_p(owner)),
                         said(N_("{player} takes a coin from you."), seat=d["seat"]))
    return _to_other(seat, owner,
                     said(N_("{player} asks for a coin, but {owner} has none."),
                          N_("You ask for a coin, but {owner} has none."), d["seat"],
                          owner=_p(owner)),
                     said(N_("{player} asks for a coin, but you have none."), seat=d["seat"]))


def _downgraded(d, seat):
    building, cards = L(d["building"]), d["cards"]
    if seat == d["seat"]:
        return said(N_("{player} downgrades the building at {building} (taking {cards})."),
                    N_("You downgrade the building at {building} (taking {cards})."),
                    d["seat"], building=building, cards=_cards(cards))
    if len(cards) == 1:   # English has always said "1 cards" (see the module's docstring)
        return said(N_("{player} downgrades the building at {building} (taking 1 cards)."),
                    seat=d["seat"], building=building)
    return said(N_("{player} downgrades the building at {building} (taking {count} cards)."),
                seat=d["seat"], building=building, count=len(cards))


def _phase_ended(d, seat):
    told = [said(N_("The phase ends."))]
    gains = [f"{_p(x)} +{g}" for x, g in enumerate(d["income"]) if g]
    if gains:
        told.append(said(N_("Income: {gains}."), gains=", ".join(gains)))
    farms = len(d["production"])
    if farms == 1:
        told.append(said(N_("1 farm produces.")))
    elif farms:
        told.append(said(N_("{count} farms produce."), count=farms))
    return joined(*told)


def _turn_began(d, seat):
    if d["actions"] == 1:
        return said(N_("{player} takes a turn with 1 action."),
                    N_("You take a turn with 1 action."), d["seat"])
    return said(N_("{player} takes a turn with {count} actions."),
                N_("You take a turn with {count} actions."), d["seat"], count=d["actions"])


def _built(d, seat):
    address, count = L(d["address"]), len(d["cards"])
    if count == 1:
        return said(N_("{player} builds at {address} with 1 face-down card."),
                    N_("You build at {address} with 1 face-down card."), d["seat"],
                    address=address)
    return said(N_("{player} builds at {address} with {count} face-down cards."),
                N_("You build at {address} with {count} face-down cards."), d["seat"],
                address=address, count=count)


def _upgraded(d, seat):
    building, count = L(d["building"]), len(d["cards"])
    if count == 1:
        return said(N_("{player} adds 1 card to the building at {building}."),
                    N_("You add 1 card to the building at {building}."), d["seat"],
                    building=building)
    return said(N_("{player} adds {count} cards to the building at {building}."),
                N_("You add {count} cards to the building at {building}."), d["seat"],
                building=building, count=count)


def _end_choice(d, seat):
    """A19 amended: the standing choice is its owner's alone; nobody else gets an entry."""
    if seat != d["seat"]:
        return None
    return said(N_("You will end the game when you can.") if d["end"] else
                N_("You play on: you will not end the game."))


def _game_ended(d, seat):
    if d["how"] == "ended":
        return said(N_("{player} ends the game."), N_("You end the game."), d["by"])
    return said(N_("The round cap is reached; the game ends."))


def _mover(template: str, mine: str, *fields: str) -> Callable[[dict, int | None], dict]:
    """A public sentence about the mover, its parameters the event's fields of those names: a
    card by label, and `cards`, a list of them."""
    def write(d, seat):
        return said(template, mine, d["seat"],
                    **{f: _cards(d[f]) if f == "cards" else L(d[f]) for f in fields})
    return write


_WRITERS: dict[str, Callable[[dict, int | None], dict | None]] = {
    "GameStarted": _started,
    "PhaseBegan": _phase,
    "Reshuffled": lambda d, seat: said(N_("The discard pile is shuffled into a new deck.")),
    "MarketDrawn": lambda d, seat: said(N_("The market gets {cards}."), cards=_cards(d["cards"])),
    "CardsDrawn": _drawn,
    "SealedBegan": _sealed,
    "ChoiceMade": _choice,
    "StallsRevealed": _stalls,
    "TaxPaid": _tax,
    "BallHeld": _ball,
    "BidsRevealed": _bids,
    "AuctionTaken": lambda d, seat: said(N_("{player} buys {card} for {price}."),
                                         N_("You buy {card} for {price}."), d["seat"],
                                         card=L(d["card"]), price=d["price"]),
    "Declared": _mover(N_("{player} declares {card}."), N_("You declare {card}."), "card"),
    "DeclarationsSettled": _settled,
    "TurnBegan": _turn_began,
    "Traded": _traded,
    "Stored": _stored,
    "Hid": _mover(N_("{player} hides {card}."), N_("You hide {card}."), "card"),
    "Sold": _mover(N_("{player} sells {cards} for a coin."),
                   N_("You sell {cards} for a coin."), "cards"),
    "Harvested": _harvested,
    # public: the card is shown as it is played (hidden information, as amended)
    "Favored": _mover(N_("{player} discards {card} for a favor."),
                      N_("You discard {card} for a favor."), "card"),
    "RoyalPaid": _mover(N_("{player} pays a coin for the royal action."),
                        N_("You pay a coin for the royal action.")),
    "Built": _built,
    "Upgraded": _upgraded,
    "Visited": _visited,
    "Exposed": _exposed,
    "ExposedDiscarded": _exposed_discarded,
    "VisitCoinTaken": _coin,
    "Bought": _mover(N_("{player} buys {card} from the discard pile."),
                     N_("You buy {card} from the discard pile."), "card"),
    "Downgraded": _downgraded,
    "TurnEnded": _mover(N_("{player} ends their turn."), N_("You end your turn.")),
    "MarketCleared": lambda d, seat: said(N_("The market ({cards}) is discarded."),
                                          cards=_cards(d["cards"])),
    "StallsReturned": lambda d, seat: said(N_("Stall cards go back to their owners' hands.")),
    "EndOffered": lambda d, seat: said(N_("May end the game: {seats}."),
                                       seats=", ".join(_p(x) for x in d["seats"])),
    "EndDeclined": _mover(N_("{player} does not end the game."),
                          N_("You do not end the game.")),
    "EndChoiceSet": _end_choice,
    "PhaseEnded": _phase_ended,
    "GameEnded": _game_ended,
}
