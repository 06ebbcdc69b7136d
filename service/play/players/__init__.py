"""Who sits where: accounts, addresses, invitations, starting a game, seats, personal tokens;
and a player's data (personaldata: the one map of every table that names a player, which the
export, a change of address and an erasure all read)."""

from . import (
    accounts,
    blocks,
    datarows,
    erasure,
    gamecap,
    hooks,
    invitations,
    personaldata,
    personaltokens,
    readdress,
    seatchanges,
)
from .addresses import BadAddress, address, default_name
from .blocks import BadBlock
from .changes import ChangeRefused
from .datarows import Who
from .erasure import when_a_player_is_erased
from .gamecap import GameCapReached
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
    "ChangeRefused",
    "Entry",
    "MAX_INVITES",
    "Entry",
    "Started",
    "TABLE_ONLY",
    "accounts",
    "blocks",
    "address",
    "datarows",
    "erasure",
    "GameCapReached",
    "gamecap",
    "hooks",
    "personaldata",
    "readdress",
    "Who",
    "when_a_player_is_erased",
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
    "seatchanges",
    "start_game",
    "take_open_seat",
    "start_practice",
]
