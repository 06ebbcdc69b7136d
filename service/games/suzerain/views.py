"""What each seat sees of a Suzerain game (docs/rules/rulings.md, Suzerain, hidden information).

A seat sees its own hand, discard pile and removed cards; everybody sees the display, the trick,
the size of every pile, the Pawns and Courts with their unused rights, and a tally of the
majorities (S10) from what that reader knows: all of their own cards, and of the other seat only
the cards publicly seen as theirs. Blind claims, the loser's discards and removed cards never
reach the other seat, in views or in the history. After the end everything is revealed with the
score broken down by rule.
"""
from __future__ import annotations

from ..cards import decktet
from ..contract import Event, Outcome
from . import scoring
from .rules import offer_usable
from .scoring import MAJORITY_RANKS, RANK_SIZE, RANK_WORD
from .state import (
    CLAIM,
    DISCARD,
    FOLLOW,
    LEAD,
    LOSER,
    OVER,
    RIGHT,
    State,
    acting,
    listing,
    ordered,
    suit_words,
    to_act,
)

GAME_ID = "suzerain"
TRICKS = 16


def view(state: State, seat: int | None) -> dict:
    over = state.phase == OVER
    players = []
    for s in (0, 1):
        players.append({
            "seat": s,
            "set": "moon" if s == state.moon else "wyrm",
            "hand": len(state.hands[s]),
            "pile": len(state.piles[s]),
            "removed": len(state.removed[s]),
            "discarded": state.discarded[s],
            "blind": state.blind[s],
            "kept": [{"card": k, "used": k in state.used[s]} for k in state.kept[s]],
            "unused_rights": [k for k in state.kept[s] if k not in state.used[s]],
            "known": list(ordered(c for c in state.owned(s) if c in state.public)),
        })
    out = {
        "game": GAME_ID,
        "seat": seat,
        "to_act": sorted(to_act(state)),
        "phase": state.phase,
        "trick": min(state.trick, TRICKS),
        "tricks": TRICKS,
        "dealer": state.dealer,
        "leader": state.leader,
        "display": list(ordered(state.display)),
        "deck": len(state.deck),
        "table": ({"seat": state.leader, "card": state.table[0]} if state.table else None),
        "last_trick": dict(state.last) if state.last else None,
        "winner": state.winner,
        "players": players,
        "tally": tally(state, seat),
        "prompt": prompt(state, seat),
        "outcome": None,
    }
    if seat is not None:
        out["hand"] = list(state.hands[seat])
        out["pile"] = list(ordered(state.piles[seat]))
        out["removed"] = list(state.removed[seat])
    if over:
        result = outcome(state)
        out["outcome"] = result.to_json()
        out["reveal"] = [{"hand": list(state.hands[s]), "pile": list(ordered(state.piles[s])),
                          "kept": list(state.kept[s]), "removed": list(state.removed[s]),
                          "owned": list(ordered(state.owned(s)))} for s in (0, 1)]
    return out


def tally(state, seat: int | None) -> list[dict]:
    """S10 majorities as far as the reader knows: own cards fully, the other's public ones."""
    known = []
    for s in (0, 1):
        cards = state.owned(s)
        if s != seat and state.phase != OVER:
            cards = [c for c in cards if c in state.public]
        known.append(cards)
    rows = []
    for r in MAJORITY_RANKS:
        size = RANK_SIZE[r]
        counts = [sum(1 for c in known[s] if decktet.rank(c) == r) for s in (0, 1)]
        row = {"rank": r, "name": RANK_WORD[r], "of": size, "counts": counts,
               "unseen": size - sum(counts),
               "cards": [list(ordered(c for c in known[s] if decktet.rank(c) == r)) for s in (0, 1)],
               "sure": None, "points": None}
        for s in (0, 1):
            if counts[s] * 2 > size:   # a majority nobody can take away
                row["sure"] = s
                row["points"] = 3 if counts[s] == size else 1
        rows.append(row)
    return rows


def prompt(state, seat: int | None) -> str:
    if state.phase == OVER:
        return "The game is over."
    actor = acting(state)
    if seat != actor:
        # a seat placeholder, as in history texts: the service puts the name in
        return f"Waiting for {{p{actor}}} to {_WAITING[state.phase]}."
    text = _ASKING[state.phase](state)
    rights = [k for k in state.kept[seat] if k not in state.used[seat] and k != state.offer]
    if rights and state.hands[seat]:
        text += f" Unused rights: {listing(rights)}."
    return text


_WAITING = {LEAD: "lead", FOLLOW: "follow", CLAIM: "claim a card as the winner",
            RIGHT: "decide whether to use a right at once",
            LOSER: "claim a face-up card as the loser", DISCARD: "discard 0, 1 or 2 cards"}


def _right_prompt(state: State) -> str:
    """The fresh right's owner alone reads this, so it may say what their hand holds; the
    other seat's prompt is the same whatever it holds (rules 3: the offer is made either way)."""
    seat, offer = acting(state), decktet.name(state.offer)
    if offer_usable(state, seat):
        return (f"You may use the right of {offer} now: remove a hand card sharing a suit "
                "with it, or say 'remove nothing' to keep the right for later (S7).")
    return (f"None of your hand cards shares a suit with {offer} ({suit_words(state.offer)}), "
            "so its right cannot be used now: say 'remove nothing' to keep it for later (S7).")


def _follow_prompt(state: State) -> str:
    led = state.table[0]
    return (f"Follow {decktet.name(led)}: play a card with "
            f"{' or '.join(decktet.SUIT_NAMES[s] for s in decktet.suits(led))} if you can.")


_ASKING = {
    LEAD: lambda s: f"Your lead to trick {s.trick} of {TRICKS}.",
    FOLLOW: _follow_prompt,
    CLAIM: lambda s: ("You won the trick: take a face-up card"
                      + (" or the top card of the deck blind." if s.deck else ".")),
    RIGHT: _right_prompt,
    LOSER: lambda s: "You lost the trick: take a face-up card.",
    DISCARD: lambda s: ("You may discard 0, 1 or 2 cards into your pile "
                        "(say 'discard none' to keep them)."),
}




# ----- history: one function per event type -------------------------------------------------


def redact(event: Event, seat: int | None) -> dict | None:
    """What `seat` may know of `event`, with a sentence; None for an unknown event."""
    handler = _REDACT.get(event.type)
    if handler is None:
        return None
    d = dict(event.data)
    out = handler(d, seat, seat is not None and seat == d.get("seat"))
    return {"type": event.type, **out}


def _started(d, seat, mine) -> dict:
    dealer, moon = d["dealer"], d["moon"]
    out = {"dealer": dealer, "moon": moon, "sets": d["sets"], "display": d["display"],
           "deck": len(d["deck"])}
    text = (f"{{p{dealer}}} dealt. {{p{moon}}} started with the Moon set "
            f"({listing(d['sets'][moon])}), {{p{1 - moon}}} with the Wyrm set "
            f"({listing(d['sets'][1 - moon])}), and each with three Aces. Face up: "
            f"{listing(d['display'])}. {{p{1 - dealer}}} leads the first trick.")
    if seat is not None:
        out["aces"] = d["aces"][seat]
        text += f" Aces dealt to {{p{seat}}}: {listing(d['aces'][seat])}."
    out["text"] = text
    return out


def _public(sentence):
    """An event everyone sees whole: its data and a sentence made from it."""
    return lambda d, seat, mine: {**d, "text": sentence(d)}


def _followed_text(d) -> str:
    verb = "played" if d["followed"] else "could not follow and played"
    return f"{{p{d['seat']}}} {verb} {decktet.name(d['card'])}."


def _claimed(d, seat, mine) -> dict:
    s = d["seat"]
    if d["blind"] and not d["kept"] and not mine:
        return {"seat": s, "blind": True, "kept": False, "trick": d["trick"],
                "text": f"{{p{s}}} took the top card of the deck blind."}
    how = "took the top card of the deck blind: " if d["blind"] else "took "
    text = f"{{p{s}}} {how}{decktet.name(d['card'])}"
    return {**d, "text": text + (" and set it aside face up." if d["kept"] else ".")}


def _discarded(d, seat, mine) -> dict:
    s, n = d["seat"], len(d["cards"])
    out = {"seat": s, "count": n, "auto": bool(d.get("auto"))}
    if d.get("auto"):
        out["text"] = f"{{p{s}}} had no cards in hand to discard."
    elif mine:
        out["cards"] = d["cards"]
        out["text"] = f"{{p{s}}} discarded {listing(d['cards'])}."
    else:
        out["text"] = f"{{p{s}}} discarded {['no cards', 'one card', 'two cards'][n]}."
    return out


def _removed(d, seat, mine) -> dict:
    s = d["seat"]
    out = {"seat": s, "with": d["with"]}
    what = decktet.name(d["card"]) if mine else "a card"
    if mine:
        out["card"] = d["card"]
    out["text"] = (f"{{p{s}}} used the right of {decktet.name(d['with'])} to set aside {what} "
                   "from hand.")
    return out


def _offer_closed_text(d) -> str:
    if d["used"]:
        return f"{{p{d['seat']}}} is done with the right of {decktet.name(d['with'])}."
    return f"{{p{d['seat']}}} kept the right of {decktet.name(d['with'])} for later."


def _ended_text(d) -> str:
    sc = d["scores"]
    if len(d["winners"]) == 1:
        result = f"{{p{d['winners'][0]}}} won"
        if d["how"] != "score":
            result += f" ({d['how']})"
    else:
        result = "a draw"
    return f"The game is over: {{p0}} {sc[0]}, {{p1}} {sc[1]} points; {result}."


_REDACT = {
    "Started": _started,
    "Led": _public(lambda d: f"{{p{d['seat']}}} led {decktet.name(d['card'])} to trick "
                             f"{d['trick']}."),
    "Followed": _public(_followed_text),
    "TrickWon": _public(lambda d: f"{{p{d['winner']}}} won trick {d['trick']}; "
                                  f"{{p{d['next_leader']}}} will lead the next."),
    "Claimed": _claimed,
    "RightOffered": _public(lambda d: f"{{p{d['seat']}}} may use the right of "
                                      f"{decktet.name(d['with'])} at once."),
    "OfferClosed": _public(_offer_closed_text),
    "DisplayRefilled": _public(lambda d: f"Turned face up: {listing(d['cards'])}."),
    "Discarded": _discarded,
    "PileTakenUp": _public(lambda d: f"{{p{d['seat']}}} ran out of cards and took the "
                                     "discard pile back as a new hand."),
    "Removed": _removed,
    "Ended": _public(_ended_text),
}


# ----- outcome and the invariants' zones and secrets ------------------------------------------


def outcome(state: State) -> Outcome | None:
    """S10-S13, with the breakdown by rule for the reveal."""
    if state.phase != OVER:
        return None
    parts = scoring.breakdown([state.owned(s) for s in (0, 1)])
    won, how = scoring.winners(parts)
    return Outcome(scores=tuple(p["total"] for p in parts), winners=won, how=how,
                   detail={"seats": parts})


def zones(state: State) -> dict[str, tuple[str, ...]]:
    out = {"deck": state.deck, "display": state.display, "table": state.table}
    for s in (0, 1):
        out[f"hand:{s}"] = state.hands[s]
        out[f"pile:{s}"] = state.piles[s]
        out[f"kept:{s}"] = state.kept[s]
        out[f"removed:{s}"] = state.removed[s]
    return out


def secrets(state: State, seat: int | None) -> set[str]:
    if state.phase == OVER:
        return set()
    out = set(state.deck)
    for s in (0, 1):
        if s != seat:
            out |= {c for c in state.hands[s] + state.piles[s] + state.removed[s]
                    if c not in state.public}
    return out

