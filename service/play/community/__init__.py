"""The community: standing challenges, ladders and reported chat lines (blocks live with the
players, since invitations and the chat obey them). It sits above every other family: it
starts games through the players' `open_game`, and hears of a game's end through the hook
in play.endings (registered by importing this package)."""
from . import challenges, ladders, reports, strength
from .challenges import BadChallenge, Posted, Terms, read_terms
from .ladders import LadderRefused
from .reports import BadReport

__all__ = ["BadChallenge", "BadReport", "LadderRefused", "Posted", "Terms", "challenges",
           "ladders", "read_terms", "reports", "strength"]
