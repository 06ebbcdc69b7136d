"""What a seat does at the table: moves, take-backs, chat, the table's words and the one runner
of a player's lines, the API's writes, bots."""

from . import (
    apiwrites,
    bots,
    chat,
    commands,
    notes,
    planplay,
    plans,
    runner,
    tablewords,
    trying,
    undo,
)
from .bots import move_bots
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
    "bots",
    "chat",
    "commands",
    "consequences",
    "made_already",
    "move_bots",
    "notes",
    "planplay",
    "plans",
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
