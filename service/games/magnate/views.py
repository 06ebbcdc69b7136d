"""What each seat may see (RULINGS "Hidden information": hands and deed preferences are the
owner's alone, the draw pile nobody's; everything else is public), history sentences, zones."""
from __future__ import annotations

from ..cards import decktet
from ..contract import Event, Outcome, places_by
from . import costs
from .commands import pay_text
from .scoring import standings
from .state import SUITS, State, unvec


def _tokens(v) -> dict:
    return {s: n for s, n in zip(SUITS, v, strict=True)}


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
                 "needs": costs.cost(x.card, st.modern) - sum(x.on)}
                for x in st.players[s].columns[d]]})
        districts.append({"number": d + 1, "card": dist or None,
                          "name": _district_name(st, d),
                          "suits": decktet.suits(dist) if dist else "",
                          "open": costs.district_open(st, d), "contestants": list(st.contest[d]),
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
    if st.rules >= 2:
        # M9 amended: the card play is made and the turn waits for its player's `end` (or more
        # trades and deed additions). Only in rules-2 games, so older games' views stay as
        # they were.
        out["turn_open"] = st.phase == "open"
    if st.rules >= 3 and st.phase == "ask" and seat != st.turn:
        # M16 amended: the others learn only that the drawer is finishing the turn, not why
        out["phase"] = "finishing"
    if seat is not None:
        p = st.players[seat]
        out["hand"] = list(p.hand)
        # M19/M16: own standing choices only; the effective income suit of every deed
        out["deed_income"] = [{"card": x.card, "suit": costs.income_suit(p, x.card),
                               "chosen": p.pref(x.card) is not None}
                              for _d, x in costs.deeds(p) if costs.pref_choices(x.card)]
        out["replace_aces"] = p.aces if st.options["replace_ace"] else None
        out["asked"] = st.asked if st.phase == "ask" and st.turn == seat else None
        if st.rules >= 3 and st.options["replace_ace"]:
            out["replace_aces_help"] = ACES_HELP   # M16 amended: "ask" says what it tells
    return out


#: what each replace-the-Ace choice does, shown where it is chosen (M16 amended)
ACES_HELP = {
    "never": "keep every Ace you draw (the default: nobody can tell you drew one)",
    "always": "replace every Ace you draw: everyone gains a token of its suit, you draw again",
    "ask": "decide each time you draw an Ace: the others will see that you are deciding",
}


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
    return pay_text(pay) if pay else "nothing"


def _who(d) -> str:
    return f"{{p{d['seat']}}}" if "seat" in d else ""


def _name(d) -> str:
    return decktet.name(d["card"]) if "card" in d else ""


def _game_started(d, seat):
    out = {"type": "GameStarted", "first": d["first"], "districts": d["districts"],
           "crowns": d["crowns"], "draw_count": len(d["draw"]),
           "text": f"The game began; {{p{d['first']}}} goes first."}
    if seat is not None:
        out["hand"] = list(d["hands"][seat])
    return out


def _rolled(d, _seat):
    text = f"{_who(d)} rolled {d['dice'][0]} and {d['dice'][1]}"
    if d["taxed"]:
        text += "; taxation on " + " and ".join(decktet.SUIT_NAMES[s] for s in d["taxed"])
    text += f"; income on {d['high']}"
    gains = [f"{{p{s}}} +{sum(v)}" for s, v in enumerate(d["income"]) if sum(v)]
    text += (": " + ", ".join(gains) if gains else ": nobody collects") + "."
    return {"type": "Rolled", "seat": d["seat"], "dice": d["dice"], "tax_dice": d["tax_dice"],
            "taxed": d["taxed"], "lost": d["lost"], "income": d["income"], "paid": d["paid"],
            "text": text}


def _bought(d, _seat):
    return {"type": "Bought", "seat": d["seat"], "card": d["card"], "district": d["district"],
            "pay": d["pay"], "text": f"{_who(d)} developed {_name(d)} in district "
                                     f"{d['district']} for {_toks(d['pay'])}."}


def _deed_bought(d, _seat):
    return {"type": "DeedBought", "seat": d["seat"], "card": d["card"],
            "district": d["district"],
            "text": f"{_who(d)} bought the deed to {_name(d)} in district {d['district']}."}


def _deed_added(d, _seat):
    done = " and completed it" if d["completed"] else ""
    return {"type": "DeedAdded", "seat": d["seat"], "card": d["card"], "pay": d["pay"],
            "completed": d["completed"],
            "text": f"{_who(d)} put {_toks(d['pay'])} on {_name(d)}{done}."}


def _sold(d, _seat):
    return {"type": "Sold", "seat": d["seat"], "card": d["card"], "gain": d["gain"],
            "text": f"{_who(d)} sold {_name(d)} for {_toks(d['gain'])}."}


def _traded(d, _seat):
    return {"type": "Traded", "seat": d["seat"], "give": d["give"], "get": d["get"],
            "text": f"{_who(d)} traded 3 {decktet.SUIT_NAMES[d['give']]} for 1 "
                    f"{decktet.SUIT_SINGULAR[d['get']]}."}


def _standing_choice(type_):
    def redact_it(d, seat):
        if seat is None or d.get("seat") != seat:
            return None                      # hidden standing choices (M16, M19)
        what = (f"{decktet.SUIT_NAMES[d['suit']]} from {_name(d)}" if type_ == "PreferenceSet"
                else f"replace aces: {d['mode']}")
        return {"type": type_, **dict(d), "text": f"You set {what}."}
    return redact_it


def _turn_ended(d, _seat):
    how = ("with nothing left to trade or add" if d.get("auto") else "")
    return {"type": "TurnEnded", "seat": d["seat"], "auto": bool(d.get("auto")),
            "text": f"{_who(d)} ended the turn{' ' + how if how else ''}."}


def _reshuffled(d, _seat):
    return {"type": "Reshuffled", "pile": d["pile"], "count": len(d["order"]),
            "text": f"The discards were shuffled into draw pile {d['pile']} "
                    f"({len(d['order'])} cards)."}


def _drew(d, seat):
    if seat is not None and d["seat"] == seat:
        return {"type": "Drew", "seat": d["seat"], "card": d["card"], "ask": d["ask"],
                "text": f"{_who(d)} drew {_name(d)}."
                        + (" Keep it or replace it?" if d["ask"] else "")}
    return {"type": "Drew", "seat": d["seat"], "text": f"{_who(d)} drew a card."}


def _end_triggered(_d, _seat):
    return {"type": "EndTriggered", "text": "The last draw pile is used up: each player "
                                            "takes one final turn without drawing."}


def _ace_kept(d, seat):
    if seat is not None and d["seat"] == seat:
        return {"type": "AceKept", "seat": d["seat"], "card": d["card"],
                "text": f"{_who(d)} kept {_name(d)}."}
    return {"type": "AceKept", "seat": d["seat"], "text": f"{_who(d)} kept the card drawn."}


def _ace_replaced(d, _seat):
    suit = decktet.SUIT_SINGULAR[decktet.suits(d["card"])]
    return {"type": "AceReplaced", "seat": d["seat"], "card": d["card"],
            "text": f"{_who(d)} replaced {_name(d)}: everyone gains a {suit} token."}


def outcome_text(o) -> str:
    """The end in one sentence, from the recorded outcome itself so history and outcome agree
    (M13: a draw only when `how` says so; two of three tied share the win)."""
    win = " and ".join(f"{{p{s}}}" for s in o["winners"])
    if o["how"] == "draw":
        return "The game ended in a draw."
    if len(o["winners"]) > 1:
        return f"The game ended: {win} share the win ({o['how']})."
    return f"The game ended: {win} wins ({o['how']})."


def _game_ended(d, _seat):
    return {"type": "GameEnded", "outcome": d["outcome"], "text": outcome_text(d["outcome"])}


REDACT = {
    "GameStarted": _game_started, "Rolled": _rolled, "Bought": _bought,
    "DeedBought": _deed_bought, "DeedAdded": _deed_added, "Sold": _sold, "Traded": _traded,
    "PreferenceSet": _standing_choice("PreferenceSet"),
    "AceSettingSet": _standing_choice("AceSettingSet"),
    "TurnEnded": _turn_ended, "Reshuffled": _reshuffled, "Drew": _drew,
    "EndTriggered": _end_triggered, "AceKept": _ace_kept, "AceReplaced": _ace_replaced,
    "GameEnded": _game_ended,
}


def redact(event: Event, seat: int | None) -> dict | None:
    """What `seat` may know of an event (RULINGS "Hidden information"), with its sentence."""
    handler = REDACT.get(event.type)
    if handler is None:
        return {"type": event.type, "text": event.type}
    return handler(event.data, seat)


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


def outcome(st: State) -> Outcome | None:
    o = st.outcome
    if o is None:
        return None
    # M13 places every seat the way it picks the winners: districts, developed value, tokens
    d = o["detail"]
    places = places_by([(o["scores"][s], d["developed"][s], d["tokens"][s])
                        for s in range(len(o["scores"]))])
    return Outcome(tuple(o["scores"]), tuple(o["winners"]), o["how"], o["detail"], places)
