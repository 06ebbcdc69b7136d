"""The outbox relay's batches by their own name: `deliver_batch` is `relay.deliver`, which
claims up to `relay.BATCH` rows in one UPDATE, sends them over one SMTP connection (kept open
by the transport for the next batch) and marks the sent ones in one statement, with the
promises of issue 17 kept row by row (claims renewed by a heartbeat, a 5xx parked at once,
other failures retried on schedule, marking sent retried). See service/play/relay.py."""
from __future__ import annotations

from . import relay
from .services import Services

BATCH = relay.BATCH


def deliver_batch(svc: Services, row_ids: list[int], *, fill: bool = False) -> dict[int, str]:
    """Send these outbox rows in batches; `fill`: also whatever else is due, up to a whole
    batch (the worker's tasks). Returns what happened to each row (see relay.deliver)."""
    return relay.deliver(svc, row_ids, fill=fill)
