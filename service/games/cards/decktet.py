"""The extended Decktet: 45 cards, ids and names exactly as docs/rules/rulings.md lists them.

Card id = rank character + suit letters in the standard order Moons, Suns, Waves, Leaves,
Wyrms, Knots (M S V L Y K). Ranks: 1-9 numerals, P Pawn, T Court, N Crown; the Excuse is "0".
Double-deck games add a copy suffix: "8VL.1", "8VL.2".
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

SUITS = "MSVLYK"
SUIT_NAMES = {"M": "Moons", "S": "Suns", "V": "Waves", "L": "Leaves", "Y": "Wyrms", "K": "Knots"}
SUIT_SINGULAR = {"M": "Moon", "S": "Sun", "V": "Wave", "L": "Leaf", "Y": "Wyrm", "K": "Knot"}
SUIT_SYMBOLS = {"M": "☾", "S": "☀", "V": "≋", "L": "♣", "Y": "🐉", "K": "⌘"}
# at least 4.5:1 on white (the templates' and card faces' palette; dark mode has its own)
SUIT_COLOURS = {"M": "#3b4f8f", "S": "#8a5a00", "V": "#17687a", "L": "#3f6a0a",
                "Y": "#7a1f3d", "K": "#6b4f2a"}

# Standard rank order: Ace < 2 .. 9 < Pawn < Court < Crown. Games may use their own order.
RANK_VALUE = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
              "P": 10, "T": 11, "N": 12, "0": 0}
RANK_NAMES = {"1": "Ace", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8",
              "9": "9", "P": "Pawn", "T": "Court", "N": "Crown", "0": "Excuse"}

_NAMED = {
    "2MK": "the Author", "2SY": "the Desert", "2VL": "the Origin",
    "3MV": "the Journey", "3SK": "the Painter", "3LY": "the Savage",
    "4MS": "the Mountain", "4VL": "the Sailor", "4YK": "the Battle",
    "5ML": "the Forest", "5SV": "the Discovery", "5YK": "the Soldier",
    "6MV": "the Lunatic", "6SY": "the Penitent", "6LK": "the Market",
    "7ML": "the Chance Meeting", "7SK": "the Castle", "7VY": "the Cave",
    "8MS": "the Diplomat", "8VL": "the Mill", "8YK": "the Betrayal",
    "9MS": "the Pact", "9VY": "the Darkness", "9LK": "the Merchant",
    "PMYK": "the Watchman", "PSVK": "the Light Keeper", "PMSL": "the Harvest",
    "PVLY": "the Borderland",
    "TMVK": "the Consul", "TMLY": "the Rite", "TSLK": "the Window", "TSVY": "the Island",
    "NM": "the Huntress", "NS": "the Bard", "NV": "the Sea", "NL": "the End",
    "NY": "the Calamity", "NK": "the Windfall",
    "0": "the Excuse",
}
ACES = tuple("1" + s for s in SUITS)
PAWNS = ("PMYK", "PSVK", "PMSL", "PVLY")
COURTS = ("TMVK", "TMLY", "TSLK", "TSVY")
CROWNS = tuple("N" + s for s in SUITS)
NUMERALS = tuple(i for i in _NAMED if i[0] in "23456789")
EXCUSE = "0"
ALL = ACES + NUMERALS + PAWNS + COURTS + CROWNS + (EXCUSE,)   # the 45 cards
BASIC = ACES + NUMERALS + CROWNS + (EXCUSE,)                   # the 36-card basic deck


@dataclass(frozen=True)
class Card:
    id: str          # with copy suffix if any
    base: str        # without it
    rank: str        # "1".."9", "P", "T", "N", "0"
    suits: str       # suit letters in standard order
    name: str        # "the Mill", "the Ace of Moons"

    @property
    def value(self) -> int:
        return RANK_VALUE[self.rank]


def base(card_id: str) -> str:
    """The card without its copy suffix: "8VL.2" -> "8VL"."""
    return card_id.split(".", 1)[0]


@lru_cache(maxsize=512)   # a deck's ids, asked for again in every view and every email
def card(card_id: str) -> Card:
    b = base(card_id)
    if b == EXCUSE:
        return Card(card_id, b, "0", "", "the Excuse")
    rank, suits = b[0], b[1:]
    if b in _NAMED:
        name = _NAMED[b]
    elif rank == "1" and len(suits) == 1 and suits in SUITS:
        name = f"the Ace of {SUIT_NAMES[suits]}"
    else:
        raise KeyError(f"no Decktet card {card_id!r}")
    return Card(card_id, b, rank, suits, name)


def rank(card_id: str) -> str:
    return base(card_id)[0] if base(card_id) != EXCUSE else "0"


def suits(card_id: str) -> str:
    b = base(card_id)
    return "" if b == EXCUSE else b[1:]


def name(card_id: str) -> str:
    return card(card_id).name


def shares_suit(a: str, b: str) -> bool:
    return bool(set(suits(a)) & set(suits(b)))


def label(card_id: str) -> str:
    """A name with its suits for people: "the Mill (8 Waves/Leaves)"."""
    c = card(card_id)
    if c.rank == "0":
        return "the Excuse"
    kind = {"P": "Pawn", "T": "Court", "N": "Crown", "1": "Ace"}.get(c.rank, c.rank)
    return f"{c.name} ({kind} {'/'.join(SUIT_NAMES[s] for s in c.suits)})"


def double_deck(cards=ALL) -> list[str]:
    """Two copies of each card, suffixed .1 and .2."""
    return [f"{c}.{n}" for n in (1, 2) for c in cards]


def aliases(card_id: str) -> list[str]:
    """Every spelling a player may use for a card (matched case-insensitively, prefixes ok)."""
    c = card(card_id)
    out = {c.id, c.base, c.name, c.name.removeprefix("the ")}
    if c.rank == "1":
        out |= {f"ace of {SUIT_NAMES[c.suits].lower()}", f"{SUIT_SINGULAR[c.suits].lower()} ace",
                f"{SUIT_NAMES[c.suits].lower()} ace", f"ace {SUIT_NAMES[c.suits].lower()}"}
    return sorted(out)
