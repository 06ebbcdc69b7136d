"""The tasks: deliver queued emails, and sweep up whatever a lost kick left behind."""
from __future__ import annotations

import logging

from celery import shared_task
from flask import current_app

from service.mail import relay

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def deliver_outbox(row_ids: list[int]) -> dict:
    db = current_app.extensions["turnpost.db"]
    mailer = current_app.extensions["turnpost.mailer"]
    results = {row_id: mailer.deliver(db, row_id) for row_id in row_ids}
    log.info("outbox delivery: %s", results)
    return results


@shared_task(ignore_result=True)
def sweep_outbox() -> dict:
    db = current_app.extensions["turnpost.db"]
    with db.transaction() as session:
        ids = relay.due(session, relay.utcnow())
    return deliver_outbox(ids) if ids else {}
