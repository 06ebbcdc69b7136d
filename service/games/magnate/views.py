"""What each seat may see (RULINGS "Hidden information": hands and deed preferences are the
owner's alone, the draw pile nobody's; everything else is public), history sentences, zones."""
from __future__ import annotations

from ..cards import decktet
from ..contract import Event
from . import rules as R
from .scoring import standings
from .state import SUITS, State, unvec


def _tokens(v) -> dict:
    return {s: n for s, n in zip(SUITS, v)}


def _district_name(st: State, d: int) -> str:
    c = st.districts[d]
    return decktet.name(c) if c else f"district {d + 1}"


def end_text(st: State) -> str:
    if st.phase == "over":
        return "the game is over"
    if st.final_left is not None:
        left = final_turns(st)
        return ("this is the last turn" if left == 1 else f"{left} turns left "
                "(final turns: no more draws)")
    ordinal = {1: "first", 2: "second", 3: "third"}[st.pile]
    last = st.pile == st.piles
    return (f"{ordinal} of {st.piles} draw piles, {len(st.draw)} cards left"
            + (": the game ends when it runs out" if last else ""))


def final_turns(st: State) -> int | None:
    """Turns left once the end is near, the current one included if it is a final turn
    (a turn still drawing or asking about an Ace is the one that used the last pile up)."""
    if st.final_left is None or st.phase == "over":
        return None
    return st.final_left + (0 if st.phase in ("draw", "ask") else 1)


def view(st: State, seat: int | None) -> dict:
    sd = standings(st)
    districts = []
    for d, dist in enumerate(st.districts):
        cols = []
        for s in st.contest[d]:
            cols.append({"seat": s, "total": sd["totals"][d][s], "cards": [
                {"card": x.card} if x.developed else
                {"card": x.card, "deed": True, "tokens": unvec(x.on),
                 "needs": R.cost(x.card, st.modern) - sum(x.on)}
                for x in st.players[s].columns[d]]})
        districts.append({"number": d + 1, "card": dist or None,
                          "name": _district_name(st, d),
                          "suits": decktet.suits(dist) if dist else "",
                          "open": R.district_open(st, d), "contestants": list(st.contest[d]),
                          "columns": cols, "leader": sd["leaders"][d]})
    players = [{"seat": s, "tokens": _tokens(p.tokens), "token_total": sum(p.tokens),
                "crowns": list(p.crowns), "hand_size": len(p.hand),
                "districts_led": sd["points"][s], "developed": sd["developed"][s]}
               for s, p in enumerate(st.players)]
    out = {
        "game": "magnate", "seat": seat,
        "to_act": sorted(to_act(st)),
        "outcome": st.outcome,
        "ruleset": st.options["ruleset"],
        "variants": {k: v for k, v in st.options.items() if k not in ("deck", "ruleset")},
        "turn": st.turn if st.phase != "over" else None,
        "turn_number": st.turns,
        "phase": st.phase,
        "plays_left": st.plays_left,
        "districts": districts,
        "players": players,
        "roll": _roll(st),
        "draw_count": len(st.draw),
        "discard_count": len(st.discard),
        "discard": list(st.discard),
        "removed": list(st.removed),
        "pile": st.pile, "piles": st.piles,
        "final_turns_left": final_turns(st),
        "end": end_text(st),
    }
    if seat is not None:
        p = st.players[seat]
        out["hand"] = list(p.hand)
        # M19/M16: own standing choices only; the effective income suit of every deed
        out["deed_income"] = [{"card": x.card, "suit": R.income_suit(p, x.card),
                               "chosen": p.pref(x.card) is not None}
                              for _d, x in R.deeds(p) if R.pref_choices(x.card)]
        out["replace_aces"] = p.aces if st.options["replace_ace"] else None
        out["asked"] = st.asked if st.phase == "ask" and st.turn == seat else None
    return out


def _roll(st: State) -> dict | None:
    r = st.last_roll
    if not r:
        return None
    return {"seat": r["seat"], "dice": list(r["dice"]), "high": r["high"],
            "tax_dice": list(r["tax_dice"]), "taxed": list(r["taxed"]),
            "lost": [_tokens(v) for v in r["lost"]],
            "income": [_tokens(v) for v in r["income"]],
            "paid": [{"seat": s, "card": c, "suits": x} for s, c, x in r["paid"]]}


def to_act(st: State) -> frozenset[int]:
    return frozenset() if st.phase == "over" else frozenset([st.turn])


def _toks(pay: dict) -> str:
    from .commands import pay_text
    return pay_text(pay) if pay else "nothing"


def redact(event: Event, seat: int | None) -> dict | None:
    d = event.data
    t = event.type
    who = f"{{p{d['seat']}}}" if "seat" in d else ""
    mine = seat is not None and d.get("seat") == seat
    name = decktet.name(d["card"]) if "card" in d else ""
    if t == "GameStarted":
        out = {"type": t, "first": d["first"], "districts": d["districts"],
               "crowns": d["crowns"], "draw_count": len(d["draw"]),
               "text": f"The game began; {{p{d['first']}}} goes first."}
        if seat is not None:
            out["hand"] = list(d["hands"][seat])
        return out
    if t == "Rolled":
        text = f"{who} rolled {d['dice'][0]} and {d['dice'][1]}"
        if d["taxed"]:
            text += "; taxation on " + " and ".join(decktet.SUIT_NAMES[s] for s in d["taxed"])
        text += f"; income on {d['high']}"
        gains = [f"{{p{s}}} +{sum(v)}" for s, v in enumerate(d["income"]) if sum(v)]
        text += (": " + ", ".join(gains) if gains else ": nobody collects") + "."
        return {"type": t, "seat": d["seat"], "dice": d["dice"], "tax_dice": d["tax_dice"],
                "taxed": d["taxed"], "lost": d["lost"], "income": d["income"],
                "paid": d["paid"], "text": text}
    if t == "Bought":
        return {"type": t, "seat": d["seat"], "card": d["card"], "district": d["district"],
                "pay": d["pay"], "text": f"{who} developed {name} in district {d['district']} "
                                         f"for {_toks(d['pay'])}."}
    if t == "DeedBought":
        return {"type": t, "seat": d["seat"], "card": d["card"], "district": d["district"],
                "text": f"{who} bought the deed to {name} in district {d['district']}."}
    if t == "DeedAdded":
        done = " and completed it" if d["completed"] else ""
        return {"type": t, "seat": d["seat"], "card": d["card"], "pay": d["pay"],
                "completed": d["completed"],
                "text": f"{who} put {_toks(d['pay'])} on {name}{done}."}
    if t == "Sold":
        return {"type": t, "seat": d["seat"], "card": d["card"], "gain": d["gain"],
                "text": f"{who} sold {name} for {_toks(d['gain'])}."}
    if t == "Traded":
        return {"type": t, "seat": d["seat"], "give": d["give"], "get": d["get"],
                "text": f"{who} traded 3 {decktet.SUIT_NAMES[d['give']]} for 1 "
                        f"{decktet.SUIT_SINGULAR[d['get']]}."}
    if t in ("PreferenceSet", "AceSettingSet"):
        if not mine:
            return None                      # hidden standing choices (M16, M19)
        what = (f"{decktet.SUIT_NAMES[d['suit']]} from {name}" if t == "PreferenceSet"
                else f"replace aces: {d['mode']}")
        return {"type": t, **dict(d), "text": f"You set {what}."}
    if t == "Reshuffled":
        return {"type": t, "pile": d["pile"], "count": len(d["order"]),
                "text": f"The discards were shuffled into draw pile {d['pile']} "
                        f"({len(d['order'])} cards)."}
    if t == "Drew":
        if mine:
            return {"type": t, "seat": d["seat"], "card": d["card"], "ask": d["ask"],
                    "text": f"{who} drew {name}."
                            + (" Keep it or replace it?" if d["ask"] else "")}
        return {"type": t, "seat": d["seat"], "text": f"{who} drew a card."}
    if t == "EndTriggered":
        return {"type": t, "text": "The last draw pile is used up: each player takes one "
                                   "final turn without drawing."}
    if t == "AceKept":
        if mine:
            return {"type": t, "seat": d["seat"], "card": d["card"],
                    "text": f"{who} kept {name}."}
        return {"type": t, "seat": d["seat"], "text": f"{who} kept the card drawn."}
    if t == "AceReplaced":
        suit = decktet.SUIT_SINGULAR[decktet.suits(d["card"])]
        return {"type": t, "seat": d["seat"], "card": d["card"],
                "text": f"{who} replaced {name}: everyone gains a {suit} token."}
    if t == "GameEnded":
        o = d["outcome"]
        win = " and ".join(f"{{p{s}}}" for s in o["winners"])
        text = ("The game ended in a draw." if len(o["winners"]) > 1
                else f"The game ended: {win} wins ({o['how']}).")
        return {"type": t, "outcome": o, "text": text}
    return {"type": t, "text": t}


def zones(st: State) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {"draw": list(st.draw), "discard": list(st.discard),
                                 "removed": list(st.removed),
                                 "districts": [c for c in st.districts if c]}
    for s, p in enumerate(st.players):
        out[f"hand:{s}"] = list(p.hand)
        out[f"crowns:{s}"] = list(p.crowns)
        for d, col in enumerate(p.columns):
            if col:
                out[f"column:{d + 1}:{s}"] = [x.card for x in col]
    return out


def secrets(st: State, seat: int | None) -> set[str]:
    """Cards in the draw pile and in other players' hands, except cards everyone has seen face
    up (sold, replaced) that were then shuffled into a new pile: everyone knows which cards that
    pile was made of, and history rightly names them ("{p0} sold the Mill"). Where such a card
    is now (still in the pile, or drawn into a hand) is never shown."""
    out = set(st.draw)
    for s, p in enumerate(st.players):
        if s != seat:
            out.update(p.hand)
    return out - st.recycled
