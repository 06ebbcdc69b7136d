"""Card decks. `label` renders any card id from either deck for people."""
from . import decktet, french


def is_french(card_id: str) -> bool:
    b = card_id.split(".", 1)[0]
    return len(b) >= 2 and b[-1] in french.SUITS and b[:-1] in french.RANKS


def label(card_id: str) -> str:
    return french.label(card_id) if is_french(card_id) else decktet.label(card_id)


def name(card_id: str) -> str:
    return french.name(card_id) if is_french(card_id) else decktet.name(card_id)
