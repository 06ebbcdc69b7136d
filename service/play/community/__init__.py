"""The community: correspondence tournaments (Swiss and round robin). Above the players
family (a round's games start through its open_game) and the moves family."""
from .pairing import round_robin, swiss
from .show import RoundView, Table, TournamentView, show
from .standings import Line, line_text, points_text
from .tournaments import (
    FORMATS,
    BadTournament,
    Created,
    NoSuchTournament,
    advance,
    advance_due,
    create,
)

__all__ = ["FORMATS", "BadTournament", "Created", "Line", "NoSuchTournament", "RoundView",
           "Table", "TournamentView", "advance", "advance_due", "create", "line_text",
           "points_text", "round_robin", "show", "swiss"]
