"""Reply text <-> moves.

Canonical text (`describe`) writes cards by rank and suit, the way the history does
(``stall 3♦ Q♣``, ``favor K♣ build at 8♠ with 8♦ 8♣ 8♥ 3♥``, ``trade 5♥ for p2 K♠``), never
by copy: two copies of one card in one zone (your hand, your stall, the market, a building…)
are interchangeable, so a move always uses the lowest copy present there (`canonical`), and
`legal_moves` lists one move per real choice.

Where copies are NOT interchangeable the text says why, with a word the move carries in its
optional ``mark`` (card id -> word), set only when the plain text would read differently:

* a card held both in your hand and in your stall: plain means the hand copy, ``stall 8♠``
  the stall one (store, favor, builds and upgrades take from both);
* a building holding an exposed card and a face-down copy of it: plain means the exposed one,
  ``face-down 3♣`` the other (store, downgrade);
* the one case that truly needs the copy number: two cards that are the same card but never
  the same thing — two of one player's buildings at the same address card (``7♥`` and
  ``7♥#2``), and the two copies of one card in the market during declarations, where declaring
  different copies is not declaring the same card (``declare 3♦#2``).

`parse` is forgiving: a card may be written ``7♥``, ``7h``, ``7H.2``, ``7``, ``k``/``king``
(a rank alone takes the first fitting card, hand before stall); copies are resolved exactly as
`canonical` resolves them, so ``parse(s, seat, describe(m)) == [m]`` for every listed move.
Players are ``p2``, ``player 2``, ``p2's`` or ``2`` (numbered from 1 in seat order); buildings
by their address card (``8``, ``8♣``), optionally after ``farm``/``estate``/``chateau``.
Several moves may be sent on separate lines or split by ``;``; each line is read against the
position as it stands before the first of them.
"""
from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable

from ..cards import french
from ..contract import CommandError
from ..text import N_, phrase, unquote
from .copies import EXACT, SAME, base, building_zones, canonical, lowest, own_zones
from .rules import legal_moves
from .state import KINDS, State, rank

WORD_RANKS = {"ace": "A", "jack": "J", "queen": "Q", "king": "K", "a": "A", "j": "J",
              "q": "Q", "k": "K", "1": "A", "t": "10"}
SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
KIND_WORDS = {"farm": 0, "estate": 1, "chateau": 2, "château": 2, "castle": 2}
NOTHING = ("nothing", "none", "no", "empty", "0", "-")
QUALIFIERS = {"hand": "hand", "stall": "stall", "exposed": "exposed",
              "face-down": "face-down", "facedown": "face-down", "hidden": "face-down"}
LIST_END = ("for", "with", "take", "at", "in", "into")


# ---------------------------------------------------------------- describe


def card_text(card: str, m: dict | None = None) -> str:
    """``7♥``; with the move's mark: ``stall 7♥``, ``face-down 7♥``, ``7♥#2``."""
    word = ((m or {}).get("mark") or {}).get(card)
    label = french.label(card)
    if not word:
        return label
    return label + word if word.startswith("#") else f"{word} {label}"


def _cards(cards, m) -> str:
    return " ".join(card_text(c, m) for c in cards) if cards else "nothing"


def _player(seat: int) -> str:
    return f"p{seat + 1}"


def _action(m: dict) -> str:
    do = m["do"]
    if do == "build":
        return f"build at {card_text(m['address'], m)} with {_cards(m['cards'], m)}"
    if do == "upgrade":
        return f"upgrade {card_text(m['building'], m)} with {_cards(m['cards'], m)}"
    if do == "visit":
        return f"visit {_player(m['owner'])} {card_text(m['building'], m)}"
    return f"buy {card_text(m['take'], m)}"


def _trade_text(m: dict) -> str:
    src = "market" if m["from"] == "market" else _player(m["from"])
    return f"trade {card_text(m['give'], m)} for {src} {card_text(m['take'], m)}"


def _downgrade_text(m: dict) -> str:
    take = f" take {_cards(m['cards'], m)}" if m["cards"] else ""
    return f"downgrade {card_text(m['building'], m)}{take}"


def _expose_text(m: dict) -> str:
    return f"expose {card_text(m['card'], m) if m['card'] else 'nothing'}"


def _card_move_text(m: dict) -> str:
    return f"{m['type']} {card_text(m['card'], m)}"


def _cards_move_text(m: dict) -> str:
    return f"{m['type']} {_cards(m['cards'], m)}"


_DESCRIBE: dict[str, Callable[[dict], str]] = {
    "stall": _cards_move_text, "ball": _cards_move_text, "discard": _cards_move_text,
    "sell": _cards_move_text,
    "take": _card_move_text, "declare": _card_move_text, "hide": _card_move_text,
    "bid": lambda m: f"bid {m['coins']}",
    "trade": _trade_text,
    "store": lambda m: (f"store {card_text(m['card'], m)} in {card_text(m['building'], m)} "
                        f"for {card_text(m['out'], m)}"),
    "harvest": lambda m: f"harvest {card_text(m['building'], m)}",
    "favor": lambda m: f"favor {card_text(m['card'], m)} {_action(m)}",
    "royal": lambda m: f"royal {_action(m)}",
    "downgrade": _downgrade_text,
    "expose": _expose_text,
    "discard_exposed": lambda m: "discard exposed",
    "take_coin": lambda m: "take coin",
    "end": lambda m: "end game",
    "end_choice": lambda m: "end the game when I can" if m["end"] else "play on",
}


def describe(m: dict) -> str:
    """The canonical text of a move (one writer per move type); `parse` reads it back."""
    write = _DESCRIBE.get(m["type"])
    return write(m) if write else m["type"]


# ---------------------------------------------------------------- parsing


def parse(s: State, seat: int, text: str) -> list[dict]:
    lines = [ln for ln in re.split(r"[\n;]+", text) if ln.strip()]
    if not lines:
        raise CommandError(N_("there is no command here"), ["pass"])
    return [_parse_one_helpfully(s, seat, ln) for ln in lines]


VERB_TYPES = {"stall": "stall", "ball": "ball", "take": "take", "declare": "declare",
              "trade": "trade", "store": "store", "hide": "hide", "sell": "sell",
              "harvest": "harvest", "favor": "favor", "favour": "favor", "royal": "royal",
              "downgrade": "downgrade", "expose": "expose", "discard": "discard"}


def _parse_one_helpfully(s: State, seat: int, line: str) -> dict:
    """A refused command of a known verb suggests the listed moves of that verb."""
    try:
        return _parse_one(s, seat, line)
    except CommandError as err:
        toks = _tokens(line)
        kind = VERB_TYPES.get(toks[0]) if toks else None
        if kind:
            texts = [describe(m) for m in legal_moves(s, seat) if m["type"] == kind]
            if texts:
                raise err.suggesting(texts[:8]) from None
        raise


def _tokens(text: str) -> list[str]:
    text = text.strip().lower().replace("’", "'").replace("\ufe0f", "")
    text = re.sub(r"'s\b", "", text)
    # quotation marks around a card ('7♥', "7♥") go, as around the Decktet games' names
    text = unquote(text)
    text = re.sub(r"[,:!?()]+", " ", text)
    return text.split()


def read_card(tok: str) -> tuple[str, str | None, str | None] | None:
    """(rank, suit or None, copy or None) from ``7♥``, ``7h``, ``7H.2``, ``7♥#2``, ``king``."""
    t = tok.strip().replace("\ufe0f", "")
    for sym, letter in SYMBOLS.items():
        t = t.replace(sym, letter)
    copy = None
    m = re.fullmatch(r"(.+?)[#.](\d+)", t)
    if m:
        t, copy = m.group(1), m.group(2)
    t = WORD_RANKS.get(t.lower(), t).upper()
    if t in french.RANKS:
        return t, None, copy
    if len(t) >= 2 and t[:-1] in french.RANKS and t[-1] in french.SUITS:
        return t[:-1], t[-1], copy
    word = WORD_RANKS.get(t[:-1].lower()) if len(t) >= 2 else None
    if word and t[-1] in french.SUITS:
        return word, t[-1], copy
    return None


def _find(parsed, zones, kind) -> str | None:
    """The card a parsed name picks from `zones`: an exact copy named (``7H.2``) picks its
    zone, and under EXACT that very copy; otherwise the lowest copy of the first fitting
    card, zone by zone."""
    if not parsed:
        return None
    r, su, copy = parsed
    exact = f"{r}{su}.{copy}" if su and copy else None
    for n, cs in zones:
        if exact in cs:
            if kind == EXACT:
                return exact
            zones = [(n, cs)]
            break
    for _, cs in zones:
        hits = [c for c in cs if rank(c) == r and (su is None or french.suit(c) == su)]
        if hits:
            return lowest(cs, base(hits[0]), ())
    return None


# What the reader says of each kind of card it looks for, whole: German and French make
# "which" and "no" agree with the noun. A kind not here is said in English.
WHICH = {"card": N_("which card?"), "market card": N_("which market card?"),
         "stall card": N_("which stall card?"), "building card": N_("which building card?"),
         "face card": N_("which face card?"), "mismatching card": N_("which mismatching card?"),
         "address card": N_("which address card?"),
         "face-up discard": N_("which face-up discard?"), "building": N_("which building?"),
         "farm": N_("which farm?")}
NONE_HERE = {
    "card": N_("there is no card {card}{where} to use here"),
    "market card": N_("there is no market card {card}{where} to use here"),
    "stall card": N_("there is no stall card {card}{where} to use here"),
    "building card": N_("there is no building card {card}{where} to use here"),
    "face card": N_("there is no face card {card}{where} to use here"),
    "mismatching card": N_("there is no mismatching card {card}{where} to use here"),
    "address card": N_("there is no address card {card}{where} to use here"),
    "face-up discard": N_("there is no face-up discard {card}{where} to use here"),
    "building": N_("there is no building {card}{where} to use here"),
    "farm": N_("there is no farm {card}{where} to use here")}
#: where a qualifier ("hand 7h") looked, said after the card
IN_YOUR = {"hand": N_(" in your hand"), "stall": N_(" in your stall"),
           "exposed": N_(" in your exposed"), "face-down": N_(" in your face-down")}
NO_SUCH = {"building": N_("there is no such building"), "farm": N_("there is no such farm")}
WHICH_ADDRESS = {"building": N_("which building? name its address"),
                 "farm": N_("which farm? name its address")}


def _which(what: str) -> str:
    return WHICH.get(what) or f"which {what}?"


def _none(what: str) -> str:
    return NONE_HERE.get(what) or "there is no " + what + " {card}{where} to use here"


class _Reader:
    def __init__(self, s: State, seat: int, toks: list[str]):
        self.s, self.seat, self.toks = s, seat, toks
        self.used: dict[str, list] = defaultdict(list)

    def peek(self) -> str | None:
        return self.toks[0] if self.toks else None

    def word(self, *words) -> bool:
        if self.toks and self.toks[0] in words:
            self.toks.pop(0)
            return True
        return False

    def need(self, *words):
        if not self.word(*words):
            expected = " or ".join(repr(w) for w in words)    # one word, as the grammar asks
            if self.peek():
                raise CommandError(N_("expected {words} before {next}"), words=expected,
                                   next=repr(self.peek()))
            raise CommandError(N_("expected {words}"), words=expected)

    def card(self, zones, group, what="card", kind=SAME) -> str:
        """One card of `zones` (see `copies.slots`), resolved the way `canonical` resolves it."""
        used = self.used[group]
        zones = [(n, [c for c in cs if c not in used]) for n, cs in zones]
        names = [n for n, _ in zones if n]
        qual = QUALIFIERS.get(self.peek() or "")
        if qual in names:
            self.toks.pop(0)
            zones = [z for z in zones if z[0] == qual]
        left = list(dict.fromkeys(french.label(c) for _, cs in zones for c in cs))
        if not self.toks:
            raise CommandError(_which(what), left[:8])
        tok = self.toks.pop(0)
        found = _find(read_card(tok), zones, kind)
        if found is None:
            raise CommandError(_none(what), left[:8], card=repr(tok),
                               where=phrase(IN_YOUR[qual]) if qual else "")
        used.append(found)
        return found

    def cards(self, zones, group, what="card") -> list[str]:
        if self.peek() in NOTHING:
            self.toks.pop(0)
            return []
        out: list[str] = []
        while self.toks and self.peek() not in LIST_END:
            out.append(self.card(zones, group, what))
        return out

    def player(self) -> int:
        tok = self.toks.pop(0) if self.toks else ""
        if tok == "player" and self.toks:
            tok = self.toks.pop(0)
        num = tok[1:] if tok.startswith("p") else tok
        if not num.isdigit() or not 1 <= int(num) <= self.s.n:
            raise CommandError(N_("which player is {text}? write p1 to p{last}"),
                               [f"p{i + 1}" for i in range(self.s.n) if i != self.seat],
                               text=repr(tok), last=self.s.n)
        return int(num) - 1

    def building(self, owner: int, what="building"):
        kind = KIND_WORDS.get(self.peek() or "")
        if kind is not None:
            self.toks.pop(0)
        row = [b for b in self.s.buildings[owner]
               if kind is None or self.s.level(b) == kind]
        if not row:
            raise CommandError(NO_SUCH[what],
                               [french.label(b.address) for b in self.s.buildings[owner]])
        if not self.toks or self.peek() in ("with", "for", "take"):
            if len(row) == 1:
                return row[0]
            raise CommandError(WHICH_ADDRESS[what], [french.label(b.address) for b in row])
        address = self.card([(None, [b.address for b in row])], "building", what, EXACT)
        return row[[b.address for b in row].index(address)]

    def done(self):
        if self.toks:
            raise CommandError(N_("did not understand {text}"), text=repr(" ".join(self.toks)))


# One reader per verb: each takes the words after the verb and returns the move.


def _read_sealed(r: _Reader, verb: str) -> dict:
    return {"type": verb, "cards": r.cards([("hand", list(r.s.hands[r.seat]))], "hand")}


def _read_bid(r: _Reader, verb: str) -> dict:
    tok = r.toks.pop(0) if r.toks else ""
    if not tok.isdigit():
        raise CommandError(N_("bid how many coins?"), ["bid 0", "bid 1"])
    return {"type": "bid", "coins": int(tok)}


def _read_take(r: _Reader, verb: str) -> dict:
    if r.word("coin", "coins", "1"):
        r.word("coin")
        return {"type": "take_coin"}
    return _read_market_card(r, verb)


def _read_market_card(r: _Reader, verb: str) -> dict:
    kind = EXACT if verb == "declare" else SAME
    return {"type": verb, "card": r.card([(None, list(r.s.market))], "market", "market card",
                                         kind)}


def _read_discard(r: _Reader, verb: str) -> dict:
    if r.s.stage == "tax":
        return _read_sealed(r, "discard")
    r.word("exposed", "it", "the")
    r.word("exposed", "card")
    return {"type": "discard_exposed"}


def _read_trade(r: _Reader, verb: str) -> dict:
    s = r.s
    give = r.card([(None, list(s.stalls[r.seat]))], "stall", "stall card")
    r.word("for")
    if r.word("market", "the"):
        r.word("market")
        take = r.card([(None, list(s.market))], "other", "market card")
        return {"type": "trade", "give": give, "take": take, "from": "market"}
    other = r.player()
    r.word("stall")
    take = r.card([(None, list(s.stalls[other]))], "other", "stall card")
    return {"type": "trade", "give": give, "take": take, "from": other}


def _read_store(r: _Reader, verb: str) -> dict:
    card = r.card(own_zones(r.s, r.seat), "own")
    r.word("in", "into")
    b = r.building(r.seat)
    if r.word("for", "out"):
        out = r.card(building_zones(b), "inside", "building card")
    else:
        out = _default_out(b, card)
    return {"type": "store", "card": card, "building": b.address, "out": out}


def _read_hide(r: _Reader, verb: str) -> dict:
    return {"type": "hide", "card": r.card([(None, list(r.s.stalls[r.seat]))], "stall",
                                           "stall card")}


def _read_sell(r: _Reader, verb: str) -> dict:
    return {"type": "sell", "cards": r.cards([(None, list(r.s.stalls[r.seat]))], "stall",
                                             "stall card")}


def _read_harvest(r: _Reader, verb: str) -> dict:
    return {"type": "harvest", "building": r.building(r.seat, "farm").address}


def _read_favor(r: _Reader, verb: str) -> dict:
    faces = [(n, [c for c in cs if rank(c) in "JQK"]) for n, cs in own_zones(r.s, r.seat)]
    face = r.card(faces, "own", "face card")
    return {"type": "favor", "card": face, **_parse_action(r)}


def _read_royal(r: _Reader, verb: str) -> dict:
    return {"type": "royal", **_parse_action(r)}


def _read_downgrade(r: _Reader, verb: str) -> dict:
    b = r.building(r.seat)
    if r.word("take"):
        cards = r.cards(building_zones(b), "inside", "building card")
    else:
        cards = _default_downgrade(r.s, b)
    return {"type": "downgrade", "building": b.address, "cards": cards}


def _read_expose(r: _Reader, verb: str) -> dict:
    if r.peek() in NOTHING:
        r.toks.pop(0)
        return {"type": "expose", "card": None}
    s, v = r.s, r.s.visit or {}
    pool = []
    if v:
        pool = s.buildings[v["owner"]][s.find(v["owner"], v["building"])].mismatches()
    return {"type": "expose", "card": r.card([(None, pool)], "inside", "mismatching card")}


def _read_end(r: _Reader, verb: str) -> dict:
    r.word("game", "the")
    r.word("game")
    if r.word("when", "whenever"):          # A19 amended: the standing choice
        r.word("i", "able")
        r.word("can", "am")
        r.word("able")
        return {"type": "end_choice", "end": True}
    return {"type": "end"}


def _read_play_on(r: _Reader, verb: str) -> dict:
    r.need("on")
    return {"type": "end_choice", "end": False}


_READERS: dict[str, Callable[[_Reader, str], dict]] = {
    "stall": _read_sealed, "ball": _read_sealed, "bid": _read_bid, "take": _read_take,
    "declare": _read_market_card, "discard": _read_discard, "trade": _read_trade,
    "store": _read_store, "hide": _read_hide, "sell": _read_sell, "harvest": _read_harvest,
    "favor": _read_favor, "favour": _read_favor, "royal": _read_royal,
    "downgrade": _read_downgrade, "expose": _read_expose, "end": _read_end,
    "pass": lambda r, verb: {"type": "pass"}, "done": lambda r, verb: {"type": "pass"},
    "continue": lambda r, verb: {"type": "pass"},
    "play": _read_play_on,
}


def _parse_one(s: State, seat: int, line: str) -> dict:
    toks = _tokens(line)
    if not toks:
        raise CommandError(N_("there is no command here"))
    r = _Reader(s, seat, toks)
    verb = toks.pop(0)
    read = _READERS.get(verb)
    if read is None:
        raise CommandError(N_("unknown command {verb}"),
                           ["pass", "stall nothing", "bid 0", "trade", "store", "sell", "hide",
                            "harvest", "favor", "royal", "downgrade", "end game"],
                           verb=repr(verb))
    m = read(r, verb)
    r.done()
    return canonical(s, seat, m)


def _parse_action(r: _Reader) -> dict:
    s, seat = r.s, r.seat
    own = own_zones(s, seat)
    if r.word("build"):
        kind = KIND_WORDS.get(r.peek() or "")
        if kind is not None:
            r.toks.pop(0)
        r.word("at")
        address = r.card(own, "own", "address card")
        r.need("with")
        cards = r.cards(own, "own")
        if kind is not None and len(cards) != s.bcounts()[kind]:
            raise CommandError(N_("a {kind} takes {count} building cards"), kind=KINDS[kind],
                               count=s.bcounts()[kind])
        return {"do": "build", "address": address, "cards": cards}
    if r.word("upgrade"):
        b = r.building(seat)
        r.need("with")
        return {"do": "upgrade", "building": b.address, "cards": r.cards(own, "own")}
    if r.word("visit"):
        owner = r.player()
        return {"do": "visit", "owner": owner, "building": r.building(owner).address}
    if r.word("buy"):
        return {"do": "buy", "take": r.card([(None, list(s.face_up))], "discard",
                                            "face-up discard")}
    raise CommandError(N_("build, upgrade, visit or buy?"),
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
