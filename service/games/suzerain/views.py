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
from ..text import N_, joined, phrase, said
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
    ordered,
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
    """The view's prompt, in English: what `prompt_said` says."""
    return prompt_said(state, seat)["text"]


def prompt_said(state, seat: int | None) -> dict:
    """What the seat is asked to do, or whom it waits for, as a sentence (`said`) the display
    says in the reader's language (the engine's `view_said`); its `text` is the view's
    `prompt`. Moves the seat may write stay in quotes as written ('remove nothing')."""
    if state.phase == OVER:
        return said(N_("The game is over."))
    actor = acting(state)
    if seat != actor:
        # a seat placeholder, as in history texts: the service puts the name in
        return said(_WAITING[state.phase], seat=actor)
    asked = _ASKING[state.phase](state)
    rights = [k for k in state.kept[seat] if k not in state.used[seat] and k != state.offer]
    if rights and state.hands[seat]:
        return joined(asked, said(N_("Unused rights: {cards}."), cards=_cards(rights)))
    return asked


_WAITING = {LEAD: N_("Waiting for {player} to lead."), FOLLOW: N_("Waiting for {player} to follow."),
            CLAIM: N_("Waiting for {player} to claim a card as the winner."),
            RIGHT: N_("Waiting for {player} to decide whether to use a right at once."),
            LOSER: N_("Waiting for {player} to claim a face-up card as the loser."),
            DISCARD: N_("Waiting for {player} to discard 0, 1 or 2 cards.")}


def _suits(card: str) -> dict | str:
    """A card's suits as `suit_words` says them ("Moons or Knots"), the names as the rules
    write them and the "or" ours to translate."""
    names = [decktet.SUIT_NAMES[s] for s in decktet.suits(card)]
    either = names[-1]
    for name in reversed(names[:-1]):
        either = phrase(N_("{one} or {other}"), one=name, other=either)
    return either


def _right_prompt(state: State) -> dict:
    """The fresh right's owner alone reads this, so it may say what their hand holds; the
    other seat's prompt is the same whatever it holds (rules 3: the offer is made either way)."""
    seat, offer = acting(state), decktet.name(state.offer)
    if offer_usable(state, seat):
        return said(N_("You may use the right of {card} now: remove a hand card sharing a suit "
                       "with it, or say 'remove nothing' to keep the right for later (S7)."),
                    card=offer)
    return said(N_("None of your hand cards shares a suit with {card} ({suits}), so its right "
                   "cannot be used now: say 'remove nothing' to keep it for later (S7)."),
                card=offer, suits=_suits(state.offer))


def _follow_prompt(state: State) -> dict:
    led = state.table[0]
    return said(N_("Follow {card}: play a card with {suits} if you can."),
                card=decktet.name(led), suits=_suits(led))


_ASKING = {
    LEAD: lambda s: said(N_("Your lead to trick {trick} of {tricks}."), trick=s.trick,
                         tricks=TRICKS),
    FOLLOW: _follow_prompt,
    CLAIM: lambda s: said(N_("You won the trick: take a face-up card or the top card of the "
                             "deck blind.") if s.deck else
                          N_("You won the trick: take a face-up card.")),
    RIGHT: _right_prompt,
    LOSER: lambda s: said(N_("You lost the trick: take a face-up card.")),
    DISCARD: lambda s: said(N_("You may discard 0, 1 or 2 cards into your pile "
                               "(say 'discard none' to keep them).")),
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


def _cards(cards) -> dict | str:
    """Cards listed as `listing` lists them ("the Mill, the Sea and the Bard"), its "and" and
    "nothing" ours to translate, the names as the rules write them."""
    names = [decktet.name(c) for c in cards]
    if not names:
        return phrase(N_("nothing"))
    if len(names) == 1:
        return names[0]
    return phrase(N_("{some} and {last}"), some=", ".join(names[:-1]), last=names[-1])


def _started(d, seat, mine) -> dict:
    dealer, moon = d["dealer"], d["moon"]
    out = {"dealer": dealer, "moon": moon, "sets": d["sets"], "display": d["display"],
           "deck": len(d["deck"])}
    # clauses each about one seat, so each has its reader's form
    told = [said(N_("{player} dealt."), N_("You dealt."), dealer),
            said(N_("{player} started with the Moon set ({cards}),"),
                 N_("You started with the Moon set ({cards}),"), moon,
                 cards=_cards(d["sets"][moon])),
            said(N_("{player} with the Wyrm set ({cards}), and each with three Aces."),
                 N_("you with the Wyrm set ({cards}), and each with three Aces."), 1 - moon,
                 cards=_cards(d["sets"][1 - moon])),
            said(N_("Face up: {cards}."), cards=_cards(d["display"])),
            said(N_("{player} leads the first trick."), N_("You lead the first trick."),
                 1 - dealer)]
    if seat is not None:
        out["aces"] = d["aces"][seat]
        told.append(said(N_("Aces dealt to {player}: {cards}."), N_("Aces dealt to you: {cards}."),
                         seat, cards=_cards(d["aces"][seat])))
    return {**out, **joined(*told)}


def _public(sentence):
    """An event everyone sees whole: its data and a sentence made from it (`said`)."""
    return lambda d, seat, mine: {**d, **sentence(d)}


def _led(d) -> dict:
    return said(N_("{player} led {card} to trick {trick}."),
                N_("You led {card} to trick {trick}."), d["seat"],
                card=decktet.name(d["card"]), trick=d["trick"])


def _followed(d) -> dict:
    if d["followed"]:
        return said(N_("{player} played {card}."), N_("You played {card}."), d["seat"],
                    card=decktet.name(d["card"]))
    return said(N_("{player} could not follow and played {card}."),
                N_("You could not follow and played {card}."), d["seat"],
                card=decktet.name(d["card"]))


def _trick_won(d) -> dict:
    # the semicolon is the first clause's: French sets it apart by a space
    return joined(said(N_("{player} won trick {trick};"), N_("You won trick {trick};"),
                       d["winner"], trick=d["trick"]),
                  said(N_("{player} will lead the next."), N_("you will lead the next."),
                       d["next_leader"]))


def _claimed(d, seat, mine) -> dict:
    s = d["seat"]
    if d["blind"] and not d["kept"] and not mine:
        return {"seat": s, "blind": True, "kept": False, "trick": d["trick"],
                **said(N_("{player} took the top card of the deck blind."),
                       N_("You took the top card of the deck blind."), s)}
    card = decktet.name(d["card"])
    if d["blind"] and d["kept"]:
        sentence = said(N_("{player} took the top card of the deck blind: {card} and set it "
                           "aside face up."),
                        N_("You took the top card of the deck blind: {card} and set it aside "
                           "face up."), s, card=card)
    elif d["blind"]:
        sentence = said(N_("{player} took the top card of the deck blind: {card}."),
                        N_("You took the top card of the deck blind: {card}."), s, card=card)
    elif d["kept"]:
        sentence = said(N_("{player} took {card} and set it aside face up."),
                        N_("You took {card} and set it aside face up."), s, card=card)
    else:
        sentence = said(N_("{player} took {card}."), N_("You took {card}."), s, card=card)
    return {**d, **sentence}


#: what the other seat is told of a discard: how many cards, never which
_DISCARD_COUNT = [N_("{player} discarded no cards."), N_("{player} discarded one card."),
                  N_("{player} discarded two cards.")]


def _discarded(d, seat, mine) -> dict:
    s, n = d["seat"], len(d["cards"])
    out = {"seat": s, "count": n, "auto": bool(d.get("auto"))}
    if d.get("auto"):
        out.update(said(N_("{player} had no cards in hand to discard."),
                        N_("You had no cards in hand to discard."), s))
    elif mine:
        out["cards"] = d["cards"]
        out.update(said(N_("{player} discarded {cards}."), N_("You discarded {cards}."), s,
                        cards=_cards(d["cards"])))
    else:
        out.update(said(_DISCARD_COUNT[n], seat=s))
    return out


def _removed(d, seat, mine) -> dict:
    s = d["seat"]
    out = {"seat": s, "with": d["with"]}
    right = decktet.name(d["with"])
    if mine:
        out["card"] = d["card"]
        out.update(said(N_("{player} used the right of {right} to set aside {card} from hand."),
                        N_("You used the right of {right} to set aside {card} from hand."), s,
                        right=right, card=decktet.name(d["card"])))
    else:
        out.update(said(N_("{player} used the right of {right} to set aside a card from hand."),
                        seat=s, right=right))
    return out


def _offer_closed(d) -> dict:
    right = decktet.name(d["with"])
    if d["used"]:
        return said(N_("{player} is done with the right of {right}."),
                    N_("You are done with the right of {right}."), d["seat"], right=right)
    return said(N_("{player} kept the right of {right} for later."),
                N_("You kept the right of {right} for later."), d["seat"], right=right)


def _ended(d) -> dict:
    sc = d["scores"]
    scores = said(N_("The game is over: {first} {a}, {second} {b} points;"),
                  first="{p0}", a=sc[0], second="{p1}", b=sc[1])
    if len(d["winners"]) != 1:
        return joined(scores, said(N_("a draw.")))
    won = d["winners"][0]
    if d["how"] == "score":
        return joined(scores, said(N_("{player} won."), N_("you won."), won))
    return joined(scores, said(N_("{player} won ({how})."), N_("you won ({how})."), won,
                               how=phrase(d["how"])))


_REDACT = {
    "Started": _started,
    "Led": _public(_led),
    "Followed": _public(_followed),
    "TrickWon": _public(_trick_won),
    "Claimed": _claimed,
    "RightOffered": _public(lambda d: said(N_("{player} may use the right of {right} at once."),
                                           N_("You may use the right of {right} at once."),
                                           d["seat"], right=decktet.name(d["with"]))),
    "OfferClosed": _public(_offer_closed),
    "DisplayRefilled": _public(lambda d: said(N_("Turned face up: {cards}."),
                                              cards=_cards(d["cards"]))),
    "Discarded": _discarded,
    "PileTakenUp": _public(lambda d: said(
        N_("{player} ran out of cards and took the discard pile back as a new hand."),
        N_("You ran out of cards and took the discard pile back as a new hand."), d["seat"])),
    "Removed": _removed,
    "Ended": _public(_ended),
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

