"""`flask inbound retry ID…`: an operator runs again stored mail whose processing failed (a
bug, since fixed). Only `failed` messages are taken; each gets a line saying what became of
it. The moves of a message are keyed by its Message-ID, so a move that did go in is never
made twice."""
from __future__ import annotations

from sqlalchemy import update

from service.play.services import Services
from service.store.models import InboundMessage
from service.store.statuses import InboundStatus
from service.store.transient import DatabaseUnavailable

from . import replies


def retry_failed(svc: Services, inbound_ids: list[int]) -> list[tuple[int, str]]:
    """(id, what happened) for each id, in the order given, each id once."""
    said = []
    for inbound_id in dict.fromkeys(inbound_ids):
        said.append((inbound_id, _retry_one(svc, inbound_id)))
    return said


def _retry_one(svc: Services, inbound_id: int) -> str:
    with svc.db.transaction() as session:
        row = session.get(InboundMessage, inbound_id)
        if row is None:
            return "no such inbound message: nothing done"
        if row.status != InboundStatus.FAILED:
            return f"not failed (it is {row.status}): left alone"
        # taken back only while still failed: two operators retrying at once run it once
        reopened = session.execute(update(InboundMessage).where(
            InboundMessage.id == inbound_id, InboundMessage.status == InboundStatus.FAILED).values(
            status=InboundStatus.RECEIVED, attempts=0, next_attempt_at=None)).rowcount
    if not reopened:
        return "taken by someone else meanwhile: left alone"
    try:
        result = replies.process(svc, inbound_id)
    except DatabaseUnavailable as exc:
        return f"the database is unavailable; it will be tried again by itself ({exc})"
    if result.status == InboundStatus.FAILED:
        return f"failed again: {result.detail}"
    return f"{result.status}" + (f": {result.detail}" if result.detail else "")
