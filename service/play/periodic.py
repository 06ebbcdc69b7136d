"""The periodic sweep (beat every TURNPOST_SWEEP_SECONDS; `flask sweep` once): whatever a lost
kick left behind. Outbox rows that are due (new, retried, or claimed by a worker that died) are
sent, and the relay is probed if rows wait for a retry; stored mail whose processing was never started is processed; mail kept only for
diagnosis is deleted when its time is up."""
from __future__ import annotations

from . import intake, relay, replies
from .services import Services


def sweep(svc: Services) -> dict[int, str]:
    now = svc.clock.now()
    with svc.db.transaction() as session:
        waiting = replies.waiting(session, now)
    for inbound_id in waiting:
        replies.process(svc, inbound_id)
    intake.forget_expired(svc, now)
    with svc.db.transaction() as session:
        ids = relay.due(session, svc.clock.now())
    done = relay.deliver(svc, ids)
    return done | relay.probe(svc)
