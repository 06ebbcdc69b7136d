"""What pages and the API read: game pages, history, replay, a game's file, a player's games
and all of their data (mydata), bookkeeping lists."""

from . import admin, apireads, forcedmoves, gamefile, mydata, mygames, seatpage, waiting
from .pagereads import GameRead, PublicGame, public_game, read_game
from .replay import NotYet, Step, replay_step, seat_log, whole_log
from .waiting import next_game, submit_then_next

__all__ = [
    "GameRead",
    "NotYet",
    "PublicGame",
    "Step",
    "admin",
    "apireads",
    "forcedmoves",
    "gamefile",
    "mydata",
    "mygames",
    "next_game",
    "public_game",
    "read_game",
    "replay_step",
    "seat_log",
    "seatpage",
    "submit_then_next",
    "waiting",
    "whole_log",
]
