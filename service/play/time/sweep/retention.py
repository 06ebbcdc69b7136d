"""Rows kept only for a while: sent emails' outbox rows and moves' idempotency receipts, deleted
once older than their retention (TURNPOST_OUTBOX_RETENTION_DAYS,
TURNPOST_RECEIPT_RETENTION_DAYS; beat's daily `prune`, `flask prune`). Without it they are most
of what the database grows by, and nothing needs them once every link or reply address that
could bring them up again has expired: the retention is never shorter than
TURNPOST_LINK_MAX_AGE_DAYS.

What each row is still needed for, and why that has ended by then:

- A receipt answers a second press of a link, a redelivered reply or an API retry "already
  done". A link or reply address older than TURNPOST_LINK_MAX_AGE_DAYS is refused before any
  receipt is read, and a receipt is never older than the link that made it; a redelivered
  reply is recognised by its Message-ID in the stored mail (kept) before its receipt is read;
  a timeout's key names its deadline and position, which never fall due again. An API client
  retrying with the same Idempotency-Key after the retention makes a new request (the key's
  promise lasts the retention, as a payment API's lasts a day): with the `seq` it looked at
  it is refused as stale, as every old link is.
- A sent outbox row is found by its Message-ID when a bounce, an auto-reply or a reply
  without its reply address comes back (days, not months), and counted for the answer caps
  (a day). And a seat's turn email is where the seat's next email starts its news
  (notify.since): so a turn row goes only when a newer turn row of its seat, sent or skipped,
  carries that on, and no row of the seat still unsent was queued after it.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, delete, exists, or_, select, tuple_
from sqlalchemy.orm import aliased

from service.play.services import Services
from service.store.models import OutboxRow, Submission
from service.store.statuses import OutboxStatus

#: rows deleted by one statement: each in a short transaction of its own, so a pass over a
#: large backlog never holds locks (or a long snapshot) for long
BATCH = 5_000
#: an email's row is done with once it is in one of these
FINISHED = (OutboxStatus.SENT, OutboxStatus.SKIPPED)


@dataclass(frozen=True)
class Pruned:
    outbox: int = 0
    receipts: int = 0


def retention(days: int, svc: Services) -> timedelta | None:
    """The retention of a setting's `days` (0: kept for ever), never shorter than a link's
    life."""
    if days <= 0:
        return None
    return timedelta(days=max(days, svc.settings.LINK_MAX_AGE_DAYS))


def prune(svc: Services, batch: int = BATCH) -> Pruned:
    """Delete the outbox rows and receipts past their retention, `batch` at a time."""
    now = svc.clock.now()
    outbox = receipts = 0
    keep = retention(svc.settings.OUTBOX_RETENTION_DAYS, svc)
    if keep is not None:
        outbox = _in_batches(svc, _old_outbox(now - keep, batch))
    keep = retention(svc.settings.RECEIPT_RETENTION_DAYS, svc)
    if keep is not None:
        receipts = _in_batches(svc, _old_receipts(now - keep, batch))
    return Pruned(outbox, receipts)


def _in_batches(svc: Services, statement) -> int:
    done = 0
    while True:
        with svc.db.transaction() as session:
            n = session.execute(statement).rowcount
        done += n
        if not n:
            return done


_LATER = aliased(OutboxRow)


def _old_outbox(cutoff: datetime, batch: int):
    same_seat = and_(_LATER.game_id == OutboxRow.game_id, _LATER.seat == OutboxRow.seat,
                     _LATER.id > OutboxRow.id)
    # a newer turn email of the seat, done with, starts the seat's news at least as late
    carried_on = exists().where(same_seat, _LATER.kind == "turn", _LATER.seq >= OutboxRow.seq,
                                _LATER.status.in_(FINISHED))
    # an email of the seat queued after this one and not sent yet may still read it
    still_read = exists().where(same_seat, _LATER.status.not_in(FINISHED))
    old = (select(OutboxRow.id)
           .where(OutboxRow.status.in_(FINISHED), OutboxRow.created_at < cutoff,
                  or_(OutboxRow.kind != "turn", OutboxRow.game_id.is_(None),
                      and_(carried_on, ~still_read)))
           .limit(batch))
    return delete(OutboxRow).where(OutboxRow.id.in_(old.scalar_subquery()))


def _old_receipts(cutoff: datetime, batch: int):
    old = select(Submission.game_id, Submission.key).where(Submission.created_at < cutoff) \
        .limit(batch)
    return delete(Submission).where(tuple_(Submission.game_id, Submission.key).in_(old))
