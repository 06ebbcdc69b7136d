"""What each seat may see (RULINGS, Aristocracy "Hidden information").

Hands: owner. Sealed choices: their maker until revealed (under `herald_order_commits` later
players see the card counts of earlier ones). Face-down building cards: owner, and the visitor
while the visit's follow-up is pending. Production cards: nobody. Draw pile: nobody. Public:
stalls after the reveal, the market, addresses, exposed cards, building sizes, coins, the
face-up discards (`State.face_up`: since rules version 2 always the 4 oldest, whoever
discarded them, A13 as amended; see state.py for version 1), and every card discarded in the
open (a J/Q/K for a favor, a sale, the market's leftovers: `State.known`), wherever it lies in
the pile. At the end every building card is turned up.

The history (`redact`) is history.py's.
"""
from __future__ import annotations

from ..cards import french
from ..contract import Outcome, english, places_by
from ..text import N_
from .flow import stall_value
from .rules import sealed_default, to_act
from .state import SEALED, State

NOTE = ("Some menus are representative samples (stalls, ball gifts, tax discards, builds, "
        "stores, sales, downgrades); any legal choice may be typed. Write cards as 7♥ or 7h; "
        "a card in both your hand and your stall is the hand one unless you write stall 7♥.")


#: the clause naming the seat that ended the game, and that seat's own
ENDED = (N_("{player} ended the game"), N_("you ended the game"))


def outcome(s: State) -> Outcome | None:
    r = s.result
    if r is None:
        return None
    # marked for the catalogs, so the result says it in the reader's language: a clause
    # naming the seat that ended it with that seat as {player}, and as its reader reads it
    # (service.display.seatview.ending)
    how = english(ENDED[0], {"player": _p(r["by"])}) if r["how"] == "ended" else \
        N_("the round cap was reached")
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


def _p(x) -> str:
    return "{p" + str(x) + "}"
