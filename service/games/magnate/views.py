"""What each seat may see (RULINGS "Hidden information": hands and deed preferences are the
owner's alone, the draw pile nobody's; everything else is public), history sentences, zones."""
from __future__ import annotations

from ..cards import decktet
from ..contract import Event, Outcome, places_by
from ..text import N_, joined, phrase, said
from . import costs
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


def _listed(items: list[str]) -> dict | str:
    """Items as `pay_text` lists them ("2 Moons and 1 Sun"), the "and" ours to translate."""
    if len(items) == 1:
        return items[0]
    return phrase(N_("{some} and {last}"), some=", ".join(items[:-1]), last=items[-1])


def _toks(pay: dict) -> dict | str:
    """Tokens as `commands.pay_text` says them, suits as the rules name them."""
    if not pay:
        return phrase(N_("nothing"))
    return _listed([f"{pay[s]} {decktet.SUIT_SINGULAR[s] if pay[s] == 1 else decktet.SUIT_NAMES[s]}"
                    for s in SUITS if pay.get(s, 0)])


def _name(d) -> str:
    return decktet.name(d["card"]) if "card" in d else ""


def _game_started(d, seat):
    out = {"type": "GameStarted", "first": d["first"], "districts": d["districts"],
           "crowns": d["crowns"], "draw_count": len(d["draw"]),
           **said(N_("The game began; {player} goes first."),
                  N_("The game began; you go first."), d["first"])}
    if seat is not None:
        out["hand"] = list(d["hands"][seat])
    return out


def _rolled(d, _seat):
    # clauses joined as written: only the first is about a seat (the gains list names
    # seats as a score list does)
    told = [said(N_("{player} rolled {a} and {b}"), N_("You rolled {a} and {b}"), d["seat"],
                 a=d["dice"][0], b=d["dice"][1])]
    if d["taxed"]:
        told.append(said(N_("; taxation on {suits}"),
                         suits=_listed([decktet.SUIT_NAMES[s] for s in d["taxed"]])))
    told.append(said(N_("; income on {high}"), high=d["high"]))
    gains = [f"{{p{s}}} +{sum(v)}" for s, v in enumerate(d["income"]) if sum(v)]
    told.append(said(N_(": {gains}."), gains=", ".join(gains)) if gains
                else said(N_(": nobody collects.")))
    return {"type": "Rolled", "seat": d["seat"], "dice": d["dice"], "tax_dice": d["tax_dice"],
            "taxed": d["taxed"], "lost": d["lost"], "income": d["income"], "paid": d["paid"],
            **joined(*told, sep="")}


def _bought(d, _seat):
    return {"type": "Bought", "seat": d["seat"], "card": d["card"], "district": d["district"],
            "pay": d["pay"],
            **said(N_("{player} developed {card} in district {district} for {pay}."),
                   N_("You developed {card} in district {district} for {pay}."), d["seat"],
                   card=_name(d), district=d["district"], pay=_toks(d["pay"]))}


def _deed_bought(d, _seat):
    return {"type": "DeedBought", "seat": d["seat"], "card": d["card"],
            "district": d["district"],
            **said(N_("{player} bought the deed to {card} in district {district}."),
                   N_("You bought the deed to {card} in district {district}."), d["seat"],
                   card=_name(d), district=d["district"])}


def _deed_added(d, _seat):
    if d["completed"]:
        sentence = said(N_("{player} put {pay} on {card} and completed it."),
                        N_("You put {pay} on {card} and completed it."), d["seat"],
                        pay=_toks(d["pay"]), card=_name(d))
    else:
        sentence = said(N_("{player} put {pay} on {card}."), N_("You put {pay} on {card}."),
                        d["seat"], pay=_toks(d["pay"]), card=_name(d))
    return {"type": "DeedAdded", "seat": d["seat"], "card": d["card"], "pay": d["pay"],
            "completed": d["completed"], **sentence}


def _sold(d, _seat):
    return {"type": "Sold", "seat": d["seat"], "card": d["card"], "gain": d["gain"],
            **said(N_("{player} sold {card} for {pay}."), N_("You sold {card} for {pay}."),
                   d["seat"], card=_name(d), pay=_toks(d["gain"]))}


def _traded(d, _seat):
    return {"type": "Traded", "seat": d["seat"], "give": d["give"], "get": d["get"],
            **said(N_("{player} traded 3 {give} for 1 {get}."),
                   N_("You traded 3 {give} for 1 {get}."), d["seat"],
                   give=decktet.SUIT_NAMES[d["give"]], get=decktet.SUIT_SINGULAR[d["get"]])}


def _standing_choice(type_):
    def redact_it(d, seat):
        if seat is None or d.get("seat") != seat:
            return None                      # hidden standing choices (M16, M19)
        if type_ == "PreferenceSet":
            sentence = said(N_("You set {suit} from {card}."),
                            suit=decktet.SUIT_NAMES[d["suit"]], card=_name(d))
        else:
            sentence = said(N_("You set replace aces: {mode}."), mode=d["mode"])
        return {"type": type_, **dict(d), **sentence}
    return redact_it


def _turn_ended(d, _seat):
    if d.get("auto"):
        sentence = said(N_("{player} ended the turn with nothing left to trade or add."),
                        N_("You ended the turn with nothing left to trade or add."), d["seat"])
    else:
        sentence = said(N_("{player} ended the turn."), N_("You ended the turn."), d["seat"])
    return {"type": "TurnEnded", "seat": d["seat"], "auto": bool(d.get("auto")), **sentence}


def _reshuffled(d, _seat):
    return {"type": "Reshuffled", "pile": d["pile"], "count": len(d["order"]),
            **said(N_("The discards were shuffled into draw pile {pile} ({count} cards)."),
                   pile=d["pile"], count=len(d["order"]))}


def _drew(d, seat):
    if seat is not None and d["seat"] == seat:
        sentence = said(N_("{player} drew {card}. Keep it or replace it?"),
                        N_("You drew {card}. Keep it or replace it?"), d["seat"],
                        card=_name(d)) if d["ask"] else \
            said(N_("{player} drew {card}."), N_("You drew {card}."), d["seat"], card=_name(d))
        return {"type": "Drew", "seat": d["seat"], "card": d["card"], "ask": d["ask"],
                **sentence}
    return {"type": "Drew", "seat": d["seat"],
            **said(N_("{player} drew a card."), N_("You drew a card."), d["seat"])}


def _end_triggered(_d, _seat):
    return {"type": "EndTriggered",
            **said(N_("The last draw pile is used up: each player takes one final turn "
                      "without drawing."))}


def _ace_kept(d, seat):
    if seat is not None and d["seat"] == seat:
        return {"type": "AceKept", "seat": d["seat"], "card": d["card"],
                **said(N_("{player} kept {card}."), N_("You kept {card}."), d["seat"],
                       card=_name(d))}
    return {"type": "AceKept", "seat": d["seat"],
            **said(N_("{player} kept the card drawn."), N_("You kept the card drawn."),
                   d["seat"])}


def _ace_replaced(d, _seat):
    return {"type": "AceReplaced", "seat": d["seat"], "card": d["card"],
            **said(N_("{player} replaced {card}: everyone gains a {suit} token."),
                   N_("You replaced {card}: everyone gains a {suit} token."), d["seat"],
                   card=_name(d), suit=decktet.SUIT_SINGULAR[decktet.suits(d["card"])])}


def outcome_said(o) -> dict:
    """The end in one sentence (`said`), from the recorded outcome itself so history and
    outcome agree (M13: a draw only when `how` says so; two of three tied share the win)."""
    if o["how"] == "draw":
        return said(N_("The game ended in a draw."))
    if len(o["winners"]) > 1:
        return said(N_("The game ended: {players} share the win ({how})."),
                    players=_listed([f"{{p{s}}}" for s in o["winners"]]), how=phrase(o["how"]))
    return said(N_("The game ended: {player} wins ({how})."),
                N_("The game ended: you win ({how})."), o["winners"][0], how=phrase(o["how"]))


def _game_ended(d, _seat):
    return {"type": "GameEnded", "outcome": d["outcome"], **outcome_said(d["outcome"])}


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
