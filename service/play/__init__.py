"""Use cases, framework-free: they take a database session, a source of chance and the time,
and know nothing of HTTP, SMTP or workers."""
from .errors import (
                     AlreadyDone,
                     GameOver,
                     NoSuchGame,
                     NotYourSeat,
                     PlayError,
                     PositionChanged,
                     Refused,
)
from .start import BadStart, Started, start_game
from .submit import Applied, Intent, submit

__all__ = ["AlreadyDone", "Applied", "BadStart", "GameOver", "Intent", "NoSuchGame",
           "NotYourSeat", "PlayError", "PositionChanged", "Refused", "Started", "start_game",
           "submit"]
