"""What a seat does at the table: moves, take-backs, chat, the table's words and the one runner
of a player's lines, the API's writes, bots."""

from . import (
    apiwrites,
    chat,
    notes,
    planplay,
    runner,
    standingplans,
    tablebots,
    tablewords,
    trying,
    undo,
    wordregistry,
)
from .chat import ChatRefused, say
from .submit import (
    Applied,
    Intent,
    Recorded,
    apply,
    consequences,
    made_already,
    record,
    submit,
    write_move,
)
from .tablebots import move_bots
from .tablewords import undo_command
from .undo import UndoRefused

__all__ = [
    "Applied",
    "ChatRefused",
    "Intent",
    "Recorded",
    "UndoRefused",
    "apiwrites",
    "apply",
    "tablebots",
    "chat",
    "wordregistry",
    "consequences",
    "made_already",
    "move_bots",
    "notes",
    "planplay",
    "standingplans",
    "record",
    "runner",
    "say",
    "submit",
    "tablewords",
    "trying",
    "undo",
    "undo_command",
    "write_move",
]
