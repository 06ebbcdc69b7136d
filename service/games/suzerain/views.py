"""What each seat sees of a Suzerain game (RULINGS.md, Suzerain, hidden information).

A seat sees its own hand, discard pile and removed cards; everybody sees the display, the trick,
the size of every pile, the Pawns and Courts with their unused rights, and a tally of the
majorities (S10) from what that reader knows: all of their own cards, and of the other seat only
the cards publicly seen as theirs. Blind claims, the loser's discards and removed cards never
reach the other seat, in views or in the history. After the end everything is revealed with the
score broken down by rule.
"""
from __future__ import annotations

from ..cards import decktet as dk
from ..contract import Event
from .scoring import MAJORITY_RANKS, RANK_SIZE, RANK_WORD
from .state import CLAIM, DISCARD, FOLLOW, LEAD, LOSER, OVER, listing, ordered

TRICKS = 16


def view(game, state, seat: int | None) -> dict:
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
        "game": game.id,
        "seat": seat,
        "to_act": sorted(game.to_act(state)),
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
        result = game.outcome(state)
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
        counts = [sum(1 for c in known[s] if dk.rank(c) == r) for s in (0, 1)]
        row = {"rank": r, "name": RANK_WORD[r], "of": size, "counts": counts,
               "unseen": size - sum(counts),
               "cards": [list(ordered(c for c in known[s] if dk.rank(c) == r)) for s in (0, 1)],
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
    acting = {LEAD: state.leader, FOLLOW: 1 - state.leader, CLAIM: state.winner,
              LOSER: state.loser, DISCARD: state.loser}[state.phase]
    if seat != acting:
        what = {LEAD: "lead", FOLLOW: "follow", CLAIM: "claim a card as the winner",
                LOSER: "claim a face-up card as the loser",
                DISCARD: "discard 0, 1 or 2 cards"}[state.phase]
        who = "your opponent" if seat is not None else f"seat {acting + 1}"
        return f"Waiting for {who} to {what}."
    if state.phase == LEAD:
        text = f"Your lead to trick {state.trick} of {TRICKS}."
    elif state.phase == FOLLOW:
        led = state.table[0]
        text = (f"Follow {dk.name(led)}: play a card with "
                f"{' or '.join(dk.SUIT_NAMES[s] for s in dk.suits(led))} if you can.")
    elif state.phase == CLAIM:
        text = ("You won the trick: take a face-up card"
                + (" or the top card of the deck blind." if state.deck else "."))
    elif state.phase == LOSER:
        text = "You lost the trick: take a face-up card."
    else:
        text = "You may discard 0, 1 or 2 cards into your pile (say 'discard none' to keep them)."
    rights = [k for k in state.kept[seat] if k not in state.used[seat]]
    if rights and state.hands[seat]:
        text += f" Unused rights: {listing(rights)}."
    return text


def redact(event: Event, seat: int | None) -> dict | None:
    d = dict(event.data)
    t = event.type
    s = d.get("seat")
    mine = seat is not None and seat == s
    out: dict = {"type": t}
    if t == "Started":
        dealer, moon = d["dealer"], d["moon"]
        out.update({"dealer": dealer, "moon": moon, "sets": d["sets"], "display": d["display"],
                    "deck": len(d["deck"])})
        text = (f"{{p{dealer}}} dealt. {{p{moon}}} started with the Moon set "
                f"({listing(d['sets'][moon])}), {{p{1 - moon}}} with the Wyrm set "
                f"({listing(d['sets'][1 - moon])}), and each with three Aces. Face up: "
                f"{listing(d['display'])}. {{p{1 - dealer}}} leads the first trick.")
        if seat is not None:
            out["aces"] = d["aces"][seat]
            text += f" Aces dealt to {{p{seat}}}: {listing(d['aces'][seat])}."
        out["text"] = text
        return out
    if t == "Led":
        out.update(d)
        out["text"] = f"{{p{s}}} led {dk.name(d['card'])} to trick {d['trick']}."
        return out
    if t == "Followed":
        out.update(d)
        verb = "played" if d["followed"] else "could not follow and played"
        out["text"] = f"{{p{s}}} {verb} {dk.name(d['card'])}."
        return out
    if t == "TrickWon":
        out.update(d)
        w, n = d["winner"], d["next_leader"]
        out["text"] = f"{{p{w}}} won trick {d['trick']}; {{p{n}}} will lead the next."
        return out
    if t == "Claimed":
        if d["blind"] and not d["kept"] and not mine:
            out.update({"seat": s, "blind": True, "kept": False, "trick": d["trick"]})
            out["text"] = f"{{p{s}}} took the top card of the deck blind."
            return out
        out.update(d)
        how = "took the top card of the deck blind: " if d["blind"] else "took "
        text = f"{{p{s}}} {how}{dk.name(d['card'])}"
        out["text"] = text + (" and set it aside face up." if d["kept"] else ".")
        return out
    if t == "DisplayRefilled":
        out.update(d)
        out["text"] = f"Turned face up: {listing(d['cards'])}."
        return out
    if t == "Discarded":
        n = len(d["cards"])
        out.update({"seat": s, "count": n, "auto": bool(d.get("auto"))})
        if d.get("auto"):
            out["text"] = f"{{p{s}}} had no cards in hand to discard."
        elif mine:
            out["cards"] = d["cards"]
            out["text"] = f"{{p{s}}} discarded {listing(d['cards'])}."
        else:
            out["text"] = f"{{p{s}}} discarded {['no cards', 'one card', 'two cards'][n]}."
        return out
    if t == "PileTakenUp":
        out.update(d)
        out["text"] = f"{{p{s}}} ran out of cards and took the discard pile back as a new hand."
        return out
    if t == "Removed":
        out.update({"seat": s, "with": d["with"]})
        what = dk.name(d["card"]) if mine else "a card"
        if mine:
            out["card"] = d["card"]
        out["text"] = f"{{p{s}}} used the right of {dk.name(d['with'])} to set aside {what} from hand."
        return out
    if t == "Ended":
        out.update(d)
        sc = d["scores"]
        if len(d["winners"]) == 1:
            result = f"{{p{d['winners'][0]}}} won"
            if d["how"] != "score":
                result += f" ({d['how']})"
        else:
            result = "a draw"
        out["text"] = f"The game is over: {{p0}} {sc[0]}, {{p1}} {sc[1]} points; {result}."
        return out
    return None
