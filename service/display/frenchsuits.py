"""Aristocracy's French-suited cards as the game partials show them, on the web pages and in
the emails: the card's short label ("10♥") in a chip, named in full for screen readers and on
hover (role=img, aria-label, title), red suits marked by class so that dark mode can recolour
them (templates/games/_dark.html). Colour is never the only difference: the symbol is there.

Python rather than a Jinja macro, as service.display.decktetsuits and for the same reason: a late table
shows a hundred cards, a macro call costs several microseconds each, and a card's chip is
always the same."""
from __future__ import annotations

from functools import lru_cache

from markupsafe import Markup

from service.games.cards import french

_CHIP = Markup('<span class="c{0}" role="img" aria-label="{1}" title="{1}">{2}</span>')


@lru_cache(maxsize=1024)        # two decks of 52 with their copy suffixes: a few hundred ids
def chip(card_id: str) -> Markup:
    """One card ("KD.2") as its chip; both copies of a card look the same."""
    red = " red" if french.suit(card_id) in "HD" else ""
    return _CHIP.format(red, french.name(card_id), french.label(card_id))
