from .db import Database
from .models import (
    Base,
    EventRow,
    GameRow,
    InboundMessage,
    OutboxRow,
    Player,
    Seat,
    SeatChange,
    Submission,
    Vacation,
)

__all__ = ["Base", "Database", "EventRow", "GameRow", "InboundMessage", "OutboxRow", "Player",
           "Seat", "SeatChange", "Submission", "Vacation"]
