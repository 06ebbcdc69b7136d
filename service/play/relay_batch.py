"""The outbox relay in batches (issue 15): claim many rows in one UPDATE, read what their emails
show in one short transaction, render them with no transaction open, send them over one SMTP
connection (kept open for the next batch), and mark the sent ones in one UPDATE.

The same promises as `relay.deliver`, row by row: a row is claimed by a conditional UPDATE, so
two workers (or a worker and the sweep) never both send it; only rows still claimed by this
batch are marked sent; a row that fails (render or send) goes through `relay._failed`, the one
place that decides between a retry and parking."""
from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from email.message import EmailMessage
from functools import partial

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from service.mail.outbound.compose import Envelope, compose_notice, compose_turn
from service.presenting import seat_page
from service.store import events as event_store
from service.store.models import GameRow, OutboxRow

from . import positions, relay
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
    if results:
        log.info("outbox delivery: %s", results)
    return results


def _deliver(svc: Services, row_ids: list[int], fill: bool = False) -> dict[int, str]:
    claimed_at = svc.clock.now()
    failed: dict[int, Exception] = {}
    with svc.db.transaction() as session:
        if fill and len(row_ids) < BATCH:
            row_ids = row_ids + also_due(session, row_ids, claimed_at, BATCH - len(row_ids))
        claimed = claim_many(session, row_ids, claimed_at)
        rows = session.scalars(select(OutboxRow).where(OutboxRow.id.in_(claimed))
                               .order_by(OutboxRow.id)).all()
        # every game of the batch (and its seats and players) in one query each
        games = {g.id: g for g in session.scalars(
            select(GameRow).where(GameRow.id.in_({r.game_id for r in rows if r.game_id})))}
        jobs = {}
        for row in rows:
            try:
                jobs[row.id] = prepare(session, svc, row, games.get(row.game_id))
            except Exception as exc:  # noqa: BLE001 - any failure retries, as in relay
                failed[row.id] = exc
    messages: dict[int, EmailMessage] = {}
    for row_id, compose in jobs.items():     # rendering holds no lock on the database
        try:
            messages[row_id] = compose()
        except Exception as exc:  # noqa: BLE001 - a template bug retries, then parks
            failed[row_id] = exc
    outcomes = send_many(svc.transport, list(messages.values()))
    sent = [row_id for row_id, err in zip(messages, outcomes) if err is None]
    failed.update({row_id: err for row_id, err in zip(messages, outcomes) if err is not None})
    mark_sent(svc, sent, claimed_at)
    results = {row_id: "skipped" for row_id in row_ids}
    results.update({row_id: "sent" for row_id in sent})
    for row_id, exc in failed.items():
        results[row_id] = relay._failed(svc, row_id, claimed_at, exc)
    return results


def also_due(session: Session, taken: list[int], now: datetime, limit: int) -> list[int]:
    """Other rows due now, oldest first; on PostgreSQL rows another worker is claiming
    this moment are skipped rather than waited for."""
    q = (select(OutboxRow.id).where(relay._claimable(now), OutboxRow.id.not_in(taken))
         .order_by(OutboxRow.id).limit(limit))
    if session.get_bind().dialect.name == "postgresql":
        q = q.with_for_update(skip_locked=True)
    return list(session.scalars(q))


def claim_many(session: Session, row_ids: list[int], now: datetime) -> list[int]:
    if not row_ids:
        return []
    return list(session.scalars(update(OutboxRow)
                                .where(OutboxRow.id.in_(row_ids), relay._claimable(now))
                                .values(status="sending", claimed_at=now)
                                .returning(OutboxRow.id)))


def mark_sent(svc: Services, row_ids: list[int], claimed_at: datetime) -> None:
    if not row_ids:
        return
    with svc.db.transaction() as session:
        # only rows still ours: a claim taken over by the sweep is the sweep's to mark
        session.execute(update(OutboxRow)
                        .where(OutboxRow.id.in_(row_ids), OutboxRow.status == "sending",
                               OutboxRow.claimed_at == claimed_at)
                        .values(status="sent", sent_at=svc.clock.now(), last_error=None))


def prepare(session: Session, svc: Services, row: OutboxRow,
            game: GameRow | None = None) -> Callable[[], EmailMessage]:
    """Read what the row's email shows (as `relay.render` does); return the rendering of it,
    to run after the transaction."""
    envelope = Envelope(row.message_id, row.to_addr, svc.from_name, row.created_at)
    if row.game_id is None:
        p = row.payload or {}
        return partial(compose_notice, svc.templates, svc.urls, envelope, why=p.get("why", ""),
                       subject=p.get("subject", ""), in_reply_to=p.get("in_reply_to"))
    game = game or session.get(GameRow, row.game_id)
    pos = positions.load(session, svc.states, row.game_id, upto=row.seq, row=game)
    names = [s.player.name for s in game.seats]
    news = [(r.seq, r.event) for r in
            event_store.load(session, game, after=row.since_seq, upto=row.seq)]
    seat, extra = row.seat, dict(row.payload or {}, kind=row.kind)
    game_id, kind = game.id, game.kind

    def render() -> EmailMessage:
        page = seat_page(pos.engine, game_id, kind, pos.state, pos.seq, seat, names, news)
        links = svc.urls.for_seat(game_id, seat, page.mark)
        return compose_turn(svc.templates, page, links, envelope, extra=extra)
    return render


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
