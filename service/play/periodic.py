"""The periodic sweep (beat every TURNPOST_SWEEP_SECONDS; `flask sweep` once): whatever a lost
kick left behind. Outbox rows that are due (new, retried, or claimed by a worker that died) are
sent; stored mail whose processing was never started is processed; bots whose kick was lost
are kicked again."""
from __future__ import annotations

from . import bots, relay, replies
from .services import Services


def sweep(svc: Services) -> dict[int, str]:
    now = svc.clock.now()
    with svc.db.transaction() as session:
        waiting = replies.waiting(session, now)
    for inbound_id in waiting:
        replies.process(svc, inbound_id)
    with svc.db.transaction() as session:
        stalled = bots.stalled(session, now, svc.settings.get("TURNPOST_BOT_DELAY_SECONDS", 0))
    for game_id in stalled:
        svc.kick("bots", game_id)
    with svc.db.transaction() as session:
        ids = relay.due(session, svc.clock.now())
    return relay.deliver(svc, ids)
