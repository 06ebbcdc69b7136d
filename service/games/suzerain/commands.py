"""Suzerain's command grammar: reply text -> moves, and each move's canonical text.

Canonical texts (``describe``), each of which parses back to its move:

    lead the Mill             play the Savage            take the Cave      take blind
    discard none              discard the Author         discard the Author and the Journey
    remove the Forest with the Consul                    remove nothing

Also read: a bare card name (``mill``) means whatever the seat must do now (lead, play, take,
discard or remove it); ``play`` while leading leads; ``take the top card``/``take deck``/
``blind``; ``discard author journey`` (two names without a separator), ``discard nothing``/
``no discard``; ``remove forest`` when only one unused right fits, ``use the consul on the
forest``; when a fresh right is offered (rules 2, S7), ``no``/``later``/``keep it`` decline it.
Several commands may be given on separate lines or separated by ``;``.
"""
from __future__ import annotations

import re
from functools import cache

from ..cards import decktet
from ..contract import CommandError, Move
from ..text import N_, match
from .rules import legal_moves
from .state import CARDS, CLAIM, DISCARD, FOLLOW, LEAD, LOSER, OVER, RIGHT, ordered, sort_key

BLIND_WORDS = {"blind", "top", "top card", "deck", "the deck", "random", "random card",
               "a random card", "top of the deck", "the top of the deck", "face down",
               "face down card", "the face down card", "the top card", "a blind card"}
NONE_WORDS = {"none", "nothing", "no", "0", "zero", "no cards", "no card", "nothing at all",
              "discard none", "discard nothing", "no discard", "no discards", "pass", "skip"}
# declining a fresh right (rules 2): what a reply to "use the right of the Consul?" says
DECLINE_WORDS = NONE_WORDS | {"decline", "later", "keep", "keep it", "keep the right",
                              "not now", "remove nothing", "remove none", "no removal",
                              "done"}
VERBS = {"lead": "lead", "play": "play", "follow": "play", "take": "take", "claim": "take",
         "pick": "take", "discard": "discard", "remove": "remove", "use": "use"}
PHASE_VERB = {LEAD: "lead", FOLLOW: "play", CLAIM: "take", LOSER: "take", DISCARD: "discard",
              RIGHT: "remove"}


def describe(move: Move) -> str:
    kind = move.get("type")
    if kind in ("lead", "play", "take"):
        return f"{kind} {decktet.name(move['card'])}"
    if kind == "take_blind":
        return "take blind"
    if kind == "discard":
        cards = move.get("cards") or []
        return "discard " + (" and ".join(decktet.name(c) for c in cards) if cards else "none")
    if kind == "remove":
        return f"remove {decktet.name(move['card'])} with {decktet.name(move['with'])}"
    if kind == "decline":
        return "remove nothing"
    raise ValueError(f"not a Suzerain move: {move!r}")


def parse(state, seat: int, text: str) -> list[Move]:
    chunks = [c.strip() for c in re.split(r"[\n;]+", text or "") if c.strip()]
    if not chunks:
        raise CommandError(N_("there is no command in that text"), _hints(state, seat))
    return [_one(state, seat, chunk) for chunk in chunks]


def _one(state, seat: int, chunk: str) -> Move:
    low = re.sub(r"\s+", " ", chunk.lower().replace("-", " ")).strip(" .!?")
    if state.phase == RIGHT and low in DECLINE_WORDS:
        return {"type": "decline"}
    verb, rest = _verb(state, seat, low, chunk)
    return _GRAMMAR[verb](state, seat, verb, rest.strip())


def _verb(state, seat: int, low: str, chunk: str) -> tuple[str, str]:
    """The command's verb and the rest; without a verb, what the phase asks for."""
    first, _, rest = low.partition(" ")
    if first in VERBS:
        return VERBS[first], rest
    if low in BLIND_WORDS:
        return "take", low
    if low in NONE_WORDS:
        return "discard", low
    verb = PHASE_VERB.get(state.phase)
    if verb is None:
        if state.phase == OVER:
            raise CommandError(N_("the game is over"), _hints(state, seat))
        raise CommandError(N_("I do not understand {text}"), _hints(state, seat),
                           text=repr(chunk))
    return verb, low


#: asked when `lead` or `play` comes without its card (the verb is a move word)
WHICH_CARD = {"lead": N_("lead which card?"), "play": N_("play which card?")}


def _play(state, seat: int, verb: str, rest: str) -> Move:
    if not rest:
        raise CommandError(WHICH_CARD[verb], _hints(state, seat))
    card = _resolve(rest, state.hands[seat], "card in your hand")
    kind = verb
    if verb == "play" and state.phase == LEAD and state.leader == seat:
        kind = "lead"
    elif verb == "lead" and state.phase == FOLLOW and state.leader != seat:
        kind = "play"
    return {"type": kind, "card": card}


def _take(state, seat: int, verb: str, rest: str) -> Move:
    if rest in BLIND_WORDS:
        return {"type": "take_blind"}
    if not rest:
        raise CommandError(N_("take which card? (or 'take blind')"), _hints(state, seat))
    return {"type": "take", "card": _resolve(rest, state.display, "face-up card")}


def _discard(state, seat: int, verb: str, rest: str) -> Move:
    if not rest:
        raise CommandError(N_("discard which cards? Say 'discard none' to keep them all"),
                           _hints(state, seat))
    if rest in NONE_WORDS:
        return {"type": "discard", "cards": []}
    cards = _card_list(rest, state.hands[seat])
    return {"type": "discard", "cards": sorted(cards, key=sort_key)}


def _remove(state, seat: int, verb: str, rest: str) -> Move:
    """remove X [with Y] | use Y on X | use Y to remove X"""
    if state.phase == RIGHT and rest in ("nothing", "none", "no card", "no cards"):
        return {"type": "decline"}
    target, right = _remove_parts(state, seat, verb, rest)
    if not target:
        raise CommandError(N_("remove which card?"), _rights(state, seat))
    card = _resolve(target, state.hands[seat], "card in your hand")
    by = (_resolve(right, state.kept[seat], "Pawn or Court of yours") if right
          else _only_right(state, seat, card))
    return {"type": "remove", "card": card, "with": by}


def _remove_parts(state, seat: int, verb: str, rest: str) -> tuple[str, str]:
    if verb == "use":
        m = re.match(r"(.+?) (?:on|to remove|for) (.+)", rest)
        if not m:
            raise CommandError(N_("say 'remove <card> with <Pawn or Court>'"),
                               _rights(state, seat))
        return m.group(2), m.group(1)
    m = re.match(r"(.+?) (?:with|using|by) (.+)", rest)
    return (m.group(1), m.group(2)) if m else (rest, "")


def _only_right(state, seat: int, card: str) -> str:
    """The one unused right that fits `card` (the fresh one first, when one is offered)."""
    fits = [k for k in state.kept[seat]
            if k not in state.used[seat] and decktet.shares_suit(k, card)]
    if state.phase == RIGHT and state.offer in fits:
        return state.offer
    if len(fits) != 1:
        why = (N_("none of your unused Pawns and Courts shares a suit with {card}")
               if not fits else N_("which right removes {card}?"))
        # with no right to use, what may be done instead ('remove nothing' to a fresh right
        # that no hand card fits, rules 3)
        raise CommandError(why, [describe({"type": "remove", "card": card, "with": k})
                                 for k in fits] or _rights(state, seat) or _hints(state, seat),
                           card=decktet.name(card))
    return fits[0]


_GRAMMAR = {"lead": _play, "play": _play, "take": _take, "discard": _discard,
            "remove": _remove, "use": _remove}


@cache
def _spellings(cards: tuple[str, ...]) -> dict[str, list[str]]:
    return {c: decktet.aliases(c) for c in cards}


def _strict(query: str, candidates) -> str:
    return match(query, _spellings(ordered(candidates)))


#: a name found nowhere it may be, by where it was looked for (a sentence each: German and
#: French make "no" agree with the noun)
NOWHERE = {"card in your hand": N_("there is no card in your hand {query}"),
           "face-up card": N_("there is no face-up card {query}"),
           "Pawn or Court of yours": N_("there is no Pawn or Court of yours {query}")}


def _resolve(query: str, candidates, where: str) -> str:
    """A card among `candidates`; failing that, any card of the game (the move is then
    refused by `decide` with the reason: "you do not hold the Mill")."""
    try:
        return _strict(query, candidates)
    except CommandError as err:
        if "could be several" in err.why:
            raise
        try:
            return match(query, _spellings(CARDS))
        except CommandError:
            hint = err.suggestions or [decktet.name(c) for c in ordered(candidates)][:8]
            raise CommandError(NOWHERE[where], hint, query=repr(query)) from None


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


def _hints(state, seat: int) -> list[str]:
    moves = legal_moves(state, seat)
    return [describe(m) for m in moves if m["type"] != "discard" or len(m["cards"]) < 2][:10]


def _rights(state, seat: int) -> list[str]:
    return [describe(m) for m in legal_moves(state, seat) if m["type"] == "remove"][:10]
