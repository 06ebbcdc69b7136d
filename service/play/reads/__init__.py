"""What pages and the API read: game pages, history, replay, a game's file, a player's games, bookkeeping lists."""

from . import admin, api, forcedmoves, gamefile, mygames, seatpage
from .pages import GameRead, PublicGame, public_game, read_game
from .replay import NotYet, Step, replay_step, seat_log, whole_log

__all__ = [
    "GameRead",
    "NotYet",
    "PublicGame",
    "Step",
    "admin",
    "api",
    "forcedmoves",
    "gamefile",
    "mygames",
    "public_game",
    "read_game",
    "replay_step",
    "seat_log",
    "seatpage",
    "whole_log",
]
