"""The tasks, each a few lines calling a use case with the app's services (Flask's Celery
pattern: the task runs in an app context and never imports the app)."""
from __future__ import annotations

from celery import shared_task
from flask import current_app

from service import play


def _services() -> play.Services:
    return current_app.extensions["turnpost"]


@shared_task(ignore_result=True)
def deliver_outbox(row_ids: list[int]) -> dict:
    # in batches: one claim (with whatever else is due), one SMTP connection kept open
    # between tasks, one mark
    return play.deliver_batch(_services(), row_ids, fill=True)


@shared_task(ignore_result=True)
def sweep_outbox() -> dict:
    """Send what is due, and process inbound mail whose kick was lost."""
    return play.sweep(_services())


@shared_task(ignore_result=True)
def process_inbound(inbound_id: int) -> str:
    """Read one stored inbound message and act on it (apply, answer or ignore)."""
    return play.process_inbound(_services(), inbound_id).status
