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
    """Send these rows and whatever else is due, up to a batch, over this process's kept
    connection to the relay (under a burst the batches grow and later tasks find their rows
    sent)."""
    return play.deliver(_services(), row_ids, fill=True)


@shared_task(ignore_result=True)
def sweep_outbox() -> dict:
    """Send what is due, and process inbound mail whose kick was lost."""
    return play.sweep(_services())


@shared_task(ignore_result=True)
def process_inbound(inbound_id: int) -> str:
    """Read one stored inbound message and act on it (apply, answer or ignore)."""
    return play.process_inbound(_services(), inbound_id).status


@shared_task(ignore_result=True)
def sweep_timers() -> dict:
    """The clocks: reminders, timeouts, vacations that ended (beat; never in a request)."""
    report = play.timers(_services())
    return {"reminded": report.reminded, "timed_out": report.timed_out,
            "resumed": report.resumed}


@shared_task(ignore_result=True)
def move_bots(game_id: int) -> int:
    """Bot seats of one game make the moves that are due (play.bots)."""
    return play.move_bots(_services(), game_id)
