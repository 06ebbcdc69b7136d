"""The words a player can write besides moves — `say`, `help`, `view` — answered the same way
wherever they are written: in a reply email (replies.py answers by email) or in the game page's
command box (answered on the page)."""
from __future__ import annotations

from dataclasses import dataclass

from . import chat, extensions, positions, undo
from .services import Services

WORDS = ("help", "view", "say", "undo", extensions.WORD)
#: what `undo` may be followed by: nothing (ask), or an answer to the waiting request
UNDO_ANSWERS = {"accept": True, "yes": True, "agree": True, "refuse": False, "no": False}
HELP_LIMIT = 60


#: what a phone or a habit puts after a command ("Help.", "Resign!", "vacation 5.")
_TRAILING = ".!?,;:"


def command_word(line: str) -> str:
    """The line's first word, lower case, without trailing punctuation: "Help." is help."""
    return line.strip().split(" ", 1)[0].lower().rstrip(_TRAILING)


def tidy(line: str) -> str:
    """The line without the punctuation a sentence ends with, except a `say` line's (its
    message is the player's words, "say good luck!")."""
    line = line.strip()
    return line if command_word(line) == "say" else line.rstrip(_TRAILING).rstrip()


def is_table_word(line: str) -> bool:
    return command_word(line) in WORDS


def help_answer(engine, state, seat: int, limit: int = HELP_LIMIT) -> str:
    """Every move the seat can make now, one per line (the first `limit` of them)."""
    moves = engine.legal_moves(state, seat) if engine.outcome(state) is None else []
    texts = [engine.describe(m) for m in moves]
    more = f"\n…and {len(texts) - limit} more (the game page lists them all)." \
        if len(texts) > limit else ""
    if not texts:
        return ("You have no move to make right now; you will get an email when it is your "
                "turn.")
    return "Every move you can make now, one per line:\n" + "\n".join(texts[:limit]) + more


@dataclass(frozen=True)
class Answer:
    text: str
    outbox_ids: list[int]


def page_command(svc: Services, game_id: int, seat: int, line: str) -> Answer:
    """One of WORDS typed in the page's command box; ChatRefused for a message that cannot go."""
    word, _, rest = tidy(line).partition(" ")
    word = word.lower()
    if word == "say":
        said = chat.say(svc, game_id, seat, rest)
        return Answer("Message sent to everyone.", said.outbox_ids)
    if word == "undo":
        done = undo_command(svc, game_id, seat, rest)
        return Answer(done.words, done.outbox_ids)
    if word == extensions.WORD:
        done = extensions.ask(svc, game_id, seat, rest)
        return Answer(done.words, done.outbox_ids)
    if word == "help":
        with svc.db.transaction() as session:
            pos = positions.load(session, svc.states, game_id)
            return Answer(help_answer(pos.engine, pos.state, seat), [])
    return Answer("Here is the game as it stands.", [])


def undo_command(svc: Services, game_id: int, seat: int, rest: str) -> undo.UndoResult:
    """`undo` asks; `undo accept` / `undo refuse` answer the waiting request."""
    with svc.db.transaction() as session:
        result = undo_in_session(session, svc, game_id, seat, rest)
    undo.after(svc, game_id, result)
    return result


def undo_in_session(session, svc: Services, game_id: int, seat: int,
                    rest: str) -> undo.UndoResult:
    """The same in the caller's transaction (a reply email's other lines share it)."""
    rest = rest.strip().lower()
    if not rest:
        return undo.ask_in(session, svc, game_id, seat)
    if rest not in UNDO_ANSWERS:
        raise undo.UndoRefused("Write undo to ask to take back your last move, or undo accept "
                               "/ undo refuse to answer a request.")
    return undo.answer_in(session, svc, game_id, seat, UNDO_ANSWERS[rest])
