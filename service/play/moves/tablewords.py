"""The text side of a player's words (their registry is service.play.moves.wordregistry): how a line's
word is read, the moves `help` lists, and `undo`'s answers."""
from __future__ import annotations

from service.mailwire.outbound.catalogs import _
from service.play.services import Services

from . import undo

#: what `undo` may be followed by: nothing (ask), or an answer to the waiting request
UNDO_ANSWERS = {"accept": True, "yes": True, "agree": True, "refuse": False, "no": False,
                # the same answers in German and French
                "annehmen": True, "ja": True, "ablehnen": False, "nein": False,
                "accepter": True, "oui": True, "refuser": False, "non": False}
HELP_LIMIT = 60


#: the words whose text is the player's own words, kept as written
KEEP_PUNCTUATION = ("say", "note")
#: what a phone or a habit puts after a command ("Help.", "Resign!", "vacation 5.")
_TRAILING = ".!?,;:"


def command_word(line: str) -> str:
    """The line's first word, lower case, without trailing punctuation: "Help." is help."""
    return line.strip().split(" ", 1)[0].lower().rstrip(_TRAILING)


def tidy(line: str, said: bool | None = None) -> str:
    """The line without the punctuation a sentence ends with, except a `say` or `note`
    line's (its text is the player's words, "say good luck!"; `said`: the registry knows its
    word in every language)."""
    line = line.strip()
    if said is None:
        said = command_word(line) in KEEP_PUNCTUATION
    return line if said else line.rstrip(_TRAILING).rstrip()


def help_answer(engine, state, seat: int, limit: int = HELP_LIMIT) -> str:
    """Every move the seat can make now, one per line (the first `limit` of them)."""
    moves = engine.legal_moves(state, seat) if engine.outcome(state) is None else []
    texts = [engine.describe(m) for m in moves]
    more = "\n" + _("…and %(n)s more (the game page lists them all).", n=len(texts) - limit) \
        if len(texts) > limit else ""
    if not texts:
        return _("You have no move to make right now; you will get an email when it is your "
                 "turn.")
    return _("Every move you can make now, one per line:") + "\n" + "\n".join(texts[:limit]) \
        + more


def undo_command(svc: Services, game_id: int, seat: int, rest: str) -> undo.UndoResult:
    """`undo` asks; `undo accept` / `undo refuse` answer the waiting request."""
    with svc.db.transaction() as session:
        return undo_in_session(session, svc, game_id, seat, rest)


def undo_in_session(session, svc: Services, game_id: int, seat: int,
                    rest: str) -> undo.UndoResult:
    """The same in the caller's transaction (a reply email's other lines share it)."""
    rest = rest.strip().lower()
    if not rest:
        return undo.ask_in(session, svc, game_id, seat)
    if rest not in UNDO_ANSWERS:
        raise undo.UndoRefused(_("Write undo to ask to take back your last move, or undo "
                                 "accept / undo refuse to answer a request."))
    return undo.answer_in(session, svc, game_id, seat, UNDO_ANSWERS[rest])
