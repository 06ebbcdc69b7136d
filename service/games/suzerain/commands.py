"""Suzerain's command grammar: reply text -> moves, and each move's canonical text.

Canonical texts (``describe``), each of which parses back to its move:

    lead the Mill             play the Savage            take the Cave      take blind
    discard none              discard the Author         discard the Author and the Journey
    remove the Forest with the Consul

Also read: a bare card name (``mill``) means whatever the seat must do now (lead, play, take
or discard it); ``play`` while leading leads; ``take the top card``/``take deck``/``blind``;
``discard author journey`` (two names without a separator), ``discard nothing``/``no discard``;
``remove forest`` when only one unused right fits, ``use the consul on the forest``. Several
commands may be given on separate lines or separated by ``;``.
"""
from __future__ import annotations

import re
from functools import cache

from .. import text as names
from ..cards import decktet as dk
from ..contract import CommandError, Move
from .scoring import sort_key
from .state import CARDS, CLAIM, DISCARD, FOLLOW, LEAD, LOSER, ordered

BLIND_WORDS = {"blind", "top", "top card", "deck", "the deck", "random", "random card",
               "a random card", "top of the deck", "the top of the deck", "face down",
               "face down card", "the face down card", "the top card", "a blind card"}
NONE_WORDS = {"none", "nothing", "no", "0", "zero", "no cards", "no card", "nothing at all",
              "discard none", "discard nothing", "no discard", "no discards", "pass", "skip"}
VERBS = {"lead": "lead", "play": "play", "follow": "play", "take": "take", "claim": "take",
         "pick": "take", "discard": "discard", "remove": "remove", "use": "use"}
PHASE_VERB = {LEAD: "lead", FOLLOW: "play", CLAIM: "take", LOSER: "take", DISCARD: "discard"}


def describe(move: Move) -> str:
    kind = move.get("type")
    if kind in ("lead", "play", "take"):
        return f"{kind} {dk.name(move['card'])}"
    if kind == "take_blind":
        return "take blind"
    if kind == "discard":
        cards = move.get("cards") or []
        return "discard " + (" and ".join(dk.name(c) for c in cards) if cards else "none")
    if kind == "remove":
        return f"remove {dk.name(move['card'])} with {dk.name(move['with'])}"
    raise ValueError(f"not a Suzerain move: {move!r}")


def parse(game, state, seat: int, text: str) -> list[Move]:
    chunks = [c.strip() for c in re.split(r"[\n;]+", text or "") if c.strip()]
    if not chunks:
        raise CommandError("there is no command in that text", _hints(game, state, seat))
    return [_one(game, state, seat, chunk) for chunk in chunks]


def _one(game, state, seat: int, chunk: str) -> Move:
    low = re.sub(r"\s+", " ", chunk.lower().replace("-", " ")).strip(" .!?")
    first, _, rest = low.partition(" ")
    verb = VERBS.get(first)
    if verb is None:
        verb, rest = PHASE_VERB.get(state.phase), low
        if low in BLIND_WORDS:
            verb = "take"
        elif low in NONE_WORDS:
            verb = "discard"
        if verb is None:
            raise CommandError("the game is over" if state.phase == "over" else
                               f"I do not understand {chunk!r}", _hints(game, state, seat))
    rest = rest.strip()
    hand = state.hands[seat]
    if verb in ("lead", "play"):
        if not rest:
            raise CommandError(f"{verb} which card?", _hints(game, state, seat))
        card = _resolve(rest, hand, "card in your hand")
        kind = verb
        if verb == "play" and state.phase == LEAD and state.leader == seat:
            kind = "lead"
        elif verb == "lead" and state.phase == FOLLOW and state.leader != seat:
            kind = "play"
        return {"type": kind, "card": card}
    if verb == "take":
        if rest in BLIND_WORDS:
            return {"type": "take_blind"}
        if not rest:
            raise CommandError("take which card? (or 'take blind')", _hints(game, state, seat))
        return {"type": "take", "card": _resolve(rest, state.display, "face-up card")}
    if verb == "discard":
        if not rest:
            raise CommandError("discard which cards? Say 'discard none' to keep them all",
                               _hints(game, state, seat))
        if rest in NONE_WORDS:
            return {"type": "discard", "cards": []}
        cards = _card_list(rest, hand)
        return {"type": "discard", "cards": sorted(cards, key=sort_key)}
    # remove X [with Y] | use Y on X | use Y to remove X
    if verb == "use":
        m = re.match(r"(.+?) (?:on|to remove|for) (.+)", rest)
        if not m:
            raise CommandError("say 'remove <card> with <Pawn or Court>'",
                               _rights(game, state, seat))
        right, target = m.group(1), m.group(2)
    else:
        m = re.match(r"(.+?) (?:with|using|by) (.+)", rest)
        target, right = (m.group(1), m.group(2)) if m else (rest, "")
    if not target:
        raise CommandError("remove which card?", _rights(game, state, seat))
    card = _resolve(target, hand, "card in your hand")
    if right:
        by = _resolve(right, state.kept[seat], "Pawn or Court of yours")
    else:
        fits = [k for k in state.kept[seat]
                if k not in state.used[seat] and dk.shares_suit(k, card)]
        if len(fits) != 1:
            why = (f"none of your unused Pawns and Courts shares a suit with {dk.name(card)}"
                   if not fits else f"which right removes {dk.name(card)}?")
            raise CommandError(why, [describe({"type": "remove", "card": card, "with": k})
                                     for k in fits] or _rights(game, state, seat))
        by = fits[0]
    return {"type": "remove", "card": card, "with": by}


@cache
def _spellings(cards: tuple[str, ...]) -> dict[str, list[str]]:
    return {c: dk.aliases(c) for c in cards}


def _strict(query: str, candidates) -> str:
    return names.match(query, _spellings(ordered(candidates)))


def _resolve(query: str, candidates, where: str) -> str:
    """A card among `candidates`; failing that, any card of the game (the move is then
    refused by `decide` with the reason: "you do not hold the Mill")."""
    try:
        return _strict(query, candidates)
    except CommandError as err:
        if "could be several" in err.why:
            raise
        try:
            return names.match(query, _spellings(CARDS))
        except CommandError:
            hint = err.suggestions or [dk.name(c) for c in ordered(candidates)][:8]
            raise CommandError(f"there is no {where} {query!r}", hint) from None


def _card_list(rest: str, hand) -> list[str]:
    """Card names separated by commas/'and', or just by spaces ("author journey")."""
    parts = [p.strip() for p in re.split(r"\s*(?:,|&|\+|\band\b)\s*", rest) if p.strip()]
    out: list[str] = []
    for part in parts:
        try:
            out.append(_strict(part, hand))
            continue
        except CommandError:
            pass
        splits = _segment(tuple(part.split()), tuple(hand))
        if len(splits) == 1:
            out.extend(splits[0])
        else:
            out.append(_resolve(part, hand, "card in your hand"))
    return out


def _segment(words: tuple[str, ...], hand: tuple[str, ...]) -> list[list[str]]:
    """Every way to read `words` as several card names from `hand` (distinct readings)."""
    found: list[list[str]] = []

    def walk(i: int, acc: list[str]):
        if i == len(words):
            if len(acc) > 1 and acc not in found:
                found.append(list(acc))
            return
        for j in range(i + 1, len(words) + 1):
            try:
                card = _strict(" ".join(words[i:j]), hand)
            except CommandError:
                continue
            walk(j, acc + [card])

    walk(0, [])
    return found


def _hints(game, state, seat: int) -> list[str]:
    moves = game.legal_moves(state, seat)
    return [describe(m) for m in moves if m["type"] != "discard" or len(m["cards"]) < 2][:10]


def _rights(game, state, seat: int) -> list[str]:
    return [describe(m) for m in game.legal_moves(state, seat) if m["type"] == "remove"][:10]
