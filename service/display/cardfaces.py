"""Card faces drawn as SVG, our own simple drawing: Decktet cards with their rank, every suit
as symbol and name, and the card's name; French cards with rank and suit. Served at
/cards/<id>.svg for the game pages; each face carries a <title> so it reads as text too."""
from __future__ import annotations

from functools import cache
from html import escape

from service.games.cards import decktet, french, is_french

W, H = 120, 168
# suit colours with at least 4.5:1 contrast on the white face (templates/games/_suit_style.html)
DECKTET_INK = decktet.SUIT_COLOURS
FRENCH_INK = {"S": "#1f1d1a", "C": "#1f1d1a", "H": "#a93226", "D": "#a93226"}
DECKTET_RANK = {"1": "A", "P": "P", "T": "C", "N": "Cr", "0": "✕"}
FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"


class UnknownCard(KeyError):
    pass


def _frame(title: str, body: str, ground: str = "#ffffff") -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" '
            f'height="{H}" role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>'
            f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="9" fill="{ground}" '
            f'stroke="#5f5a52" stroke-width="2"/>{body}</svg>')


def _text(x: float, y: float, text: str, size: int, fill: str = "#1f1d1a",
          anchor: str = "middle", weight: str = "normal") -> str:
    return (f'<text x="{x}" y="{y}" font-family="{FONT}" font-size="{size}" fill="{fill}" '
            f'text-anchor="{anchor}" font-weight="{weight}">{escape(text)}</text>')


def _symbol(x: float, y: float, suit: str, size: int) -> str:
    """A suit's symbol; the Wyrm is drawn (its dragon emoji is missing from many fonts)."""
    if suit != "Y":
        return _text(x, y, decktet.SUIT_SYMBOLS[suit], size, DECKTET_INK[suit])
    k = size / 24
    return (f'<g transform="translate({x} {y - 8 * k}) scale({k})" fill="none" '
            f'stroke="{DECKTET_INK["Y"]}" stroke-width="3" stroke-linecap="round">'
            '<path d="M-10 6 C-10 -6 -2 -6 -2 0 C-2 6 6 6 6 -2"/>'
            f'<circle cx="8" cy="-5" r="3" fill="{DECKTET_INK["Y"]}" stroke="none"/></g>')


def _decktet(card_id: str) -> str:
    c = decktet.card(card_id)
    rank = DECKTET_RANK.get(c.rank, c.rank)
    parts = [_text(10, 26, rank, 22, anchor="start", weight="bold")]
    # the corner: the suits' symbols under the rank, as on the printed cards
    for i, s in enumerate(c.suits):
        parts.append(_symbol(16, 48 + 20 * i, s, 17))
    # the middle: each suit large with its name, so colour never tells suits apart alone
    n = max(len(c.suits), 1)
    top = 38 + (84 - 28 * n) / 2
    for i, s in enumerate(c.suits):
        y = top + 28 * i + 22
        parts.append(_symbol(66, y, s, 24))
        parts.append(_text(66, y + 10, decktet.SUIT_NAMES[s], 9, DECKTET_INK[s]))
    if not c.suits:
        parts.append(_text(60, 96, "✕", 40, "#5f5a52"))
    name = c.name.removeprefix("the ")
    parts.append(_text(60, 150, name, 13 if len(name) < 15 else 11, weight="bold"))
    return _frame(decktet.label(card_id), "".join(parts),
                  "#fdf8ec" if c.rank in "PTN" else "#ffffff")


def _french(card_id: str) -> str:
    r, s = french.rank(card_id), french.suit(card_id)
    ink, sym = FRENCH_INK[s], french.SUIT_SYMBOLS[s]
    parts = [_text(10, 28, r, 24, ink, "start", "bold"), _text(18, 50, sym, 20, ink),
             _text(60, 104, sym, 56, ink),
             _text(60, 150, french.name(card_id), 12, ink, weight="bold")]
    return _frame(french.name(card_id), "".join(parts))


@cache
def svg(card_id: str) -> str:
    """The face of a card id of either deck (a copy suffix is ignored)."""
    try:
        if is_french(card_id):
            return _french(card_id)
        return _decktet(card_id)
    except (KeyError, IndexError) as exc:
        raise UnknownCard(card_id) from exc
