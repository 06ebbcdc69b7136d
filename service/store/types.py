"""Timestamps are stored as naive UTC and always handed out as aware UTC, so SQLite (which keeps
no zone) and PostgreSQL behave the same."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import DateTime
from sqlalchemy.types import TypeDecorator


class UTCDateTime(TypeDecorator):
    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the database; use aware UTC")
        if value.tzinfo is not timezone.utc:      # (most are: the service's clock is UTC)
            value = value.astimezone(timezone.utc)
        return value.replace(tzinfo=None)

    def bind_processor(self, dialect):
        """The type's own conversion, remembering the last value it converted: a batch writes
        the same `now` into every row's created_at (thousands of rows in a sweep's batch), and
        converting it once is the same as converting it each time (a datetime is immutable;
        the remembered pair keeps it alive, so `is` cannot match another object)."""
        convert = super().bind_processor(dialect)
        last = (None, None)

        def process(value):
            nonlocal last
            seen = last
            if value is seen[0]:
                return seen[1]
            stored = convert(value)
            last = (value, stored)
            return stored
        return process

    def process_result_value(self, value: datetime | None, dialect):
        return None if value is None else value.replace(tzinfo=timezone.utc)
