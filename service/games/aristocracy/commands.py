"""Reply text <-> moves.

Canonical text (`describe`) names exact copies (``7H.2``) because it has no position to tell
which copy a bare rank would mean; `parse` is forgiving: a card may be written ``7``, ``7h``,
``7♥``, ``7H.2``, ``k``/``king``; a rank alone takes the first
fitting copy (stall before hand for favors, hand before stall for builds and stores).
Players are ``p2``, ``player 2``, ``p2's`` or ``2`` (numbered from 1 in seat order); buildings by their address (``8``, ``8C.1``), optionally after ``farm``/``estate``/
``chateau``. Several moves may be sent on separate lines or split by ``;``; each line is read
against the position as it stands before the first of them.
"""
from __future__ import annotations

import re

from ..contract import CommandError
from .state import KINDS, State, rank

WORD_RANKS = {"ace": "A", "jack": "J", "queen": "Q", "king": "K", "a": "A", "j": "J",
              "q": "Q", "k": "K"}
SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
KIND_WORDS = {"farm": 0, "estate": 1, "chateau": 2, "château": 2, "castle": 2}
NOTHING = ("nothing", "none", "no", "empty", "0", "-")


def _cards(cards) -> str:
    return " ".join(cards) if cards else "nothing"


def _player(seat: int) -> str:
    return f"p{seat + 1}"


def _action(m: dict) -> str:
    do = m["do"]
    if do == "build":
        return f"build at {m['address']} with {_cards(m['cards'])}"
    if do == "upgrade":
        return f"upgrade {m['building']} with {_cards(m['cards'])}"
    if do == "visit":
        return f"visit {_player(m['owner'])} {m['building']}"
    return f"buy {m['take']}"


def describe(m: dict) -> str:
    t = m["type"]
    if t in ("stall", "ball", "discard"):
        return f"{t} {_cards(m['cards'])}"
    if t == "bid":
        return f"bid {m['coins']}"
    if t in ("take", "declare", "hide"):
        return f"{t} {m['card']}"
    if t == "trade":
        src = "market" if m["from"] == "market" else _player(m["from"])
        return f"trade {m['give']} for {src} {m['take']}"
    if t == "store":
        return f"store {m['card']} in {m['building']} for {m['out']}"
    if t == "sell":
        return f"sell {_cards(m['cards'])}"
    if t == "harvest":
        return f"harvest {m['building']}"
    if t == "favor":
        return f"favor {m['card']} {_action(m)}"
    if t == "royal":
        return f"royal {_action(m)}"
    if t == "downgrade":
        return f"downgrade {m['building']}" + (f" take {_cards(m['cards'])}" if m["cards"]
                                               else "")
    if t == "expose":
        return f"expose {m['card'] or 'nothing'}"
    if t == "discard_exposed":
        return "discard exposed"
    if t == "take_coin":
        return "take coin"
    if t == "end":
        return "end game"
    return t


# ---------------------------------------------------------------- parsing


def parse(s: State, seat: int, text: str) -> list[dict]:
    lines = [ln for ln in re.split(r"[\n;]+", text) if ln.strip()]
    if not lines:
        raise CommandError("there is no command here", ["pass"])
    return [_parse_one(s, seat, ln) for ln in lines]


def _tokens(text: str) -> list[str]:
    text = text.strip().lower().replace("’", "'")
    text = re.sub(r"'s\b", "", text)
    text = re.sub(r"[,:!?]+", " ", text)
    return text.split()


class _Reader:
    def __init__(self, s: State, seat: int, toks: list[str]):
        self.s, self.seat, self.toks = s, seat, toks

    def peek(self) -> str | None:
        return self.toks[0] if self.toks else None

    def word(self, *words) -> bool:
        if self.toks and self.toks[0] in words:
            self.toks.pop(0)
            return True
        return False

    def need(self, *words):
        if not self.word(*words):
            raise CommandError(f"expected {' or '.join(repr(w) for w in words)}"
                               f"{' before ' + repr(self.peek()) if self.peek() else ''}")

    def card(self, pool, used=(), what="card") -> str:
        if not self.toks:
            raise CommandError(f"which {what}?", list(dict.fromkeys(pool))[:8])
        tok = self.toks.pop(0)
        found = match_card(tok, [c for c in pool if c not in used])
        if found is None:
            raise CommandError(f"there is no {what} {tok!r} to use here",
                               [c for c in pool if c not in used][:8])
        return found

    def cards(self, pool, used=(), what="card") -> list[str]:
        if self.peek() in NOTHING:
            self.toks.pop(0)
            return []
        out: list[str] = []
        while self.toks and self.peek() not in ("for", "with", "take", "at"):
            out.append(self.card(pool, [*used, *out], what))
        return out

    def player(self) -> int:
        tok = self.toks.pop(0) if self.toks else ""
        if tok == "player" and self.toks:
            tok = self.toks.pop(0)
        num = tok[1:] if tok.startswith("p") else tok
        if not num.isdigit() or not 1 <= int(num) <= self.s.n:
            raise CommandError(f"which player is {tok!r}? write p1 to p{self.s.n}",
                               [f"p{i + 1}" for i in range(self.s.n) if i != self.seat])
        return int(num) - 1

    def building(self, owner: int, what="building"):
        kind = KIND_WORDS.get(self.peek() or "")
        if kind is not None:
            self.toks.pop(0)
        row = [b for b in self.s.buildings[owner]
               if kind is None or self.s.level(b) == kind]
        if not row:
            raise CommandError(f"there is no such {what}",
                               [b.address for b in self.s.buildings[owner]])
        if not self.toks or self.peek() in ("with", "for", "take"):
            if len(row) == 1:
                return row[0]
            raise CommandError(f"which {what}? name its address", [b.address for b in row])
        address = self.card([b.address for b in row], what=what)
        return row[[b.address for b in row].index(address)]

    def done(self):
        if self.toks:
            raise CommandError(f"did not understand {' '.join(self.toks)!r}")


def match_card(tok: str, pool) -> str | None:
    """Exact id, rank+suit, or rank, case-insensitive; first fitting card of `pool`."""
    t = tok.strip().upper()
    for sym, letter in SYMBOLS.items():
        t = t.replace(sym, letter)
    t = WORD_RANKS.get(t.lower(), t)
    for c in pool:
        if c.upper() == t:
            return c
    for c in pool:
        if c.split(".")[0].upper() == t:
            return c
    for c in pool:
        if rank(c) == t:
            return c
    return None


def _parse_one(s: State, seat: int, line: str) -> dict:
    toks = _tokens(line)
    if not toks:
        raise CommandError("there is no command here")
    r = _Reader(s, seat, toks)
    verb = toks.pop(0)
    hand, stall = list(s.hands[seat]), list(s.stalls[seat])
    if verb in ("stall", "ball") or (verb == "discard" and s.stage == "tax"):
        m = {"type": verb, "cards": r.cards(hand)}
    elif verb == "bid":
        tok = r.toks.pop(0) if r.toks else ""
        if not tok.isdigit():
            raise CommandError("bid how many coins?", ["bid 0", "bid 1"])
        m = {"type": "bid", "coins": int(tok)}
    elif verb == "take" and r.word("coin", "coins", "1"):
        r.word("coin")
        m = {"type": "take_coin"}
    elif verb in ("take", "declare"):
        m = {"type": verb, "card": r.card(list(s.market), what="market card")}
    elif verb == "discard":
        r.word("exposed", "it", "the")
        r.word("exposed", "card")
        m = {"type": "discard_exposed"}
    elif verb == "trade":
        give = r.card(stall, what="stall card")
        r.word("for")
        if r.word("market", "the"):
            r.word("market")
            m = {"type": "trade", "give": give, "take": r.card(list(s.market), what="market card"),
                 "from": "market"}
        else:
            other = r.player()
            r.word("stall")
            m = {"type": "trade", "give": give,
                 "take": r.card(list(s.stalls[other]), what="stall card"), "from": other}
    elif verb == "store":
        card = r.card(hand + stall)
        r.word("in", "into")
        b = r.building(seat)
        if r.word("for", "out"):
            out = r.card(list(b.cards), what="building card")
        else:
            out = _default_out(b, card)
        m = {"type": "store", "card": card, "building": b.address, "out": out}
    elif verb == "hide":
        m = {"type": "hide", "card": r.card(stall, what="stall card")}
    elif verb == "sell":
        m = {"type": "sell", "cards": r.cards(stall, what="stall card")}
    elif verb == "harvest":
        m = {"type": "harvest", "building": r.building(seat, "farm").address}
    elif verb in ("favor", "favour"):
        face = r.card([c for c in stall + hand if rank(c) in "JQK"], what="face card")
        m = {"type": "favor", "card": face, **_parse_action(r, face)}
    elif verb == "royal":
        m = {"type": "royal", **_parse_action(r, None)}
    elif verb == "downgrade":
        b = r.building(seat)
        if r.word("take"):
            cards = r.cards(list(b.cards), what="building card")
        else:
            cards = _default_downgrade(s, b)
        m = {"type": "downgrade", "building": b.address, "cards": cards}
    elif verb == "expose":
        if r.peek() in NOTHING:
            r.toks.pop(0)
            m = {"type": "expose", "card": None}
        else:
            v = s.visit or {}
            pool = []
            if v:
                pool = s.buildings[v["owner"]][s.find(v["owner"], v["building"])].mismatches()
            m = {"type": "expose", "card": r.card(pool, what="mismatching card")}
    elif verb in ("pass", "done", "continue"):
        m = {"type": "pass"}
    elif verb == "end":
        r.word("game", "the")
        r.word("game")
        m = {"type": "end"}
    else:
        raise CommandError(f"unknown command {verb!r}",
                           ["pass", "stall nothing", "bid 0", "trade", "store", "sell", "hide",
                            "harvest", "favor", "royal", "downgrade", "end game"])
    r.done()
    return m


def _parse_action(r: _Reader, face: str | None) -> dict:
    s, seat = r.s, r.seat
    pool = [c for c in s.hands[seat] + s.stalls[seat] if c != face]
    if r.word("build"):
        kind = KIND_WORDS.get(r.peek() or "")
        if kind is not None:
            r.toks.pop(0)
        r.word("at")
        address = r.card(pool, what="address card")
        r.need("with")
        cards = r.cards(pool, [address])
        if kind is not None and len(cards) != s.bcounts()[kind]:
            raise CommandError(f"a {KINDS[kind]} takes {s.bcounts()[kind]} building cards")
        return {"do": "build", "address": address, "cards": cards}
    if r.word("upgrade"):
        b = r.building(seat)
        r.need("with")
        return {"do": "upgrade", "building": b.address, "cards": r.cards(pool)}
    if r.word("visit"):
        owner = r.player()
        return {"do": "visit", "owner": owner, "building": r.building(owner).address}
    if r.word("buy"):
        return {"do": "buy", "take": r.card(list(s.discard[:4]), what="face-up discard")}
    raise CommandError("build, upgrade, visit or buy?",
                       ["royal build at 8 with 8 8 8", "favor Q visit p2 8", "favor J buy 5"])


def _default_out(b, card) -> str:
    """The building card a bare `store X in B` swaps out: the exposed one, else a mismatching
    one of another rank than X, else the first."""
    if b.exposed:
        return b.exposed
    for c in b.mismatches():
        if rank(c) != rank(card):
            return c
    return b.cards[0]


def _default_downgrade(s: State, b) -> list[str]:
    lvl = s.level(b)
    if lvl == 0:
        return []
    first = ([b.exposed] if b.exposed else []) + [c for c in b.mismatches() if c != b.exposed]
    rest = [c for c in b.cards if c not in first]
    return (first + rest)[:len(b.cards) - s.bcounts()[lvl - 1]]
