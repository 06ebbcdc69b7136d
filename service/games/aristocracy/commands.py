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

from ..cards import french
from ..contract import CommandError
from .state import KINDS, State, rank

WORD_RANKS = {"ace": "A", "jack": "J", "queen": "Q", "king": "K", "a": "A", "j": "J",
              "q": "Q", "k": "K", "1": "A", "t": "10"}
SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
KIND_WORDS = {"farm": 0, "estate": 1, "chateau": 2, "château": 2, "castle": 2}
NOTHING = ("nothing", "none", "no", "empty", "0", "-")
QUALIFIERS = {"hand": "hand", "stall": "stall", "exposed": "exposed",
              "face-down": "face-down", "facedown": "face-down", "hidden": "face-down"}
LIST_END = ("for", "with", "take", "at", "in", "into")

SAME, EXACT = "same", "exact"   # copies interchangeable in their zone / a copy is a choice


def base(card: str) -> str:
    return french.base(card)


def _copy(card: str) -> int:
    return int(card.split(".", 1)[1]) if "." in card else 0


def _lowest(cards, b: str, used) -> str | None:
    hits = [c for c in cards if base(c) == b and c not in used]
    return min(hits, key=_copy) if hits else None


# ---------------------------------------------------------------- zones of each card slot
#
# A zone list is [(name, cards)] in the order a plain card name is looked up; a name is the
# word that selects that zone in text (None: the zone needs no word).


def _own(s: State, seat: int) -> list:
    return [("hand", list(s.hands[seat])), ("stall", list(s.stalls[seat]))]


def _bcards(b) -> list:
    return [("exposed", [b.exposed] if b.exposed else []),
            ("face-down", [c for c in b.cards if c != b.exposed])]


def _addresses(s: State, owner: int) -> list:
    return [(None, [b.address for b in s.buildings[owner]])]


def _building_of(s: State, owner, address):
    if not isinstance(owner, int) or isinstance(owner, bool) or not 0 <= owner < s.n:
        return None
    i = s.find(owner, address) if isinstance(address, str) else None
    return None if i is None else s.buildings[owner][i]


def _slots(s: State, seat: int, m: dict) -> list:
    """Every card of move `m` in text order: (key, index or None, kind, zones, group).
    Slots of one group draw from one pool (a card is used once)."""
    t = m.get("type")
    out: list = []

    def many(key, kind, zones, group):
        cards = m.get(key)
        if isinstance(cards, list):
            out.extend((key, i, kind, zones, group) for i in range(len(cards)))

    def one(key, kind, zones, group):
        if isinstance(m.get(key), str):
            out.append((key, None, kind, zones, group))

    def action():
        do = m.get("do")
        if do == "build":
            one("address", SAME, _own(s, seat), "own")
            many("cards", SAME, _own(s, seat), "own")
        elif do == "upgrade":
            one("building", EXACT, _addresses(s, seat), "building")
            many("cards", SAME, _own(s, seat), "own")
        elif do == "visit" and isinstance(m.get("owner"), int):
            if 0 <= m["owner"] < s.n:
                one("building", EXACT, _addresses(s, m["owner"]), "building")
        elif do == "buy":
            one("take", SAME, [(None, list(s.face_up))], "discard")

    if t in ("stall", "ball", "discard"):
        many("cards", SAME, [("hand", list(s.hands[seat]))], "hand")
    elif t == "take":
        one("card", SAME, [(None, list(s.market))], "market")
    elif t == "declare":
        one("card", EXACT, [(None, list(s.market))], "market")
    elif t == "trade":
        one("give", SAME, [(None, list(s.stalls[seat]))], "stall")
        src = m.get("from")
        if src == "market":
            one("take", SAME, [(None, list(s.market))], "other")
        elif isinstance(src, int) and not isinstance(src, bool) and 0 <= src < s.n:
            one("take", SAME, [(None, list(s.stalls[src]))], "other")
    elif t == "store":
        one("card", SAME, _own(s, seat), "own")
        one("building", EXACT, _addresses(s, seat), "building")
        b = _building_of(s, seat, m.get("building"))
        if b is not None:
            one("out", SAME, _bcards(b), "inside")
    elif t in ("hide", "sell"):
        one("card", SAME, [(None, list(s.stalls[seat]))], "stall")
        many("cards", SAME, [(None, list(s.stalls[seat]))], "stall")
    elif t == "harvest":
        one("building", EXACT, _addresses(s, seat), "building")
    elif t == "favor":
        one("card", SAME, _own(s, seat), "own")
        action()
    elif t == "royal":
        action()
    elif t == "downgrade":
        one("building", EXACT, _addresses(s, seat), "building")
        b = _building_of(s, seat, m.get("building"))
        if b is not None:
            many("cards", SAME, _bcards(b), "inside")
    elif t == "expose" and s.visit:
        b = _building_of(s, s.visit["owner"], s.visit["building"])
        if b is not None:
            one("card", SAME, [(None, b.mismatches())], "inside")
    return out


def canonical(s: State, seat: int, move: dict, plain: bool = False) -> dict:
    """The one form of `move` that listing and parsing agree on: each card the lowest copy
    of its zone (interchangeable copies), plus the ``mark`` words the text needs. With
    `plain`, cards keep no zone at all: each is the copy a plain name reads as (used for
    the representative build lists, where the zone a card comes from is not offered)."""
    m = {k: (list(v) if isinstance(v, list) else v) for k, v in move.items() if k != "mark"}
    marks: dict[str, str] = {}
    used: dict[str, set] = defaultdict(set)
    for key, idx, kind, zones, group in _slots(s, seat, m):
        c = m[key] if idx is None else m[key][idx]
        u = used[group]
        if kind == SAME:
            default = next((x for _, cs in zones if (x := _lowest(cs, base(c), u))), None)
            zone = next(((n, cs) for n, cs in zones if c in cs), None)
            new = default if plain else (_lowest(zone[1], base(c), u) if zone else None)
            if new is None:
                new = c                              # not there: leave it for decide to refuse
            elif new != default:
                marks[new] = zone[0]
        else:
            new = c
            default = _lowest([x for _, cs in zones for x in cs], base(c), u)
            if default is not None and default != c and c in zones[0][1]:
                marks[c] = f"#{_copy(c)}"
        u.add(new)
        if idx is None:
            m[key] = new
        else:
            m[key][idx] = new
    if marks:
        m["mark"] = marks
    return m


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


def describe(m: dict) -> str:
    t = m["type"]
    c = card_text
    if t in ("stall", "ball", "discard"):
        return f"{t} {_cards(m['cards'], m)}"
    if t == "bid":
        return f"bid {m['coins']}"
    if t in ("take", "declare", "hide"):
        return f"{t} {c(m['card'], m)}"
    if t == "trade":
        src = "market" if m["from"] == "market" else _player(m["from"])
        return f"trade {c(m['give'], m)} for {src} {c(m['take'], m)}"
    if t == "store":
        return f"store {c(m['card'], m)} in {c(m['building'], m)} for {c(m['out'], m)}"
    if t == "sell":
        return f"sell {_cards(m['cards'], m)}"
    if t == "harvest":
        return f"harvest {c(m['building'], m)}"
    if t == "favor":
        return f"favor {c(m['card'], m)} {_action(m)}"
    if t == "royal":
        return f"royal {_action(m)}"
    if t == "downgrade":
        return f"downgrade {c(m['building'], m)}" + (
            f" take {_cards(m['cards'], m)}" if m["cards"] else "")
    if t == "expose":
        return f"expose {c(m['card'], m) if m['card'] else 'nothing'}"
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
            from .rules import legal_moves  # rules imports this module
            texts = [describe(m) for m in legal_moves(s, seat) if m["type"] == kind]
            if texts:
                raise CommandError(err.why, texts[:8]) from None
        raise


def _tokens(text: str) -> list[str]:
    text = text.strip().lower().replace("’", "'").replace("\ufe0f", "")
    text = re.sub(r"'s\b", "", text)
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


def match_card(tok: str, pool) -> str | None:
    """The first card of `pool` that `tok` names (lowest copy of the first fitting card)."""
    found = read_card(tok)
    if found is None:
        return None
    r, su, copy = found
    pool = list(pool)
    if su and copy and f"{r}{su}.{copy}" in pool:
        return f"{r}{su}.{copy}"
    hits = [c for c in pool if rank(c) == r and (su is None or french.suit(c) == su)]
    return _lowest(pool, base(hits[0]), ()) if hits else None


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
            raise CommandError(f"expected {' or '.join(repr(w) for w in words)}"
                               f"{' before ' + repr(self.peek()) if self.peek() else ''}")

    def card(self, zones, group, what="card", kind=SAME) -> str:
        """One card of `zones` (see `_slots`), resolved the way `canonical` resolves it."""
        used = self.used[group]
        zones = [(n, [c for c in cs if c not in used]) for n, cs in zones]
        names = [n for n, _ in zones if n]
        qual = QUALIFIERS.get(self.peek() or "")
        if qual in names:
            self.toks.pop(0)
            zones = [z for z in zones if z[0] == qual]
        left = list(dict.fromkeys(french.label(c) for _, cs in zones for c in cs))
        if not self.toks:
            raise CommandError(f"which {what}?", left[:8])
        tok = self.toks.pop(0)
        parsed = read_card(tok)
        found = None
        if parsed:
            r, su, copy = parsed
            exact = f"{r}{su}.{copy}" if su and copy else None
            for n, cs in zones:
                if exact in cs:
                    if kind == EXACT:
                        found = exact
                    zones = [(n, cs)]
                    break
            for _, cs in zones:
                if found:
                    break
                hits = [c for c in cs if rank(c) == r and (su is None or french.suit(c) == su)]
                if hits:
                    found = _lowest(cs, base(hits[0]), ())
        if found is None:
            where = f" in your {qual}" if qual else ""
            raise CommandError(f"there is no {what} {tok!r}{where} to use here", left[:8])
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
                               [french.label(b.address) for b in self.s.buildings[owner]])
        if not self.toks or self.peek() in ("with", "for", "take"):
            if len(row) == 1:
                return row[0]
            raise CommandError(f"which {what}? name its address",
                               [french.label(b.address) for b in row])
        address = self.card([(None, [b.address for b in row])], "building", what, EXACT)
        return row[[b.address for b in row].index(address)]

    def done(self):
        if self.toks:
            raise CommandError(f"did not understand {' '.join(self.toks)!r}")


def _parse_one(s: State, seat: int, line: str) -> dict:
    toks = _tokens(line)
    if not toks:
        raise CommandError("there is no command here")
    r = _Reader(s, seat, toks)
    verb = toks.pop(0)
    hand = [("hand", list(s.hands[seat]))]
    stall = [(None, list(s.stalls[seat]))]
    market = [(None, list(s.market))]
    if verb in ("stall", "ball") or (verb == "discard" and s.stage == "tax"):
        m = {"type": verb, "cards": r.cards(hand, "hand")}
    elif verb == "bid":
        tok = r.toks.pop(0) if r.toks else ""
        if not tok.isdigit():
            raise CommandError("bid how many coins?", ["bid 0", "bid 1"])
        m = {"type": "bid", "coins": int(tok)}
    elif verb == "take" and r.word("coin", "coins", "1"):
        r.word("coin")
        m = {"type": "take_coin"}
    elif verb in ("take", "declare"):
        m = {"type": verb, "card": r.card(market, "market", "market card",
                                          EXACT if verb == "declare" else SAME)}
    elif verb == "discard":
        r.word("exposed", "it", "the")
        r.word("exposed", "card")
        m = {"type": "discard_exposed"}
    elif verb == "trade":
        give = r.card(stall, "stall", "stall card")
        r.word("for")
        if r.word("market", "the"):
            r.word("market")
            m = {"type": "trade", "give": give, "take": r.card(market, "other", "market card"),
                 "from": "market"}
        else:
            other = r.player()
            r.word("stall")
            m = {"type": "trade", "give": give,
                 "take": r.card([(None, list(s.stalls[other]))], "other", "stall card"),
                 "from": other}
    elif verb == "store":
        card = r.card(_own(s, seat), "own")
        r.word("in", "into")
        b = r.building(seat)
        if r.word("for", "out"):
            out = r.card(_bcards(b), "inside", "building card")
        else:
            out = _default_out(b, card)
        m = {"type": "store", "card": card, "building": b.address, "out": out}
    elif verb == "hide":
        m = {"type": "hide", "card": r.card(stall, "stall", "stall card")}
    elif verb == "sell":
        m = {"type": "sell", "cards": r.cards(stall, "stall", "stall card")}
    elif verb == "harvest":
        m = {"type": "harvest", "building": r.building(seat, "farm").address}
    elif verb in ("favor", "favour"):
        faces = [(n, [c for c in cs if rank(c) in "JQK"]) for n, cs in _own(s, seat)]
        face = r.card(faces, "own", "face card")
        m = {"type": "favor", "card": face, **_parse_action(r)}
    elif verb == "royal":
        m = {"type": "royal", **_parse_action(r)}
    elif verb == "downgrade":
        b = r.building(seat)
        if r.word("take"):
            cards = r.cards(_bcards(b), "inside", "building card")
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
            m = {"type": "expose", "card": r.card([(None, pool)], "inside",
                                                  "mismatching card")}
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
    return canonical(s, seat, m)


def _parse_action(r: _Reader) -> dict:
    s, seat = r.s, r.seat
    own = _own(s, seat)
    if r.word("build"):
        kind = KIND_WORDS.get(r.peek() or "")
        if kind is not None:
            r.toks.pop(0)
        r.word("at")
        address = r.card(own, "own", "address card")
        r.need("with")
        cards = r.cards(own, "own")
        if kind is not None and len(cards) != s.bcounts()[kind]:
            raise CommandError(f"a {KINDS[kind]} takes {s.bcounts()[kind]} building cards")
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
