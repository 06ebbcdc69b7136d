"""What a seat does at the table: moves, take-backs, chat, the table's words, bots."""

from . import bots, chat, commands, planplay, plans, tablewords, undo
from .bots import move_bots
from .chat import ChatRefused, say
from .submit import Applied, Intent, apply, made_already, record, submit
from .tablewords import undo_command
from .undo import UndoRefused

__all__ = [
    "Applied",
    "ChatRefused",
    "Intent",
    "UndoRefused",
    "apply",
    "bots",
    "chat",
    "commands",
    "made_already",
    "move_bots",
    "planplay",
    "plans",
    "record",
    "say",
    "submit",
    "tablewords",
    "undo",
    "undo_command",
]
