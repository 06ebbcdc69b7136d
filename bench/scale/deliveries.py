"""A delivery's CPU per email on `make bench-scale`'s seed, in process: mid-game turn emails
claimed, loaded, composed, sent to the SMTP sink and marked sent by the relay's own batches
(`relay.deliver`, BATCH rows a call, its marking thread included), where bench/scale/emails.py
times the loading and composing alone. For finding what the workers spend on an email beside
composing it (the claim, the sending, the marks) and comparing two versions on a busy machine.

    .venv/bin/python bench/scale/deliveries.py [--url postgresql+psycopg://.../turnpost_scale]
                                               [--emails 550] [--games 90000-94999]

Turn emails for the seats of the games in the range are queued as the fan-out queues them,
the first batch warms the process, the rest are delivered and timed, then deleted: the seed
is left as it was but for the snapshots the folds leave (use a fresh range to compare two
versions). Prints the process's CPU (every thread) per email, then each part's own CPU
(the thread it ran in), per email."""
from __future__ import annotations

import logging
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from sqlalchemy import delete, event, update

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE.parents[1])]

from pg_bench import service_env  # noqa: E402
from reply_cpu import Parts  # noqa: E402

from bench import smtp_sink  # noqa: E402
from scale import emails, work  # noqa: E402
from service.mailwire.outbound import transports  # noqa: E402
from service.play.mail import relay  # noqa: E402
from service.store.models import OutboxRow  # noqa: E402
from service.web import create_app  # noqa: E402

#: the relay's steps timed, each in the thread that runs it
PARTS = ((relay, "claim_batch", "claim"),
         (relay._Sending, "load_claimed", "load: the first group, in the claim's transaction"),
         (relay._Sending, "_load_through_blips", "load: the other groups"),
         (relay, "compose_turn", "compose"),
         (relay, "hand_over", "hand over (flatten, send)"),
         (transports.Handover, "answer", "the relay's answer read (marking thread)"),
         (relay, "_mark_sent", "marked sent (marking thread)"))


def measure(url: str, redis_url: str, lo: int, hi: int, n: int) -> None:
    logging.getLogger(relay.__name__).setLevel(logging.WARNING)   # a line a batch
    with smtp_sink(Path(tempfile.mkdtemp()) / "sink.log") as port:
        app = create_app(service_env(url, redis_url, TURNPOST_MAIL_TRANSPORT="smtp",
                                     TURNPOST_SMTP_HOST="127.0.0.1",
                                     TURNPOST_SMTP_PORT=str(port)))
        svc = app.extensions["turnpost"]
        relay.prepare_to_render(svc)            # as a worker does before it forks
        ids = sorted(work.queue_fanout(svc, lo, hi, n).values())
        try:
            with svc.db.transaction() as s:
                s.execute(update(OutboxRow).where(OutboxRow.id.in_(ids))
                          .values(next_try=svc.clock.now()))
            relay.deliver(svc, ids[:relay.BATCH])           # warms the process
            timing = ids[relay.BATCH:]
            parts = Parts()
            for owner, name, label in PARTS:
                parts.wrap(owner, name, label)
            statements = []
            event.listen(svc.db.engine, "before_cursor_execute",
                         lambda *_a: statements.append(1))
            cpu, wall = time.process_time(), time.perf_counter()
            results: Counter = Counter()
            for k in range(0, len(timing), relay.BATCH):
                results.update(relay.deliver(svc, timing[k:k + relay.BATCH]).values())
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        finally:
            with svc.db.transaction() as s:
                s.execute(delete(OutboxRow).where(OutboxRow.id.in_(ids)))
            svc.dispose()
    sent = max(1, results["sent"])
    print(f"{results['sent']} of {len(timing)} emails of games {lo}-{hi} sent "
          f"({dict(results)}), {len(timing) // relay.BATCH} batches:")
    print(f"  CPU per email (the process, every thread)        {cpu / sent * 1000:6.2f} ms")
    print(f"  wall time per email                              {wall / sent * 1000:6.2f} ms")
    print(f"  statements per email                             {len(statements) / sent:6.2f}")
    print("of which, per email (each part's own thread's CPU):")
    for label, seconds in sorted(parts.spent.items(), key=lambda item: -item[1]):
        print(f"  {label:48s} {seconds / sent * 1000:6.2f}")


def main() -> None:
    measure(*emails.seed_options(__doc__, "90000-94999", 550))


if __name__ == "__main__":
    main()
