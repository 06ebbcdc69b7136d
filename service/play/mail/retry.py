"""Stored mail whose processing a transient database error stopped (a restart, a failover, a
statement or lock timeout, a deadlock: service.store.transient) is processed again, never given
up. Its claim is handed back at once, status `retrying`, with its attempts counted and the time
the sweep takes it again (backing off); a worker's own retry may take it sooner. Only a bug
makes a message `failed`, and an operator re-runs those (`flask inbound retry`)."""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session
from tenacity import (
    RetryCallState,
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    wait_chain,
    wait_fixed,
    wait_none,
)

from service.play.services import Services
from service.store.inboundrows import RETRYING
from service.store.models import InboundMessage
from service.store.statuses import InboundStatus
from service.store.transient import is_transient, why

__all__ = ["RETRYING", "after_pauses", "backoff", "release", "through_blips"]
FIRST_WAIT = timedelta(seconds=5)
LONGEST_WAIT = timedelta(minutes=10)
# a database restart takes a second or a few: the claim is handed back as soon as it is back
# (not left for its two minutes to lapse); past these the claim lapses instead
PAUSES = (0.2, 0.5, 1.0, 2.0, 4.0, 8.0)


def backoff(attempts: int) -> timedelta:
    """How long after its `attempts`-th transient failure the sweep tries a message again."""
    return min(FIRST_WAIT * 2 ** min(max(attempts - 1, 0), 20), LONGEST_WAIT)


def after_pauses(pauses: Sequence[float], retry_on: Callable[[BaseException], bool],
                 after: Callable[[RetryCallState], None]) -> Retrying:
    """Try once, then again after each of `pauses` in turn while the error is one `retry_on`
    accepts; `after` hears of every such error, the last one too, which is then raised. The
    pauses are read when this is called (tests shorten them), and so is `time.sleep`."""
    return Retrying(wait=wait_chain(*(wait_fixed(p) for p in pauses)) if pauses else wait_none(),
                    stop=stop_after_attempt(len(pauses) + 1),
                    retry=retry_if_exception(retry_on), after=after, reraise=True,
                    sleep=time.sleep)


def through_blips(svc: Services, work: Callable[[Session], None]) -> bool:
    """Run `work` in a transaction, again after a pause while the database is away. False
    when it stayed away through every pause."""
    def away(state: RetryCallState) -> None:
        svc.outages.failed("database", why(state.outcome.exception()))

    try:
        for attempt in after_pauses(PAUSES, is_transient, away):
            with attempt, svc.db.transaction() as session:
                work(session)
    except Exception as exc:
        if not is_transient(exc):
            raise
        return False
    return True


def release(svc: Services, inbound_id: int, claimed_at: datetime, exc: BaseException) -> bool:
    """Hand back the claim taken at `claimed_at`: the message waits for its next attempt."""
    def hand_back(session: Session) -> None:
        attempts = 1 + (session.scalar(select(InboundMessage.attempts)
                                       .where(InboundMessage.id == inbound_id)) or 0)
        now = svc.clock.now()
        session.execute(update(InboundMessage).where(
            InboundMessage.id == inbound_id, InboundMessage.status == InboundStatus.PROCESSING,
            InboundMessage.processed_at == claimed_at).values(
            status=RETRYING, attempts=attempts, next_attempt_at=now + backoff(attempts),
            outcome=f"attempt {attempts} stopped by the database, to be tried again: "
                    f"{why(exc)}"[:2000]))

    return through_blips(svc, hand_back)
