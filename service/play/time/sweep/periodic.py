"""The periodic sweeps. `sweep` (beat every TURNPOST_SWEEP_SECONDS; also kicked after a move
on the embedded default): whatever a lost kick left behind. Outbox rows that are due (new,
retried, or claimed by a worker that died) are sent, and the relay is probed if rows wait for
a retry; stored mail whose processing was never started, or whose next attempt after a
transient database error is due, is processed; mail kept only for
diagnosis is deleted when its time is up; digest players' held turn emails are released at
their hour; bots whose kick was lost are kicked again, tournaments whose next-round kick was lost advance. `timers` (beat every
TURNPOST_SWEEP_SECONDS; `flask sweep` runs both): the clocks' pass, service.play.time.sweep.timeouts.run:
reminders, timeouts, vacations that ended. It is a job of its own so that it never runs inside
a player's request."""
from __future__ import annotations

from service.play import community
from service.play.mail import digest, intake, relay, replies
from service.play.moves import bots
from service.play.services import Services
from service.play.time import calendar
from service.store.transient import DatabaseUnavailable

from . import timeouts


def timers(svc: Services) -> timeouts.Report:
    return timeouts.run(svc)


def sweep(svc: Services) -> dict[int, str]:
    now = svc.clock.now()
    with svc.db.transaction() as session:
        waiting = replies.waiting(session, now)
    for inbound_id in waiting:
        try:
            replies.process(svc, inbound_id)
        except DatabaseUnavailable:
            break           # handed back for a later pass; the rest wait with it
    intake.forget_expired(svc, now)
    digest.release_due(svc)         # digest players' held turn emails, once a day
    calendar.release_due(svc)       # what waited through a player's quiet hours, merged
    with svc.db.transaction() as session:
        stalled = bots.stalled(session, now, svc.settings.BOT_DELAY_SECONDS)
    for game_id in stalled:
        svc.kick("bots", game_id)
    community.advance_due(svc)      # a tournament whose next-round kick was lost
    with svc.db.transaction() as session:
        ids = relay.due(session, svc.clock.now())
    results = relay.deliver(svc, ids) | relay.probe(svc)
    svc.note("sweep")
    return results
