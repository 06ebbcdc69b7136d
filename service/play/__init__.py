"""The application layer: every use case, framework-free. Each takes a `Services` (a unit of
work, the clock, chance, the URLs, the mail transport and an enqueue function for background
work) and knows nothing of Flask, Celery, HTTP or SMTP. The web pages, the workers, the SMTP
receiver, the IMAP poller, the CLI and the benchmarks are thin adapters on top."""
# transient database errors, for the adapters that retry what they stopped (workers.tasks)
from service.store.statuses import GameStatus, InboundStatus, OutboxStatus, SeatStatus
from service.store.transient import DatabaseUnavailable, is_transient

from .community import advance as advance_tournament
from .errors import (
    AlreadyDone,
    GameOver,
    NoSuchGame,
    NotYourSeat,
    PlayError,
    PositionChanged,
    Refused,
)
from .mail import accept_mail, deliver, prepare_to_render, requeue
from .mail import process as process_inbound
from .moves import (
    Applied,
    ChatRefused,
    Intent,
    UndoRefused,
    made_already,
    move_bots,
    runner,
    say,
    submit,
    undo_command,
    wordregistry,
)
from .players import BadStart, Started, is_bot_entry, start_game, start_practice
from .readpolicy import OPERATOR, Reader
from .reads import (
    GameRead,
    NotYet,
    PublicGame,
    Step,
    next_game,
    public_game,
    read_game,
    replay_step,
    seat_log,
    submit_then_next,
    whole_log,
)
from .services import Services, from_settings
from .time.sweep import Pruned, prune, sweep, timers, timers_shard

__all__ = ["AlreadyDone", "advance_tournament", "Applied", "BadStart", "ChatRefused", "GameOver", "GameRead",
           "Intent", "NoSuchGame", "OPERATOR", "NotYet", "NotYourSeat", "PlayError", "PositionChanged",
           "PublicGame", "Pruned", "Reader", "Refused", "Services", "Started", "Step", "UndoRefused",
           "accept_mail", "wordregistry", "deliver", "from_settings",
           "is_bot_entry", "made_already", "move_bots", "next_game", "prepare_to_render",
           "process_inbound", "prune", "runner",
           "public_game", "read_game", "replay_step", "requeue", "say", "seat_log", "start_game",
           "start_practice", "submit", "submit_then_next", "sweep", "timers", "timers_shard", "undo_command", "whole_log",
           "DatabaseUnavailable", "is_transient",
           "GameStatus", "InboundStatus", "OutboxStatus", "SeatStatus"]
