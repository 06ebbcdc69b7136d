"""The clocks a `Services` is given (the protocol: service.play.services.Clock): the system's,
and one that stands still until told. Every use case reads the time from the clock it is
given, never from `datetime.now()`, so tests (the deadline sweep's above all) can move time."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(timezone.utc)


class ManualClock:
    """A clock that stands still until told: tests set and advance it."""

    def __init__(self, start: datetime):
        if start.tzinfo is None:
            raise ValueError("ManualClock needs an aware datetime")
        self._now = start.astimezone(timezone.utc)

    def now(self) -> datetime:
        return self._now

    def advance(self, delta: timedelta | None = None, **kwargs: float) -> datetime:
        self._now += delta if delta is not None else timedelta(**kwargs)
        return self._now

    def set(self, when: datetime) -> None:
        self._now = when.astimezone(timezone.utc)
