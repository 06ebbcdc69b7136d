"""The tasks, each a few lines calling a use case with the app's services (Flask's Celery
pattern: the task runs in an app context and never imports the app).

A transient database error (a restart, a failover, a lock or statement timeout, a deadlock:
service.store.transient) is one warning line per outage ("database is down", then "database
is back": the services' Outages), never a traceback per task. The work tasks are then retried
by Celery with exponential backoff (its autoretry_for/retry_backoff); the periodic passes are
not, beat runs them again. Run eagerly (no broker) nothing is retried here: the stopped work is
in the database and the in-process sweep takes it."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from celery import shared_task
from flask import current_app

from service import play

# retried after up to 1, 2, 4 ... seconds (full jitter), at most a minute apart, 15 times (a
# few minutes); after that the sweep owns the work (its rows wait in the database)
RETRIED = {"autoretry_for": (play.DatabaseUnavailable,), "retry_backoff": 1,
           "retry_backoff_max": 60, "retry_jitter": True, "max_retries": 15,
           # the last retry's failure is expected: an INFO line, not an ERROR traceback
           "throws": (play.DatabaseUnavailable,)}


def _services() -> play.Services:
    return current_app.extensions["turnpost"]


def _through_outages(task, work: Callable[[], Any]) -> Any:
    """Run a use case; a transient database error becomes DatabaseUnavailable (retried by
    Celery) with one line per outage, and the first success after one says it is over."""
    svc = _services()
    try:
        done = work()
    except Exception as exc:
        if not play.is_transient(exc):
            raise
        svc.outages.failed("database", f"{type(exc).__name__}: "
                           f"{(str(exc).splitlines() or [''])[0][:200]}")
        if task is None or task.request.is_eager:
            return None                     # the sweep takes it (and nothing is retried here)
        if isinstance(exc, play.DatabaseUnavailable):
            raise
        raise play.DatabaseUnavailable(f"{task.name}: the database is unavailable") from exc
    svc.outages.ok("database")
    return done


@shared_task(bind=True, ignore_result=True, **RETRIED)
def deliver_outbox(self, row_ids: list[int]) -> dict:
    """Send these rows and whatever else is due, up to a batch, over this process's kept
    connection to the relay (under a burst the batches grow, and the kicks behind a waiting
    task are left out: workers.delivergate). A claim that took a whole batch asks for the
    next task at once, so that a backlog is sent by as many workers as are free."""
    gate = current_app.extensions.get("turnpost.delivergate")
    if gate is not None and not self.request.is_eager:
        gate.reopen()               # before the claim: a kick from now on publishes again
    # with a broker: a task left out while one waits, on the kicks' bounded connection
    next_delivery = current_app.extensions.get("turnpost.next_delivery")
    return _through_outages(self, lambda: play.deliver(
        _services(), row_ids, fill=True, whole_batch=next_delivery))


@shared_task(ignore_result=True)
def sweep_outbox() -> dict:
    """Send what is due, and process inbound mail whose kick was lost."""
    return _through_outages(None, lambda: play.sweep(_services()))


@shared_task(bind=True, ignore_result=True, sends_own_emails=True, **RETRIED)
def process_inbound(self, inbound_id: int) -> str:
    """Read one stored inbound message and act on it (apply, answer or ignore); the emails it
    queues (the answer, the next turn) are sent by this task too (workers.celery_app)."""
    # the task's id is the same in each of its retries: a retry takes back the claim it
    # could not hand back while the database was away
    result = _through_outages(self, lambda: play.process_inbound(_services(), inbound_id,
                                                                 claimant=self.request.id))
    return result.status if result is not None else "retrying"


@shared_task(ignore_result=True)
def sweep_timers() -> dict:
    """The clocks: reminders, timeouts, vacations that ended (beat; never in a request); with
    a broker, the reminders and timeouts are handed out in shards (sweep_shard)."""
    report = _through_outages(None, lambda: play.timers(_services()))
    if report is None:
        return {}
    return {"reminded": report.reminded, "timed_out": report.timed_out,
            "resumed": report.resumed, "shards": report.shards}


@shared_task(ignore_result=True)
def sweep_shard(shard: int, of: int) -> dict:
    """One shard of the clocks' pass (beat's sweep_timers hands them out): the reminders and
    timeouts of the games whose id leaves `shard` divided by `of`. Run twice, the second run
    finds nothing left to claim; one that fails is handed out again by beat's next pass."""
    report = _through_outages(None, lambda: play.timers_shard(_services(), shard, of))
    if report is None:
        return {}
    return {"reminded": report.reminded, "timed_out": report.timed_out}


@shared_task(ignore_result=True)
def prune_old_rows() -> dict:
    """Sent emails' outbox rows, moves' receipts and processed replies past their retention,
    deleted (beat, daily; service.play.time.sweep.retention). Stopped by an outage, the next
    day's run does it."""
    pruned = _through_outages(None, lambda: play.prune(_services()))
    if pruned is None:
        return {}
    return {"outbox": pruned.outbox, "receipts": pruned.receipts, "inbound": pruned.inbound,
            "account_changes": pruned.account_changes, "sign_ins": pruned.sign_ins}


@shared_task(bind=True, ignore_result=True, **RETRIED)
def advance_tournament(self, tournament_id: int) -> str:
    """A game of the tournament ended: its next round starts if that was the round's last."""
    return _through_outages(self, lambda: play.advance_tournament(_services(), tournament_id))


@shared_task(bind=True, ignore_result=True, **RETRIED)
def move_bots(self, game_id: int) -> int:
    """Bot seats of one game make the moves that are due (service.play.moves.tablebots)."""
    return _through_outages(self, lambda: play.move_bots(_services(), game_id))
