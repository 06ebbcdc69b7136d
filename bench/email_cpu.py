"""CPU time of one turn email in the relay, in process: the work the outbox relay does for an
email besides talking to the mail relay (its rows loaded ten at a time, the email composed,
then flattened to the bytes SMTP carries), in milliseconds of this thread's CPU, which a busy
machine disturbs far less than wall time. For comparing two versions of rendering on a
machine shared with other work; `make bench` stays the record of the targets (its fan-out
rows and "one email rendered").

    .venv/bin/python bench/email_cpu.py [--rounds 8] [--per-round 100]

The emails are those of the embedded fan-out: each Trees game started mails both seats.
Each round queues its own games' emails untimed, then times them; the first round warms
the process and is left out. Prints the p50 over the rounds of each part, per email: load
(rows, games, news, the seat's page), compose (of it the table picture) and flatten."""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import queue_turn_emails  # noqa: E402
from service.mailwire.outbound import compose, pipelining  # noqa: E402
from service.play.mail import relay  # noqa: E402
from service.store.migrate import upgrade  # noqa: E402
from service.web import create_app  # noqa: E402

GROUP = relay.GROUP


def for_smtp(msg) -> bytes:
    """The bytes SMTP carries, as the relay's pipelining flattens them."""
    return pipelining.flatten(msg)


def measure(rounds: int, per_round: int) -> dict[str, list[float]]:
    tmp = Path(tempfile.mkdtemp())
    url = f"sqlite:///{tmp / 'email_cpu.db'}"
    upgrade(url)
    app = create_app({"TURNPOST_DATABASE_URL": url, "TURNPOST_MAILDIR": str(tmp / "outbox"),
                      "TURNPOST_CHANCE": random.Random(1), "TURNPOST_BASE_URL": "http://t.test",
                      "TURNPOST_MAIL_DOMAIN": "t.test"})
    svc = app.extensions["turnpost"]
    relay.prepare_to_render(svc)           # as a worker does before it forks
    drawing = [0.0]
    real_picture = compose.picture

    def picture(*args):
        t0 = time.thread_time()
        try:
            return real_picture(*args)
        finally:
            drawing[0] += time.thread_time() - t0

    compose.picture = picture
    out: dict[str, list[float]] = defaultdict(list)
    try:
        for _ in range(rounds + 1):
            ids = queue_turn_emails(svc, per_round)
            sending = relay._Sending(svc, "email_cpu", probe=False)
            load = composing = flat = 0.0
            drawing[0] = 0.0
            for k in range(0, len(ids), GROUP):
                t0 = time.thread_time()
                drafts = sending._load(ids[k:k + GROUP])
                load += time.thread_time() - t0
                for row_id in ids[k:k + GROUP]:
                    t0 = time.thread_time()
                    msg = drafts[row_id][0]()
                    t1 = time.thread_time()
                    for_smtp(msg)
                    flat += time.thread_time() - t1
                    composing += t1 - t0
            for name, seconds in (("load", load), ("compose", composing),
                                  ("  of which the picture", drawing[0]), ("flatten", flat),
                                  ("total", load + composing + flat)):
                out[name].append(seconds / len(ids) * 1000)
    finally:
        compose.picture = real_picture
        svc.dispose()
    return {name: values[1:] for name, values in out.items()}     # the first round warms up


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--per-round", type=int, default=100)
    args = parser.parse_args()
    figures = measure(args.rounds, args.per_round)
    print(f"CPU ms per turn email, p50 (min-max) of {args.rounds} rounds of {args.per_round}:")
    for name, values in figures.items():
        print(f"  {name:24s} {statistics.median(values):6.2f}  "
              f"({min(values):.2f}-{max(values):.2f})")


if __name__ == "__main__":
    main()
