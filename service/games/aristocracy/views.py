"""What each seat may see (RULINGS, Aristocracy "Hidden information").

Hands: owner. Sealed choices: their maker until revealed (under `herald_order_commits` later
players see the card counts of earlier ones). Face-down building cards: owner, and the visitor
while the visit's follow-up is pending. Production cards: nobody. Draw pile: nobody. Public:
stalls after the reveal, the market, addresses, exposed cards, building sizes, coins, the
face-up discards (`State.face_up`: since rules version 2 always the 4 oldest, whoever
discarded them, A13 as amended; see state.py for version 1), and every card discarded in the
open (a J/Q/K for a favor, a sale, the market's leftovers: `State.known`), wherever it lies in
the pile. At the end every building card is turned up.

History (`redact`) names cards by label ("7♥") and never by id, so a card's later
whereabouts cannot be read from it; private facts (own draws, tax discards, ball returns, a
visitor's look) are told to their seat only.
"""
from __future__ import annotations

from collections.abc import Callable

from ..cards import french
from ..contract import Event, Outcome, places_by
from .flow import stall_value
from .rules import sealed_default, to_act
from .state import SEALED, State, hand_size

NOTE = ("Some menus are representative samples (stalls, ball gifts, tax discards, builds, "
        "stores, sales, downgrades); any legal choice may be typed. Write cards as 7♥ or 7h; "
        "a card in both your hand and your stall is the hand one unless you write stall 7♥.")


def _label(cards) -> str:
    return " ".join(french.label(c) for c in cards) or "nothing"


def outcome(s: State) -> Outcome | None:
    r = s.result
    if r is None:
        return None
    how = f"{_p(r['by'])} ended the game" if r["how"] == "ended" else "the round cap was reached"
    # A19 places every seat the way it picks the winner: points, coins, hand value, then
    # Herald order (the Herald first), so no two seats share a place
    order = s.order()
    places = places_by([(r["points"][x], r["coins"][x], r["hand_value"][x], -order.index(x))
                        for x in range(s.n)])
    return Outcome(scores=tuple(float(p) for p in r["points"]), winners=(r["winner"],),
                   how=how, detail={"coins": r["coins"], "hand_value": r["hand_value"],
                                    "tiebreak": "points, then coins, then hand value, then "
                                                "Herald order (A19)"}, places=places)


def _building_view(s: State, b, show: bool) -> dict:
    return {"address": b.address, "kind": s.kind(b), "size": len(b.cards) + 1,
            "exposed": b.exposed, "production": b.production is not None,
            "cards": list(b.cards) if show else None,
            "complete": b.complete() if show else None}


def freshness(s: State, seat: int | None) -> dict:
    """What a seat's links depend on (service.linking.freshness): its view, less the progress of a
    sealed round — who has chosen so far changes nothing a seat may decide (A3), so another
    seat's choice neither makes this seat's links stale nor sends it an email."""
    v = view(s, seat)
    if s.stage in SEALED:
        v.pop("to_act", None)
        v["sealed"].pop("waiting", None)
        v["sealed"].pop("chosen", None)
        for p in v["players"]:
            p.pop("chosen", None)
    return v


def _player_view(s: State, x: int, seat: int | None) -> dict:
    over = s.stage == "over"
    sealed = s.stage in SEALED
    return {
        "seat": x, "ref": f"p{x + 1}", "coins": s.coins[x], "hand_size": len(s.hands[x]),
        "stall": list(s.stalls[x]), "stall_value": stall_value(s, x),
        "buildings": [_building_view(s, b, over or x == seat) for b in s.buildings[x]],
        "points_shown": s.points(x) if over else None,
        "hand_limit": s.hand_limit(x),
        "chosen": (x in s.choices) if sealed and x in s.sealed_seats else None,
        "had_turn": x in s.turned,
    }


def _sealed_view(s: State, seat: int | None) -> dict:
    """A3: who takes part and who has chosen; a seat's own choice and its default; under
    `herald_order_commits` the card counts of those who chose."""
    out = {"kind": s.stage, "seats": list(s.sealed_seats), "waiting": list(s.waiting),
           "chosen": [x for x in s.sealed_seats if x in s.choices]}
    if s.options["herald_order_commits"] and s.stage != "bid":
        out["counts"] = {str(x): len(s.choices[x]) for x in s.choices}
    if seat is not None and seat in s.sealed_seats:
        out["mine"] = s.choices.get(seat)
        out["default"] = sealed_default(s, seat) if seat in s.waiting else None
        if s.stage == "tax":
            out["discard_count"] = len(s.hands[seat]) - s.hand_limit(seat)
    return out


def _visit_view(s: State, seat: int | None) -> dict:
    """A12: the visitor alone sees the building cards while the follow-up is pending."""
    vis = s.visit
    out = {"seat": vis["seat"], "owner": vis["owner"], "building": vis["building"],
           "mode": vis["mode"]}
    if seat == vis["seat"]:
        b = s.buildings[vis["owner"]][s.find(vis["owner"], vis["building"])]
        out["look"] = list(b.cards)
    return out


def view(s: State, seat: int | None) -> dict:
    v = {
        "game": "aristocracy", "seat": seat, "to_act": sorted(to_act(s)),
        "outcome": outcome(s).to_json() if s.result else None,
        "round": s.round, "round_cap": s.options["round_cap"], "royal": s.royal,
        "royal_action": {"K": "build", "Q": "visit", "J": "buy"}[s.royal],
        "stage": s.stage, "herald": s.herald, "herald_order": s.order(),
        "sizes": s.options["sizes"], "market": list(s.market),
        "discard_face_up": list(s.face_up), "discard_count": len(s.discard),
        "deck_count": len(s.deck), "players": [_player_view(s, x, seat) for x in range(s.n)],
        "active": s.active, "actions_left": s.actions if s.active is not None else None,
        "note": NOTE, "last": None,
    }
    if s.stage in SEALED:
        v["sealed"] = _sealed_view(s, seat)
    if s.auction:
        v["auction"] = {"bids": s.auction["bids"], "price": s.auction["price"],
                        "tied": s.auction["tied"], "declared": s.auction["declared"]}
    if s.stage == "end":
        v["may_end"] = list(s.asked)
    if s.visit:
        v["visit"] = _visit_view(s, seat)
    if seat is not None:
        v["hand"] = list(s.hands[seat])
        v["hand_value"] = sum(french.value(c) for c in s.hands[seat])
        if s.rules >= 4 and 0 <= seat < s.n:
            # A19 amended: the seat's own standing choice, private to it
            v["end_when_able"] = seat not in s.play_on
    return v


def secrets(s: State, seat: int | None) -> set[str]:
    """Cards whose whereabouts `seat` may not know. In the discard pile only the face-down
    cards nobody saw go in: the face-up ones (A13: since version 2 the 4 oldest, so a tax or
    production card among them is public too) and the ones discarded in the open (a favor's
    J/Q/K, a sale, the market: `State.known`) are public wherever they lie in it."""
    out = set(s.deck) | (set(s.discard) - set(s.face_up) - set(s.known))
    looking = s.visit if s.visit and s.visit["seat"] == seat else None
    for x in range(s.n):
        for b in s.buildings[x]:
            if b.production:
                out.add(b.production)
            if s.stage == "over" or x == seat:
                continue
            if looking and looking["owner"] == x and looking["building"] == b.address:
                continue
            out |= {c for c in b.cards if c != b.exposed}
        if x != seat:
            out |= set(s.hands[x])
    return out


def zones(s: State) -> dict[str, list[str]]:
    up = set(s.face_up)
    z = {"deck": list(s.deck), "discard": [c for c in s.discard if c in up],
         "discard:face-down": [c for c in s.discard if c not in up], "market": list(s.market)}
    for x in range(s.n):
        z[f"hand:{x}"] = list(s.hands[x])
        z[f"stall:{x}"] = list(s.stalls[x])
        for b in s.buildings[x]:
            z[f"building:{x}:{b.address}"] = [b.address, *b.cards]
            if b.production:
                z[f"production:{x}:{b.address}"] = [b.production]
    return z


# ---------------------------------------------------------------- history


def redact(e: Event, seat: int | None) -> dict | None:
    d = e.data
    text = _text(e.type, d, seat)
    if text is None:
        return None
    out = {"type": e.type, "text": text}
    if "seat" in d:
        out["seat"] = d["seat"]
    return out


def _p(x) -> str:
    return "{p" + str(x) + "}"


# One writer per event type: (data, reader's seat) -> sentence, or None for no entry.
# Seats are written {p0}, {p1}...; cards by label, never by id.

L = french.label


def _started_text(d, seat):
    text = f"The game begins; {_p(d['herald'])} is the first Herald."
    if seat is not None:
        k = hand_size(d["options"]["sizes"])
        text += f" Your hand: {_label(d['order'][seat * k:(seat + 1) * k])}."
    return text


def _phase_text(d, seat):
    name = {"K": "King", "Q": "Queen", "J": "Jack"}[d["royal"]]
    return f"Round {d['round']}, the {name} phase begins."


def _drawn_text(d, seat):
    mine = d["cards"][seat] if seat is not None else None
    return "Everyone draws a card" + (f"; you draw {L(mine)}." if mine else ".")


def _sealed_text(d, seat):
    what = {"tax": "tax discards (over the hand limit)", "ball": "gifts to the ball",
            "bid": "auction bids", "stall": "stalls"}[d["kind"]]
    return f"Sealed choice: {what} from " + ", ".join(_p(x) for x in d["seats"]) + "."


def _choice_text(d, seat):
    if d.get("auto"):      # A16: a player without coins bids 0, in the open
        return f"{_p(d['seat'])} has no coins and bids 0."
    if seat == d["seat"]:
        c = d["choice"]
        return f"You choose {c if d['kind'] == 'bid' else _label(c)} ({d['kind']})."
    return f"{_p(d['seat'])} has made their choice."


def _stalls_text(d, seat):
    return "Stalls revealed: " + "; ".join(
        f"{_p(x)} {_label(c)}" for x, c in enumerate(d["stalls"])) + "."


def _tax_text(d, seat):
    parts = [f"{_p(x)} discards {_label(c) if x == seat else len(c)}"
             for x, c in enumerate(d["discards"]) if c]
    return "Tax: " + ("; ".join(parts) or "nobody discards") + "."


def _bids_text(d, seat):
    return "Bids: " + "; ".join(f"{_p(x)} {b}" for x, b in enumerate(d["bids"])
                                if b is not None) + "."


def _settled_text(d, seat):
    parts = [f"{_p(x)} takes {L(c)}" for x, c in d["awards"]]
    if d["discarded"]:
        parts.append(f"{_label(d['discarded'])} discarded")
    return "Auction: " + ("; ".join(parts) or "nothing sold") + f" (price {d['price']})."


def _ball_text(d, seat) -> str:
    counts = "; ".join(f"{_p(x)} gives {len(g)}" for x, g in enumerate(d["given"]) if g)
    text = "The ball: " + (counts or "nobody gives anything")
    pooled = [c for g in d["given"] for c in g]
    if pooled and d.get("reveal"):
        text += f" (pooled: {_label(pooled)})"
    if seat is not None and d["given"][seat]:
        text += (f"; you gave {_label(d['given'][seat])} and get "
                 f"{_label(d['returns'][seat])}")
    return text + f". Market: {_label(d['market'])}."


def _traded_text(d, seat):
    src = "the market" if d["from"] == "market" else f"{_p(d['from'])}'s stall"
    return f"{_p(d['seat'])} trades {L(d['give'])} for {L(d['take'])} from {src}."


def _stored_text(d, seat):
    own = seat == d["seat"]
    return (f"{_p(d['seat'])} stores {L(d['card']) if own else 'a card'} in the building at "
            f"{L(d['building'])}" + (f", taking out {L(d['out'])}." if own else "."))


def _harvested_text(d, seat):
    mine = f" ({L(d['card'])})" if seat == d["seat"] else ""
    return f"{_p(d['seat'])} harvests the farm at {L(d['building'])}{mine}."


def _visited_text(d, seat):
    text = f"{_p(d['seat'])} visits {_p(d['owner'])}'s building at {L(d['building'])}"
    if seat == d["seat"]:
        text += f" and sees {_label(d['look'])}"
    if d["paid"]:
        text += f"; {_p(d['owner'])} pays a coin"
    return text + "."


def _exposed_text(d, seat):
    p = _p(d["seat"])
    return f"{p} exposes {L(d['card'])}." if d["card"] else f"{p} exposes nothing."


def _coin_text(d, seat):
    p, owner = _p(d["seat"]), _p(d["owner"])
    return f"{p} takes a coin from {owner}." if d["paid"] else \
        f"{p} asks for a coin, but {owner} has none."


def _downgraded_text(d, seat):
    what = _label(d["cards"]) if seat == d["seat"] else f"{len(d['cards'])} cards"
    return (f"{_p(d['seat'])} downgrades the building at {L(d['building'])} "
            f"(taking {what}).")


def _phase_ended_text(d, seat):
    parts = [f"{_p(x)} +{g}" for x, g in enumerate(d["income"]) if g]
    text = "The phase ends."
    if parts:
        text += " Income: " + ", ".join(parts) + "."
    if d["production"]:
        text += f" {len(d['production'])} farms produce."
    return text


def _end_choice_text(d, seat):
    """A19 amended: the standing choice is its owner's alone; nobody else gets an entry."""
    if seat != d["seat"]:
        return None
    return ("You will end the game when you can." if d["end"] else
            "You play on: you will not end the game.")


def _game_ended_text(d, seat):
    return f"{_p(d['by'])} ends the game." if d["how"] == "ended" else \
        "The round cap is reached; the game ends."


_TEXTS: dict[str, Callable[[dict, int | None], str | None]] = {
    "GameStarted": _started_text,
    "PhaseBegan": _phase_text,
    "Reshuffled": lambda d, seat: "The discard pile is shuffled into a new deck.",
    "MarketDrawn": lambda d, seat: f"The market gets {_label(d['cards'])}.",
    "CardsDrawn": _drawn_text,
    "SealedBegan": _sealed_text,
    "ChoiceMade": _choice_text,
    "StallsRevealed": _stalls_text,
    "TaxPaid": _tax_text,
    "BallHeld": _ball_text,
    "BidsRevealed": _bids_text,
    "AuctionTaken": lambda d, seat: (f"{_p(d['seat'])} buys {L(d['card'])} "
                                     f"for {d['price']}."),
    "Declared": lambda d, seat: f"{_p(d['seat'])} declares {L(d['card'])}.",
    "DeclarationsSettled": _settled_text,
    "TurnBegan": lambda d, seat: (f"{_p(d['seat'])} takes a turn with {d['actions']} "
                                  f"action{'' if d['actions'] == 1 else 's'}."),
    "Traded": _traded_text,
    "Stored": _stored_text,
    "Hid": lambda d, seat: f"{_p(d['seat'])} hides {L(d['card'])}.",
    "Sold": lambda d, seat: f"{_p(d['seat'])} sells {_label(d['cards'])} for a coin.",
    "Harvested": _harvested_text,
    # public: the card is shown as it is played (hidden information, as amended)
    "Favored": lambda d, seat: f"{_p(d['seat'])} discards {L(d['card'])} for a favor.",
    "RoyalPaid": lambda d, seat: f"{_p(d['seat'])} pays a coin for the royal action.",
    "Built": lambda d, seat: (f"{_p(d['seat'])} builds at {L(d['address'])} with "
                              f"{len(d['cards'])} face-down cards."),
    "Upgraded": lambda d, seat: (f"{_p(d['seat'])} adds {len(d['cards'])} cards to the "
                                 f"building at {L(d['building'])}."),
    "Visited": _visited_text,
    "Exposed": _exposed_text,
    "ExposedDiscarded": lambda d, seat: (f"{_p(d['seat'])} discards the exposed "
                                         f"{L(d['card'])} from {_p(d['owner'])}'s building."),
    "VisitCoinTaken": _coin_text,
    "Bought": lambda d, seat: f"{_p(d['seat'])} buys {L(d['card'])} from the discard pile.",
    "Downgraded": _downgraded_text,
    "TurnEnded": lambda d, seat: f"{_p(d['seat'])} ends their turn.",
    "MarketCleared": lambda d, seat: f"The market ({_label(d['cards'])}) is discarded.",
    "StallsReturned": lambda d, seat: "Stall cards go back to their owners' hands.",
    "EndOffered": lambda d, seat: ("May end the game: " + ", ".join(_p(x) for x in d["seats"])
                                   + "."),
    "EndDeclined": lambda d, seat: f"{_p(d['seat'])} does not end the game.",
    "EndChoiceSet": _end_choice_text,
    "PhaseEnded": _phase_ended_text,
    "GameEnded": _game_ended_text,
}


def _text(t: str, d: dict, seat: int | None) -> str | None:
    write = _TEXTS.get(t)
    return write(d, seat) if write else None
