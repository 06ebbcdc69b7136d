"""French-suited 52-card decks for Aristocracy. Ids: "AS", "10H", "KD", + copy suffix ".1"."""
from __future__ import annotations

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = "SHDC"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
RANK_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}


def base(card_id: str) -> str:
    return card_id.split(".", 1)[0]


def rank(card_id: str) -> str:
    return base(card_id)[:-1]


def suit(card_id: str) -> str:
    return base(card_id)[-1]


def value(card_id: str) -> int:
    """Aristocracy's card value: A 1, 2-10 face value, J/Q/K 10."""
    r = rank(card_id)
    return 1 if r == "A" else 10 if r in "JQK" else int(r)


def deck(copy: int | None = None) -> list[str]:
    suffix = f".{copy}" if copy is not None else ""
    return [f"{r}{s}{suffix}" for s in SUITS for r in RANKS]


def label(card_id: str) -> str:
    """"K♦", "10♠" — short and readable on a phone."""
    return f"{rank(card_id)}{SUIT_SYMBOLS[suit(card_id)]}"


def name(card_id: str) -> str:
    r = rank(card_id)
    return f"{RANK_NAMES.get(r, r)} of {SUIT_NAMES[suit(card_id)]}"
