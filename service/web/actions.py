"""Glue between a request and the use cases: run a submission in one transaction, then kick the
outbox relay once it has committed (never before: a worker must find the rows)."""
from __future__ import annotations

import logging
from datetime import datetime, timezone

from flask import current_app

from service import play
from service.play import Intent

log = logging.getLogger(__name__)


def now() -> datetime:
    return datetime.now(timezone.utc)


def chance():
    return current_app.extensions["turnpost.chance"]


def submit(intent: Intent) -> play.Applied:
    db = current_app.extensions["turnpost.db"]
    with db.transaction() as session:
        applied = play.submit(session, intent, chance(), now())
    kick(applied.outbox_ids)
    return applied


def start(kind: str, players: list[str], options: dict) -> play.Started:
    db = current_app.extensions["turnpost.db"]
    with db.transaction() as session:
        started = play.start_game(session, kind, players, options, chance(), now())
    kick(started.outbox_ids)
    return started


def kick(outbox_ids: list[int]) -> None:
    """Ask the workers to send these rows now. If the broker is unreachable the rows are safe
    in the database and the periodic sweep sends them: a failed kick loses nothing."""
    from workers.tasks import deliver_outbox, sweep_outbox
    try:
        if outbox_ids:
            deliver_outbox.delay(outbox_ids)
        if current_app.config["TURNPOST_BROKER_URL"] == "":
            # no beat process on the embedded default: retries that fell due go out now
            sweep_outbox.delay()
    except Exception:  # noqa: BLE001 - broker trouble must not fail a committed move
        log.exception("could not kick the outbox relay; the sweep will send %s", outbox_ids)


def accept_mail(raw: bytes, via: str) -> tuple[int, bool]:
    """Store an inbound message and have a worker process it (after the commit)."""
    from service.mail.intake import store_raw
    from workers.tasks import process_inbound
    db = current_app.extensions["turnpost.db"]
    row_id, new = store_raw(db, raw, via, now())
    if new:
        try:
            process_inbound.delay(row_id)
        except Exception:  # noqa: BLE001 - the sweep processes what the kick could not
            log.exception("could not kick inbound processing for %s", row_id)
    return row_id, new
