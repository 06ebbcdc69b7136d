"""The tasks: deliver queued emails, and sweep up whatever a lost kick left behind."""
from __future__ import annotations

import logging

from celery import shared_task
from flask import current_app

from service.mail import relay, replies

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
    """Send what is due, and process inbound mail whose kick was lost."""
    db = current_app.extensions["turnpost.db"]
    with db.transaction() as session:
        ids = relay.due(session, relay.utcnow())
        waiting = replies.waiting(session, relay.utcnow())
    for inbound_id in waiting:
        process_inbound(inbound_id)
    return deliver_outbox(ids) if ids else {}


@shared_task(ignore_result=True)
def process_inbound(inbound_id: int) -> str:
    """Read one stored inbound message and act on it (apply, answer or ignore)."""
    from service.web import actions
    result = replies.process(current_app.extensions["turnpost.db"],
                             current_app.extensions["turnpost.mailer"], inbound_id,
                             actions.chance(), relay.utcnow())
    if result.outbox_ids:
        deliver_outbox(result.outbox_ids)
    return result.status
