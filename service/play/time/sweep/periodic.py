"""The periodic sweeps. `sweep` (beat every TURNPOST_SWEEP_SECONDS; also kicked after a move
on the embedded default): whatever a lost kick left behind. Outbox rows that are due (new,
retried, or claimed by a worker that died) are sent, and the relay is probed if rows wait for
a retry; stored mail whose processing was never started, or whose next attempt after a
transient database error is due, is processed; mail kept only for
diagnosis is deleted when its time is up; digest players' held turn emails are released at
their hour; bots whose kick was lost are kicked again, tournaments whose next-round kick was lost advance, ladder challenges not accepted in time start their games. `timers` (beat every
TURNPOST_SWEEP_SECONDS; `flask sweep` runs both): the clocks' pass, service.play.time.sweep.timeouts.run:
reminders, timeouts, vacations that ended. It is a job of its own so that it never runs inside
a player's request; with a broker it is split in TURNPOST_SWEEP_SHARDS `timers_shard` jobs
(service.play.time.sweep.shards) that any worker takes."""
from __future__ import annotations

from service.play import aftercommit, community
from service.play.mail import digest, intake, relay, replies
from service.play.moves import tablebots
from service.play.services import Services
from service.play.time import calendar
from service.store.transient import DatabaseUnavailable

from . import timeouts
from .shards import Shard


def timers(svc: Services, shards: int | None = None) -> timeouts.Report:
    """The clocks' pass: here, whole, on the embedded default or with `shards` 1; else handed
    out in `shards` (TURNPOST_SWEEP_SHARDS) jobs, one per shard with something due."""
    if shards is None:
        shards = 1 if svc.embedded else svc.settings.SWEEP_SHARDS
    if shards <= 1:
        return timeouts.run(svc)
    return timeouts.hand_out(svc, shards)


def timers_shard(svc: Services, shard: int, of: int) -> timeouts.Report:
    """One shard of the clocks' pass: its games' reminders and timeouts."""
    return timeouts.run(svc, shard=Shard(shard, of))


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
        for game_id in tablebots.stalled(session, now, svc.settings.BOT_DELAY_SECONDS):
            aftercommit.bots(session, game_id)
    community.advance_due(svc)      # a tournament whose next-round kick was lost
    community.ladders.start_lapsed(svc)   # a ladder challenge whose time to answer is over
    community.follows.send_digests(svc)   # followers' daily digests that are due
    with svc.db.transaction() as session:
        ids = relay.due(session, svc.clock.now())
    results = relay.deliver(svc, ids) | relay.probe(svc)
    svc.note("sweep")
    return results
