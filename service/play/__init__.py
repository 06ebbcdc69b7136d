"""The application layer: every use case, framework-free. Each takes a `Services` (a unit of
work, the clock, chance, the URLs, the mail transport and an enqueue function for background
work) and knows nothing of Flask, Celery, HTTP or SMTP. The web pages, the workers, the SMTP
receiver, the IMAP poller, the CLI and the benchmarks are thin adapters on top."""
from .errors import (
    AlreadyDone,
    GameOver,
    NoSuchGame,
    NotYourSeat,
    PlayError,
    PositionChanged,
    Refused,
)
from .intake import accept_mail
from .periodic import sweep
from .reading import GameRead, game_kind, read_game
from .relay import deliver, requeue
from .relay_batch import deliver_batch
from .replies import process as process_inbound
from .services import Services, from_settings
from .start import BadStart, Started, start_game
from .submit import Applied, Intent, submit

__all__ = ["AlreadyDone", "Applied", "BadStart", "GameOver", "GameRead", "Intent", "NoSuchGame",
           "NotYourSeat", "PlayError", "PositionChanged", "Refused", "Services", "Started",
           "accept_mail", "deliver", "deliver_batch", "from_settings", "game_kind", "process_inbound",
           "read_game", "requeue", "start_game", "submit", "sweep"]
