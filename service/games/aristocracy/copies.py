"""Which copy of a card a move names: the canonical form that `rules.legal_moves` lists and
`commands.parse` reads (so ``parse(describe(m)) == [m]``).

Two copies of one card in one zone (a hand, a stall, the market, a building) are
interchangeable, so a move uses the lowest copy present there. Where copies are NOT
interchangeable the move carries a ``mark`` (card id -> word) its text needs: ``stall`` (a
card both in hand and stall), ``face-down`` (a building holding an exposed card and a
face-down copy of it), ``#2`` (two buildings at one address card; two market copies during
declarations). See commands.py for the text side.

This module sits between state.py and rules.py: both rules (listing moves) and commands
(parsing them) need it, and neither may import the other's way round (docs/engines.md).
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from ..cards import french
from .state import State

SAME, EXACT = "same", "exact"   # copies interchangeable in their zone / a copy is a choice


def base(card: str) -> str:
    return french.base(card)


def copy_no(card: str) -> int:
    return int(card.split(".", 1)[1]) if "." in card else 0


def lowest(cards, b: str, used) -> str | None:
    hits = [c for c in cards if base(c) == b and c not in used]
    return min(hits, key=copy_no) if hits else None


# ---------------------------------------------------------------- zones of each card slot
#
# A zone list is [(name, cards)] in the order a plain card name is looked up; a name is the
# word that selects that zone in text (None: the zone needs no word).


def own_zones(s: State, seat: int) -> list:
    return [("hand", list(s.hands[seat])), ("stall", list(s.stalls[seat]))]


def building_zones(b) -> list:
    return [("exposed", [b.exposed] if b.exposed else []),
            ("face-down", [c for c in b.cards if c != b.exposed])]


def _addresses(s: State, owner: int) -> list:
    return [(None, [b.address for b in s.buildings[owner]])]


def _seat_no(s: State, x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x < s.n


def building_of(s: State, owner, address):
    if not _seat_no(s, owner):
        return None
    i = s.find(owner, address) if isinstance(address, str) else None
    return None if i is None else s.buildings[owner][i]


class _Slots:
    """Collects the card slots of one move: (key, index or None, kind, zones, group)."""

    def __init__(self, s: State, seat: int, m: dict):
        self.s, self.seat, self.m, self.out = s, seat, m, []

    def many(self, key, kind, zones, group):
        cards = self.m.get(key)
        if isinstance(cards, list):
            self.out.extend((key, i, kind, zones, group) for i in range(len(cards)))

    def one(self, key, kind, zones, group):
        if isinstance(self.m.get(key), str):
            self.out.append((key, None, kind, zones, group))


def _sealed(sl: _Slots):
    sl.many("cards", SAME, [("hand", list(sl.s.hands[sl.seat]))], "hand")


def _take(sl: _Slots):
    sl.one("card", SAME, [(None, list(sl.s.market))], "market")


def _declare(sl: _Slots):
    sl.one("card", EXACT, [(None, list(sl.s.market))], "market")


def _trade(sl: _Slots):
    s, m = sl.s, sl.m
    sl.one("give", SAME, [(None, list(s.stalls[sl.seat]))], "stall")
    src = m.get("from")
    if src == "market":
        sl.one("take", SAME, [(None, list(s.market))], "other")
    elif _seat_no(s, src):
        sl.one("take", SAME, [(None, list(s.stalls[src]))], "other")


def _store(sl: _Slots):
    sl.one("card", SAME, own_zones(sl.s, sl.seat), "own")
    sl.one("building", EXACT, _addresses(sl.s, sl.seat), "building")
    b = building_of(sl.s, sl.seat, sl.m.get("building"))
    if b is not None:
        sl.one("out", SAME, building_zones(b), "inside")


def _stall_cards(sl: _Slots):
    stall = [(None, list(sl.s.stalls[sl.seat]))]
    sl.one("card", SAME, stall, "stall")
    sl.many("cards", SAME, stall, "stall")


def _harvest(sl: _Slots):
    sl.one("building", EXACT, _addresses(sl.s, sl.seat), "building")


def _royal_action(sl: _Slots):
    s, seat, m = sl.s, sl.seat, sl.m
    do = m.get("do")
    if do == "build":
        sl.one("address", SAME, own_zones(s, seat), "own")
        sl.many("cards", SAME, own_zones(s, seat), "own")
    elif do == "upgrade":
        sl.one("building", EXACT, _addresses(s, seat), "building")
        sl.many("cards", SAME, own_zones(s, seat), "own")
    elif do == "visit" and _seat_no(s, m.get("owner")):
        sl.one("building", EXACT, _addresses(s, m["owner"]), "building")
    elif do == "buy":
        sl.one("take", SAME, [(None, list(s.face_up))], "discard")


def _favor(sl: _Slots):
    sl.one("card", SAME, own_zones(sl.s, sl.seat), "own")
    _royal_action(sl)


def _downgrade(sl: _Slots):
    sl.one("building", EXACT, _addresses(sl.s, sl.seat), "building")
    b = building_of(sl.s, sl.seat, sl.m.get("building"))
    if b is not None:
        sl.many("cards", SAME, building_zones(b), "inside")


def _expose(sl: _Slots):
    v = sl.s.visit
    b = building_of(sl.s, v["owner"], v["building"]) if v else None
    if b is not None:
        sl.one("card", SAME, [(None, b.mismatches())], "inside")


_SLOTS: dict[str, Callable[[_Slots], None]] = {
    "stall": _sealed, "ball": _sealed, "discard": _sealed, "take": _take,
    "declare": _declare, "trade": _trade, "store": _store, "hide": _stall_cards,
    "sell": _stall_cards, "harvest": _harvest, "favor": _favor, "royal": _royal_action,
    "downgrade": _downgrade, "expose": _expose,
}


def slots(s: State, seat: int, m: dict) -> list:
    """Every card of move `m` in text order: (key, index or None, kind, zones, group).
    Slots of one group draw from one pool (a card is used once)."""
    sl = _Slots(s, seat, m)
    fill = _SLOTS.get(m.get("type"))
    if fill is not None:
        fill(sl)
    return sl.out


def _resolve(c, kind, zones, used, plain, marks) -> str:
    """The copy slot card `c` becomes, noting in `marks` any word its text needs."""
    if kind == SAME:
        default = next((x for _, cs in zones if (x := lowest(cs, base(c), used))), None)
        zone = next(((n, cs) for n, cs in zones if c in cs), None)
        new = default if plain else (lowest(zone[1], base(c), used) if zone else None)
        if new is None:
            return c                              # not there: leave it for decide to refuse
        if new != default:
            marks[new] = zone[0]
        return new
    default = lowest([x for _, cs in zones for x in cs], base(c), used)
    if default is not None and default != c and c in zones[0][1]:
        marks[c] = f"#{copy_no(c)}"
    return c


def canonical(s: State, seat: int, move: dict, plain: bool = False) -> dict:
    """The one form of `move` that listing and parsing agree on: each card the lowest copy
    of its zone (interchangeable copies), plus the ``mark`` words the text needs. With
    `plain`, cards keep no zone at all: each is the copy a plain name reads as (used for
    the representative build lists, where the zone a card comes from is not offered)."""
    m = {k: (list(v) if isinstance(v, list) else v) for k, v in move.items() if k != "mark"}
    marks: dict[str, str] = {}
    used: dict[str, set] = defaultdict(set)
    for key, idx, kind, zones, group in slots(s, seat, m):
        c = m[key] if idx is None else m[key][idx]
        new = _resolve(c, kind, zones, used[group], plain, marks)
        used[group].add(new)
        if idx is None:
            m[key] = new
        else:
            m[key][idx] = new
    if marks:
        m["mark"] = marks
    return m
