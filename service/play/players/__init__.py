"""Who sits where: accounts, addresses, invitations, starting a game, seats, personal tokens."""

from . import accounts, blocks, invitations, personaltokens, seats
from .addresses import BadAddress, address, default_name
from .blocks import BadBlock
from .invitations import MAX_INVITES, TABLE_ONLY, BadInvitation, declined, take_open_seat
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
    "BadBlock",
    "BadInvitation",
    "BadStart",
    "Entry",
    "MAX_INVITES",
    "Entry",
    "Started",
    "TABLE_ONLY",
    "accounts",
    "blocks",
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
    "open_game",
    "personaltokens",
    "seats",
    "start_game",
    "take_open_seat",
    "start_practice",
]
