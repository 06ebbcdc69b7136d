"""Who sits where: accounts, addresses, invitations, starting a game, seats, personal tokens."""

from . import accounts, invitations, personaltokens, seats
from .addresses import BadAddress, address, default_name
from .invitations import MAX_INVITES, TABLE_ONLY, declined
from .start import (
    BadStart,
    Entry,
    Started,
    bot_entries,
    find_player,
    fit_seats,
    is_bot_entry,
    open_game,
    parse_entry,
    start_game,
    start_practice,
)

__all__ = [
    "BadAddress",
    "BadStart",
    "Entry",
    "MAX_INVITES",
    "Started",
    "TABLE_ONLY",
    "accounts",
    "address",
    "bot_entries",
    "find_player",
    "fit_seats",
    "open_game",
    "parse_entry",
    "declined",
    "default_name",
    "invitations",
    "is_bot_entry",
    "personaltokens",
    "seats",
    "start_game",
    "start_practice",
]
