"""Card decks. `label` renders any card id from either deck for people."""
from functools import lru_cache

from . import decktet, french


def face(card_id: str) -> str:
    """The card as printed, without its copy suffix ("8VL.2" -> "8VL"): both copies of a
    card look the same."""
    return card_id.split(".", 1)[0]


def is_french(card_id: str) -> bool:
    b = face(card_id)
    return len(b) >= 2 and b[-1] in french.SUITS and b[:-1] in french.RANKS


# the templates' `card` and `cardname` filters: a late table names a hundred cards an email,
# each always the same way (two decks with their copy suffixes are a few hundred ids)
@lru_cache(maxsize=1024)
def label(card_id: str) -> str:
    return french.label(card_id) if is_french(card_id) else decktet.label(card_id)


@lru_cache(maxsize=1024)
def name(card_id: str) -> str:
    return french.name(card_id) if is_french(card_id) else decktet.name(card_id)
