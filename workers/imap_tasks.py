"""IMAP polling: beat runs it every TURNPOST_IMAP_POLL_SECONDS when TURNPOST_IMAP_HOST is set
(see celery_app.py). Only one poll's worth of work per run; a backlog drains over several."""
from __future__ import annotations

import dataclasses
import logging

from celery import shared_task
from flask import current_app

from service import play
from service.mailwire.inbound import imap_poll

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def poll_imap() -> dict:
    """Store the mailbox's new messages (each kicks its own processing) and mark them read."""
    if not current_app.config.get("TURNPOST_IMAP_HOST"):
        return {}
    svc = current_app.extensions["turnpost"]
    account = imap_poll.Account.from_config(current_app.config)
    result = imap_poll.poll(account, lambda raw: play.accept_mail(svc, raw, "imap"))
    if result.seen or result.failed:
        log.info("IMAP poll of %s@%s: %s", account.user, account.host, result)
    return dataclasses.asdict(result)
