"""The Decktet's suits as the game partials show them, on the web pages and in the emails:
each suit by its symbol, named for screen readers and on hover (role=img, aria-label, title),
coloured by class so that dark mode can recolour it (templates/games/_suit_style.html).
Colour is never the only difference.

Python rather than a Jinja macro: a table of Decktet cards calls these dozens of times a
page, a macro call costs several microseconds each, and the answer for a suit is always the
same."""
from __future__ import annotations

from functools import cache

from markupsafe import Markup

from service.games.cards import decktet

_SUIT = Markup('<span class="suit s-{0}{1}" role="img" aria-label="{2}" title="{2}">{3}</span>')


@cache
def suit(letter: str, faint: bool = False) -> Markup:
    """One suit's symbol (`faint`: greyed, for a suit a player holds none of)."""
    return _SUIT.format(letter, " faint" if faint else "", decktet.SUIT_NAMES[letter],
                        decktet.SUIT_SYMBOLS[letter])


@cache
def suit_names(card_id: str) -> str:
    """A card's suits by name, "Moons/Waves"; nothing for an Ace, which its name says."""
    if decktet.rank(card_id) == "1":
        return ""
    return "/".join(decktet.SUIT_NAMES[s] for s in decktet.suits(card_id))


#: a rank as a card's short mark shows it: the Ace, Pawn, Court and Crown by letter
_MARK_RANKS = {"1": "A", "P": "P", "T": "C", "N": "Cr"}
_MARK = Markup('<span class="{0}">{1}&nbsp;{2}</span>')


@cache
def mark(card_id: str, css_class: str) -> Markup:
    """A card's short mark: its rank (A, 2-9, P, C, Cr) and its suits' symbols, in a span of
    `css_class`; a copy's suffix (".2") is left out. A Trees table shows one per card, each
    a macro of five calls when it was written in the template."""
    face = card_id.split(".")[0]
    return _MARK.format(css_class, _MARK_RANKS.get(face[0], face[0]),
                        Markup("").join(suit(s) for s in face[1:]))
