"""What a log line is about: the request, the game and the seat, kept in context variables so
any module's log lines carry them (`TURNPOST_LOG_FORMAT=json` prints them as fields). Adapters
bind the request id; the use cases bind the game and seat they work on. Standard library only,
so every layer may use it."""
from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, timezone

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
game_id: ContextVar[int | None] = ContextVar("game_id", default=None)
seat: ContextVar[int | None] = ContextVar("seat", default=None)


def bind(*, game: int | None = None, seat_: int | None = None) -> None:
    if game is not None:
        game_id.set(game)
    if seat_ is not None:
        seat.set(seat_)


@contextmanager
def about(game: int | None, seat_: int | None) -> Iterator[None]:
    """Lines logged inside are about this game and seat, exactly (None: no game, as for a
    sign-in letter), and the ones after are about what they were about before: a unit of work
    that handles several games in turn (the outbox relay) labels each line with its own."""
    tokens = game_id.set(game), seat.set(seat_)
    try:
        yield
    finally:
        game_id.reset(tokens[0])
        seat.reset(tokens[1])


def clear() -> None:
    for var in (request_id, game_id, seat):
        var.set(None)


class ContextFilter(logging.Filter):
    """Puts the context on every record (as record.request_id, .game_id, .seat)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        record.game_id = game_id.get()
        record.seat = seat.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request id, game id, seat (and
    the traceback, if any)."""

    def format(self, record: logging.LogRecord) -> str:
        line = {"time": datetime.fromtimestamp(record.created, timezone.utc).isoformat(),
                "level": record.levelname, "logger": record.name,
                "message": record.getMessage(),
                "request_id": getattr(record, "request_id", None),
                "game_id": getattr(record, "game_id", None),
                "seat": getattr(record, "seat", None)}
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)
