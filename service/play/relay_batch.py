"""The outbox relay in batches (issue 15): claim many rows in one UPDATE, render their emails in
one short transaction (with `relay.render`, so a batch's email is the same as a single row's),
send them over one SMTP connection (kept open for the next batch), and mark the sent ones in
one UPDATE.

The same promises as `relay.deliver`, row by row: a row is claimed by a conditional UPDATE, so
two workers (or a worker and the sweep) never both send it; only rows still claimed by this
batch are marked sent; a row that fails (render or send) goes through `relay._failed`, the one
place that decides between a retry and parking."""
from __future__ import annotations

import logging
import secrets
from datetime import datetime
from email.message import EmailMessage

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from service.store.models import OutboxRow

from . import bounces, relay
from .services import Services

log = logging.getLogger(__name__)
BATCH = 50


def deliver_batch(svc: Services, row_ids: list[int], *, fill: bool = False) -> dict[int, str]:
    """Send these outbox rows, BATCH at a time. Returns what happened to each:
    sent | skipped (not claimable: sent, or claimed by another) | retry | parked.

    `fill`: also take other rows that are due, up to a whole batch (a worker's task of two
    rows sends whatever else is waiting too, so under a burst the batches grow and the
    tasks behind find their rows sent: one claim, one connection, one mark for many)."""
    results: dict[int, str] = {}
    for start in range(0, len(row_ids), BATCH):
        results.update(_deliver(svc, row_ids[start:start + BATCH], fill))
    if not row_ids and fill:
        results.update(_deliver(svc, [], fill))
    for result in results.values():
        svc.note("email", event={"retry": "retried"}.get(result, result))
    if results:
        log.info("outbox delivery: %s", results)
    return results


def _deliver(svc: Services, row_ids: list[int], fill: bool = False) -> dict[int, str]:
    claimed_at, token = svc.clock.now(), secrets.token_hex(8)
    failed: dict[int, Exception] = {}
    messages: dict[int, EmailMessage] = {}
    skipped: list[int] = []
    with svc.db.transaction() as session:
        if fill and len(row_ids) < BATCH:
            row_ids = row_ids + also_due(session, row_ids, claimed_at, BATCH - len(row_ids))
        claimed = claim_many(session, row_ids, claimed_at, token)
        rows = session.scalars(select(OutboxRow).where(OutboxRow.id.in_(claimed))
                               .order_by(OutboxRow.id)).all()
        for row in rows:
            if bounces.unmailable(session, row.to_addr):   # it bounced since it was queued
                row.status, row.claim = "skipped", None
                skipped.append(row.id)
                continue
            try:
                # the same email relay.render makes, row by row: deadlines, letters, links
                messages[row.id] = msg = relay.render(session, svc, row)
                msg["Return-Path"] = f"<{svc.urls.bounce_address(row.message_id)}>"
            except Exception as exc:  # noqa: BLE001 - any failure retries, as in relay
                failed[row.id] = exc
    outcomes = send_many(svc.transport, list(messages.values()))
    sent = [row_id for row_id, err in zip(messages, outcomes) if err is None]
    failed.update({row_id: err for row_id, err in zip(messages, outcomes) if err is not None})
    mark_sent(svc, sent, token)
    if sent:
        svc.outages.ok(relay.RELAY)
    results = {row_id: "skipped" for row_id in row_ids}
    results.update({row_id: "sent" for row_id in sent})
    for row_id, exc in failed.items():
        results[row_id] = relay._failed(svc, row_id, token, exc, False)
    return results


def also_due(session: Session, taken: list[int], now: datetime, limit: int) -> list[int]:
    """Other rows due now, oldest first; on PostgreSQL rows another worker is claiming
    this moment are skipped rather than waited for."""
    q = (select(OutboxRow.id).where(relay._claimable(now), OutboxRow.id.not_in(taken))
         .order_by(OutboxRow.id).limit(limit))
    if session.get_bind().dialect.name == "postgresql":
        q = q.with_for_update(skip_locked=True)
    return list(session.scalars(q))


def claim_many(session: Session, row_ids: list[int], now: datetime, token: str) -> list[int]:
    if not row_ids:
        return []
    return list(session.scalars(update(OutboxRow)
                                .where(OutboxRow.id.in_(row_ids), relay._claimable(now))
                                .values(status="sending", claimed_at=now, claim=token)
                                .returning(OutboxRow.id)))


def mark_sent(svc: Services, row_ids: list[int], token: str) -> None:
    if not row_ids:
        return
    with svc.db.transaction() as session:
        # only rows still ours: a claim taken over by the sweep is the sweep's to mark
        session.execute(update(OutboxRow)
                        .where(OutboxRow.id.in_(row_ids), OutboxRow.status == "sending",
                               OutboxRow.claim == token)
                        .values(status="sent", sent_at=svc.clock.now(), last_error=None,
                                claim=None))


def send_many(transport, messages: list[EmailMessage]) -> list[Exception | None]:
    """One connection for the lot when the transport can (SMTP), else one send each."""
    many = getattr(transport, "send_many", None)
    if many is not None:
        return many(messages)
    outcomes: list[Exception | None] = []
    for msg in messages:
        try:
            transport.send(msg)
            outcomes.append(None)
        except Exception as exc:  # noqa: BLE001 - each message's failure is its own
            outcomes.append(exc)
    return outcomes
