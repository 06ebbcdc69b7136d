"""Deliver kicks while one waits in the queue are left out (issue 53): one Celery task per burst
of moves, not one per move.

A deliver task claims its own rows and fills its batch with whatever else is due, so under a
burst most tasks behind the first found their rows sent already, each a publish in the web and
a dispatch, a claim and a task's bookkeeping in the workers for nothing. Here a kick publishes
only when it sets the broker's key WAITING (SET NX, a few seconds' expiry), and the task
clears it as it starts, before it claims. So a kick that finds the key set comes after a row
it can see committed and before the waiting task's claim, which takes that row (or another
task already has it): nothing is left behind. A task whose claim took a whole batch may have
left rows due: it kicks once more at once, before it sends (`next_delivery`), so
the next task is taken by another worker while this one sends, and a backlog that no further
kick follows (the emails of a burst of timeouts, for one) is sent by every free worker, not one
task after another.

A task that sends its own emails (a reply's) sends them where it runs while the workers keep
up; while tasks wait in the queue behind it, its rows join the batch a waiting deliver task
makes of everything due (`work_waiting`): composed and sent ten at a time, an email costs the
workers about two thirds of one sent alone (the claim, the group's reads, the batch's threads
paid once; docs/performance.md, "A reply's emails join a batch").

What can go wrong loses nothing, as a lost kick loses nothing: the rows are in the database
and the sweep sends them. The key outlives a task lost with the broker by its expiry at most;
a broker that is not Redis has no key, and every kick publishes as before."""
from __future__ import annotations

import logging
from collections.abc import Callable

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from .broker_wait import KICK_WAIT_SECONDS

log = logging.getLogger(__name__)

#: the broker's key a waiting deliver task holds (its Redis database is the broker's own)
WAITING = "turnpost:deliver-waiting"
#: how long the key outlives a task that never started (lost with the broker's queue): kicks
#: are left out for this long at most, and the sweep sends their rows meanwhile
EXPIRY_MS = 15_000


class DeliverGate:
    """The web's and the workers' side of the key, on a connection bounded as a kick's is."""

    def __init__(self, broker_url: str):
        self._client = None
        if broker_url.startswith(("redis://", "rediss://")):
            # one attempt, each step bounded (redis-py retries three times by default): a
            # hung broker costs a kick one wait, then the sweep sends its rows
            self._client = redis.Redis.from_url(
                broker_url, socket_timeout=KICK_WAIT_SECONDS,
                socket_connect_timeout=KICK_WAIT_SECONDS, retry=Retry(NoBackoff(), 0))

    def should_publish(self) -> bool:
        """True when no deliver task waits, and this kick's task is now the one that does.
        A broker that does not answer raises, as the publish would (the caller notes it)."""
        if self._client is None:
            return True
        return bool(self._client.set(WAITING, b"1", nx=True, px=EXPIRY_MS))

    def publish_unless_waiting(self, publish: Callable[[], None]) -> None:
        """Publish a deliver task by `publish`, unless one waits already (its claim takes
        what the caller's would have). A publish that fails reopens the gate, since no task
        waits after all (the next kick publishes), and raises."""
        if not self.should_publish():
            return
        try:
            publish()
        except Exception:
            self.reopen()
            raise

    def work_waiting(self, queue: str) -> bool:
        """Whether tasks wait in the broker's queue behind the ones the workers hold (the
        length of its Redis list, which holds only those not yet taken). Never raises: a
        broker that does not answer is taken for an idle one, so a reply's emails go from
        its own task as they always could."""
        if self._client is None:
            return False
        try:
            return bool(self._client.llen(queue))
        except redis.RedisError as exc:
            log.debug("queue length not read: %s", exc)
            return False

    def reopen(self) -> None:
        """A deliver task starts (it claims after this), or a publish failed: the next kick
        publishes. Never raises: a broker away now is one the task could not run under."""
        if self._client is None:
            return
        try:
            self._client.delete(WAITING)
        except redis.RedisError as exc:
            log.debug("deliver gate not reopened: %s", exc)
