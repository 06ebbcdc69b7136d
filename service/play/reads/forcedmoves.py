"""Forced moves told to the seat they were played for (service.play.moves.tablebots plays them,
source 'forced'): in its next email, and marked in its own history. Nobody else is told a move
was forced, since that would say the seat had no other (one card of the led suit)."""
from __future__ import annotations

from service.display.seatview import history
from service.mailwire.outbound.catalogs import _
from service.play.moves import tablebots


def told(engine, recorded, seat: int | None, names: list[str]) -> list[str]:
    """The forced moves among `recorded` (event rows) made for `seat`, as it reads them."""
    if seat is None:
        return []
    mine = [(r.seq, r.event) for r in recorded if r.source == tablebots.FORCED and r.seat == seat]
    return [h["text"] for h in history(engine, mine, seat, names)] if mine else []


def marked(text: str) -> str:
    """The seat's own history line of a forced move, in the language of the moment."""
    return _("%(line)s (your only move, played for you)", line=text)
