"""Reading commands players type, and the one canonical text of every move.

Canonical texts (describe):
  buy the Mill in 3 with 2 Waves and 6 Leaves      deed the Castle in 5
  add 2 Knots to the Castle                        sell the Sailor
  trade 3 Moons for 1 Knot                         prefer Waves for the Sailor
  replace aces always                              replace the Ace of Moons / keep the Ace of Moons
  end turn                                         (rules 2: ends an open turn, M9; also "end")
In mega the copy is named: "sell the Mill #2".

Forgiving forms: any case, with or without "the", unambiguous prefixes and ids; districts by
number ("in 3", "in district 3") or Pawn name ("in the watchman", "in excuse"); payments as
"2 waves 6 leaves", "2 waves, 6 leaves" or "2v 6l"; "deed"/"buy deed"/"buy the deed to";
"trade 6 moons for 2 knots" (two trades). Several commands: one per line, or separated by ";"
or "then".

Omitted payments: buying outright with no "with ..." uses the only possible payment if there is
one, else the documented default: one token of each of the card's suits, then one at a time of
the suit you hold most of (ties in suit order). "add to the Castle" completes the deed the same
way. A buy with no district works when the card fits exactly one district.
"""
from __future__ import annotations

import random
import re

from ..cards import decktet
from ..contract import CommandError, IllegalMove
from ..text import N_, match, norm, phrase, unquote
from . import costs
from .rules import decide, menu
from .state import SUITS, State, evolve, unvec, vec

SUIT_WORDS = {}
for _s in SUITS:
    for _w in (decktet.SUIT_NAMES[_s], decktet.SUIT_SINGULAR[_s], _s):
        SUIT_WORDS[_w.lower()] = _s
MAX_NAMES = 8    # card names listed in a refusal, as many as `_suggest` lists moves
NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
           "seven": 7, "eight": 8, "nine": 9, "ten": 10}


# ---------------------------------------------------------------- describe

def card_text(card: str) -> str:
    copy = card.split(".", 1)[1] if "." in card else ""
    return decktet.name(card) + (f" #{copy}" if copy else "")


def pay_text(pay: dict) -> str:
    parts = []
    for s in SUITS:
        n = pay.get(s, 0)
        if n:
            parts.append(f"{n} {decktet.SUIT_SINGULAR[s] if n == 1 else decktet.SUIT_NAMES[s]}")
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _deed_text(m: dict) -> str:
    extra = f" and put {pay_text(m['add'])} on it" if m.get("add") else ""
    return f"deed {card_text(m['card'])} in {m['district']}{extra}"


DESCRIBE = {
    "buy": lambda m: f"buy {card_text(m['card'])} in {m['district']} with {pay_text(m['pay'])}",
    "deed": _deed_text,
    "add": lambda m: f"add {pay_text(m['pay'])} to {card_text(m['card'])}",
    "sell": lambda m: f"sell {card_text(m['card'])}",
    "trade": lambda m: (f"trade 3 {decktet.SUIT_NAMES[m['give']]} for 1 "
                        f"{decktet.SUIT_SINGULAR[m['get']]}"),
    "prefer": lambda m: f"prefer {decktet.SUIT_NAMES[m['suit']]} for {card_text(m['card'])}",
    "replace_aces": lambda m: f"replace aces {m['mode']}",
    "replace": lambda m: f"replace {card_text(m['card'])}",
    "keep": lambda m: f"keep {card_text(m['card'])}",
    "end": lambda m: "end turn",
}


def describe(move: dict) -> str:
    text = DESCRIBE.get(move["type"])
    if text is None:
        raise ValueError(f"unknown move {move!r}")
    return text(move)


# ---------------------------------------------------------------- parse

def parse(st: State, seat: int, text: str) -> list[dict]:
    lines = [ln.strip() for ln in re.split(r"[\n;]|\bthen\b", text or "", flags=re.I)]
    lines = [ln for ln in lines if ln and not ln.startswith(">")]
    if not lines:
        raise CommandError(N_("no command found"), _suggest(st, seat))
    moves: list[dict] = []
    cur, over = st, False
    for line in lines:
        last = moves[-1] if moves else None
        pending = last if last and last["type"] == "deed" else None
        for m in _one(cur, seat, line, pending):
            if (m["type"] == "add" and last and last["type"] == "deed"
                    and last["card"] == m["card"]):
                # M7: "deed the Mill in 3" then "add 2 Waves to the Mill" is one play: the
                # tokens go on as the deed is bought, before the draw ends the turn.
                last["add"] = _merge(last.get("add", {}), m["pay"])
                continue
            if m["type"] == "end" and over:
                continue    # M9: the turn already ended by itself; "end" asks nothing more
            moves.append(m)
            cur, ended = _simulate(cur, seat, m)
            over = over or ended
    return moves


def _merge(a: dict, b: dict) -> dict:
    return {s: a.get(s, 0) + b.get(s, 0) for s in SUITS if a.get(s, 0) + b.get(s, 0)}


def _simulate(st: State, seat: int, move: dict) -> tuple[State, bool]:
    """Apply a move so later commands in the same message see its effect (a deed just bought,
    tokens just traded), and say whether it ended the turn. Moves that end the turn are not
    followed (they draw and roll)."""
    try:
        events = decide(st, seat, move, random.Random(0))
    except (IllegalMove, KeyError, TypeError, ValueError):
        return st, False
    if any(e.type in ("TurnEnded", "Rolled", "Drew", "GameEnded") for e in events):
        return st, True
    for e in events:
        st = evolve(st, e)
    return st, False


def _suggest(st: State, seat: int) -> list[str]:
    return [describe(m) for m in menu(st, seat)][:8]


def _clean(line: str) -> str:
    line = line.lower().replace(":", " ").replace(",", " , ")
    line = re.sub(r"[!?]+$", "", line.strip()).rstrip(". ")
    return re.sub(r"\s+", " ", line).strip()


def _one(st: State, seat: int, line: str, pending: dict | None = None) -> list[dict]:
    t = _clean(line)
    if re.fullmatch(r"end(?: (?:my |the )?turn)?|end of turn", t):
        return [{"type": "end"}]            # M9 amended: ends an open turn
    m = re.fullmatch(r"(?:set )?(?:replace|replacing) (?:the )?aces? (?:to )?(always|never|ask)"
                     r"|aces? (always|never|ask)", t)
    if m:
        return [{"type": "replace_aces", "mode": m.group(1) or m.group(2)}]
    m = re.fullmatch(r"(replace|discard|keep)(?: (.+))?", t)
    if m:
        return [_answer(st, m.group(1), m.group(2))]
    m = re.fullmatch(r"sell (.+)", t)
    if m:
        return [{"type": "sell", "card": _hand(st, seat, m.group(1))}]
    m = re.fullmatch(r"(?:buy (?:the |a )?deed (?:to |for |of |on )?|deed )(.+?)(?: in (.+?))?"
                     r"(?: (?:and )?(?:put|add|adding|putting|with) (.+?)(?: on it)?)?", t)
    if m:
        card = _hand(st, seat, m.group(1))
        move = {"type": "deed", "card": card,
                "district": _where(st, seat, card, m.group(2), "deed")}
        if m.group(3):
            move["add"] = _payment(m.group(3))
        return [move]
    m = re.fullmatch(r"(?:buy|develop|build|play) (.+)", t)
    if m:
        return [_buy(st, seat, m.group(1))]
    m = re.fullmatch(r"(?:add|put|pay)(?: (.*?))? (?:to|onto|on|into) (.+)|complete (.+)", t)
    if m:
        return [_add(st, seat, m.group(1) or "", m.group(2) or m.group(3), pending)]
    m = re.fullmatch(r"trade (?:(\d+|[a-z]+) )?([a-z]+) (?:for|into|to) (?:(\d+|a|an|one|two|"
                     r"three|four|five) )?([a-z]+)", t)
    if m:
        return _trade(m.groups())
    m = re.fullmatch(r"prefer (?:the )?([a-z]+) (?:for|on|from) (.+)|(.+?) prefers? ([a-z]+)", t)
    if m:
        suit_w, card_w = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        return [{"type": "prefer", "card": _deed(st, seat, card_w), "suit": _suit(suit_w)}]
    raise CommandError(N_("I do not understand {text}"), _suggest(st, seat),
                       text=repr(line.strip()))


def _suit(word: str) -> str:
    w = word.strip().lower()
    if w in SUIT_WORDS:
        return SUIT_WORDS[w]
    hits = {s for k, s in SUIT_WORDS.items() if len(w) >= 2 and k.startswith(w)}
    if len(hits) == 1:
        return hits.pop()
    raise CommandError(N_("{word} is not a suit"), [decktet.SUIT_NAMES[s] for s in SUITS],
                       word=repr(word))


def _number(word: str | None, default: int = 1) -> int:
    if word is None:
        return default
    if word.isdigit():
        return int(word)
    if word in NUMBERS:
        return NUMBERS[word]
    raise CommandError(N_("{word} is not a number"), word=repr(word))


def _payment(text: str) -> dict:
    text = re.sub(r"\b(and|plus|&)\b|,", " ", text.lower())
    text = re.sub(r"\btokens?\b|\bof\b", " ", text)
    pay: dict[str, int] = {}
    pos = 0
    for m in re.finditer(r"\s*(\d+|[a-z]+)\s*([a-z]+)\s*", text):
        if m.start() != pos:
            break
        pos = m.end()
        s = _suit(m.group(2))
        pay[s] = pay.get(s, 0) + _number(m.group(1))
    if pos != len(text) or not pay:
        raise CommandError(N_("cannot read the payment {text}"),
                           ["2 Waves and 6 Leaves", "3 Knots"], text=repr(text.strip()))
    return {s: pay[s] for s in SUITS if pay.get(s)}


def _resolve(query: str, candidates, what: str, missing: str) -> str:
    """A card among `candidates` (ids). Copies of one card are interchangeable unless a copy
    is named ("the Mill #2", "8VL.2")."""
    if not candidates:
        raise CommandError(missing)
    q = unquote(query).strip()    # the copy suffix of 'the Mill #2' sits before its quote
    copy = None
    m = re.fullmatch(r"(.*?)\s*(?:#|\.|copy )\s*([12])", q)
    if m and m.group(1):
        q, copy = m.group(1), m.group(2)
    groups: dict[str, list[str]] = {}
    for c in candidates:
        groups.setdefault(decktet.base(c), []).append(c)
    try:
        base = match(q, {b: decktet.aliases(b) for b in groups}, what)
    except CommandError as err:
        try:
            other = match(q, {b: decktet.aliases(b) for b in decktet.ALL}, what)
        except CommandError:
            # a name that is no card at all (RULINGS, Commands: refused with the candidates):
            # the near spellings among the candidates, or else the candidates themselves
            raise err.suggesting(err.suggestions or _names(candidates)) from None
        raise CommandError(N_("{missing}: not {card}"), _names(candidates),
                           missing=phrase(missing), card=decktet.name(other)) from None
    ids = groups[base]
    if copy:
        ids = [c for c in ids if c.endswith("." + copy)] or ids
    return ids[0]


def _names(candidates) -> list[str]:
    """The candidates' names for a refusal, at most as many as a menu of suggestions shows."""
    return [card_text(c) for c in candidates][:MAX_NAMES]


def _hand(st: State, seat: int, q: str) -> str:
    return _resolve(q, st.players[seat].hand, "card", N_("you do not hold that card"))


def _deed(st: State, seat: int, q: str, pending: str | None = None) -> str:
    cards = [x.card for _d, x in costs.deeds(st.players[seat])]
    return _resolve(q, cards + ([pending] if pending and pending not in cards else []), "deed",
                    N_("you hold no incomplete deed to that card"))


def _where(st: State, seat: int, card: str, q: str | None, verb: str) -> int:
    fits = [d + 1 for d in costs.places(st, seat, card)]
    if q is None:
        if len(fits) == 1:
            return fits[0]
        raise CommandError(N_("say which district, e.g. '{verb} ... in 3'"),
                           [f"in {d}" for d in fits], verb=verb)
    q = re.sub(r"^(?:district|d|#|no\.?|number)\s*", "", q.strip())
    if q.isdigit():
        return int(q)
    names = {}
    for i, dist in enumerate(st.districts):
        if dist:
            names.setdefault(decktet.base(dist), []).append(i + 1)
    try:
        key = match(q, {b: decktet.aliases(b) for b in names}, "district")
    except CommandError as err:
        raise CommandError(N_("{refusal} (districts go by number or Pawn name)"),
                           [f"in {d}" for d in fits] or err.suggestions,
                           refusal=phrase(err.template, **err.values)) from None
    nums = names[key]
    if len(nums) == 1:
        return nums[0]
    good = [d for d in nums if d in fits]
    if len(good) == 1:
        return good[0]
    raise CommandError(N_("there are several districts of {card}: say its number"),
                       [f"in {d}" for d in (good or nums)], card=decktet.name(key))


def _buy(st: State, seat: int, rest: str) -> dict:
    cut = re.search(r" (?:in|with) ", " " + rest + " ")
    card_q = rest[:cut.start()].strip() if cut else rest
    card = _hand(st, seat, card_q)
    dm = re.search(r"\bin (.+?)(?= with |$)", rest)
    pm = re.search(r"\bwith (.+?)(?= in |$)", rest)
    district = _where(st, seat, card, dm.group(1) if dm else None, "buy")
    if pm:
        pay = _payment(pm.group(1))
    else:
        p = st.players[seat]
        options = costs.outright_payments(p.tokens, card, st.modern)
        best = options[0] if len(options) == 1 else costs.default_outright(p.tokens, card, st.modern)
        if best is None:
            raise CommandError(N_("you cannot afford {card} ({cost} tokens of its suits)"),
                               card=decktet.name(card), cost=costs.cost(card, st.modern))
        pay = unvec(best)
    return {"type": "buy", "card": card, "district": district, "pay": pay}


def _add(st: State, seat: int, pay_q: str, card_q: str, pending: dict | None) -> dict:
    card = _deed(st, seat, card_q, pending["card"] if pending else None)
    if pay_q.strip():
        return {"type": "add", "card": card, "pay": _payment(pay_q)}
    p = st.players[seat]
    held = [x for _d, x in costs.deeds(p) if x.card == card]
    if held:
        tokens, on = p.tokens, held[0].on
    else:   # the deed being bought in this same message
        tokens = tuple(t - c - pending.get("add", {}).get(s, 0) for t, c, s in
                       zip(p.tokens, costs.deed_cost(card), SUITS, strict=True))
        on = vec(pending.get("add", {}))
    pay = costs.default_completion(tokens, on, card, st.modern)
    if pay is None:
        raise CommandError(N_("you cannot complete it now: say how many tokens to add"),
                           [f"add 1 {decktet.SUIT_SINGULAR[s]} to {card_text(card)}"
                            for s in decktet.suits(card)])
    return {"type": "add", "card": card, "pay": unvec(pay)}


def _trade(groups) -> list[dict]:
    n_w, give_w, m_w, get_w = groups
    n = _number(n_w, 3)
    give, get = _suit(give_w), _suit(get_w)
    if n % 3 or n == 0:
        raise CommandError(N_("trades go 3 tokens of one suit for 1 of another"),
                           [f"trade 3 {decktet.SUIT_NAMES[give]} for 1 "
                            f"{decktet.SUIT_SINGULAR[get]}"])
    if m_w is not None and _number(m_w) != n // 3:
        raise CommandError(N_("{given} tokens trade for {got}, not {asked}"), given=n, got=n // 3,
                           asked=_number(m_w))
    return [{"type": "trade", "give": give, "get": get}] * (n // 3)


def _answer(st: State, verb: str, q: str | None) -> dict:
    if st.asked is None:
        raise CommandError(N_("there is no drawn Ace waiting for an answer"),
                           ["replace aces always", "replace aces never", "replace aces ask"])
    if q and norm(q) not in ("it", "ace", "the ace", "card"):
        _resolve(q, [st.asked], "card", N_("that is not the Ace you drew"))
    return {"type": "keep" if verb == "keep" else "replace", "card": st.asked}

