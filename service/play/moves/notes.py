"""Private notes (issue 50): `note <text>` keeps a line of the player's own about a game ("keep
the Mill for the Knots district"), `notes` lists them, `note clear` removes them all.

A note is its writer's alone: it names the player who wrote it and the seat they wrote it at,
and is shown only while that player holds that seat (a seat taken over does not hand its notes
to the next holder). It is shown on their seat page, in their own turn emails ("Your notes"),
in their API view of the game (`notes`) and in their export; never to another seat, a
spectator, a public page, the game's record or another player's export
(tests/web/test_desk.py). A note changes nothing in the game: it is no move (RULINGS P2)."""
from __future__ import annotations

from sqlalchemy import delete, func, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from service.mailwire.outbound.catalogs import N_, _
from service.play.errors import Refused
from service.play.services import Services
from service.store.models import Note

#: a note's length in characters, and the notes one player keeps on one game
MAX_CHARS = 500
MAX_NOTES = 20


class NoteRefused(Refused):
    title = N_("That note cannot be kept")


def write(session: Session, svc: Services, game_id: int, seat: int, player_id: int,
          text: str) -> str:
    """Keep one note; its answer lists the notes as they then stand."""
    text = text.strip()
    if not text:
        raise NoteRefused(_("Write the note after the word, e.g. note keep the Mill for the "
                            "Knots district."))
    if len(text) > MAX_CHARS:
        raise NoteRefused(_("That note has %(length)d characters; a note may have at most "
                            "%(most)d. Shorten it, or write it as two notes.",
                            length=len(text), most=MAX_CHARS))
    if _count(session, game_id, seat, player_id) >= MAX_NOTES:
        raise NoteRefused(_("You keep %(most)d notes on this game already, the most there "
                            "may be. Write note clear to remove them, then write the ones you "
                            "still need.", most=MAX_NOTES))
    session.add(Note(game_id=game_id, seat=seat, player_id=player_id, text=text,
                     created_at=svc.clock.now()))
    session.flush()
    return "Note kept (only you see it).\n" + listing(session, game_id, seat, player_id)


def clear(session: Session, game_id: int, seat: int, player_id: int) -> str:
    gone = session.execute(delete(Note).where(*_theirs(game_id, seat, player_id))).rowcount
    if not gone:
        return "You have no notes on this game."
    return f"Removed your {gone} note{'' if gone == 1 else 's'} on this game."


def listing(session: Session, game_id: int, seat: int, player_id: int) -> str:
    """`notes`: the player's notes on this game, oldest first."""
    mine = shown(session, game_id, seat, player_id)
    if not mine:
        return "You have no notes on this game. Write note and your text to keep one."
    return "Your notes on this game (nobody else sees them; note clear removes them):\n" + \
        "\n".join(f"* {line}" for line in mine)


def shown(session: Session | Connection, game_id: int, seat: int | None,
          player_id: int | None) -> list[str]:
    """The notes the seat's holder `player_id` wrote at this seat, oldest first; none for a
    spectator (no seat) or nobody."""
    if seat is None or player_id is None:
        return []
    return list(session.execute(select(Note.text).where(*_theirs(game_id, seat, player_id))
                                .order_by(Note.id)).scalars())


def shown_many(session: Session | Connection, game_ids: set[int]
               ) -> dict[tuple[int, int, int], list[str]]:
    """The notes on several games in one statement (a group of emails): (game, seat,
    writer) -> their texts, oldest first; a row picks its own seat's holder's."""
    out: dict[tuple[int, int, int], list[str]] = {}
    if not game_ids:
        return out
    for n in session.execute(select(Note.game_id, Note.seat, Note.player_id, Note.text)
                             .where(Note.game_id.in_(sorted(game_ids))).order_by(Note.id)):
        out.setdefault((n.game_id, n.seat, n.player_id), []).append(n.text)
    return out


def _count(session: Session, game_id: int, seat: int, player_id: int) -> int:
    return session.scalar(select(func.count()).select_from(Note)
                          .where(*_theirs(game_id, seat, player_id))) or 0


def _theirs(game_id: int, seat: int, player_id: int) -> tuple:
    return Note.game_id == game_id, Note.seat == seat, Note.player_id == player_id
