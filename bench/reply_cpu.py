"""CPU time of one reply email, from its raw bytes to its move applied, in process: the web's
part (`POST /inbound/raw` through Flask's test client: parse, intake and its de-duplication,
the insert, the kick) and the worker's (`process_inbound`: the claim, the game and seat from the
reply address, the command lines, the move through the repository with the emails it queues,
the outcome written, the deliver kick), each in milliseconds of this process's CPU and split
by part. For comparing two versions of the reply path on a machine shared with other work.

    .venv/bin/python bench/reply_cpu.py                       # SQLite, in a temporary file
    .venv/bin/python bench/reply_cpu.py --pg-url postgresql+psycopg://postgres@127.0.0.1/x \\
                                        --redis-url redis://127.0.0.1:6379/12
    .venv/bin/python bench/reply_cpu.py --profile 25          # + cProfile's top 25 functions

Each reply is the first move of its own Trees game (its words the easy bot's move, as
`make bench` writes them), made before timing. The --pg-url database's tables are DROPPED and
recreated; the Redis database is the broker the kicks are published to (and flushed: no worker
takes them; the emails' delivery is the relay's work, not the reply's). On SQLite the kicks
are not run (the embedded default would run them after the response)."""
from __future__ import annotations

import argparse
import cProfile
import importlib
import io
import logging
import pstats
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pg_bench import PEOPLE, fresh_database, service_env  # noqa: E402

from service import play  # noqa: E402
from service.play import repository  # noqa: E402
from service.play.mail import replies  # noqa: E402
from service.store.migrate import upgrade  # noqa: E402
from service.web import create_app  # noqa: E402

SECRET = "reply-cpu-inbound-secret"


class Parts:
    """CPU time by part, each part's own (a part inside another is taken out of the outer),
    in the thread that runs it."""

    def __init__(self):
        self.spent: dict[str, float] = defaultdict(float)
        # the parts a thread is inside, its own: a part in another thread is nobody's inner
        self._threads = threading.local()

    def wrap(self, module, name: str, label: str | Callable[[tuple], str]) -> None:
        """Time `module.name` from now on, under `label` (or the label it gives the call's
        arguments)."""
        real = getattr(module, name)

        def timed(*args, **kwargs):
            inside = self.inside()
            inside.append(0.0)
            t = time.thread_time()
            try:
                return real(*args, **kwargs)
            finally:
                took = time.thread_time() - t
                inner = inside.pop()
                self.spent[label if isinstance(label, str) else label(args)] += took - inner
                if inside:
                    inside[-1] += took
        setattr(module, name, timed)

    def inside(self) -> list[float]:
        """The time of the parts the calling thread is inside, innermost last."""
        if not hasattr(self._threads, "stack"):
            self._threads.stack = []
        return self._threads.stack


def instrument(parts: Parts, svc) -> None:
    """The parts of a reply's path, by the functions that do them."""
    from service.mailwire.inbound import parse
    from service.play.mail import intake, replies
    submit = importlib.import_module("service.play.moves.submit")
    from service.store import movewrites
    for module, name, label in [
            (intake, "parse_message", "web: parse (stdlib email, policy.default)"),
            (intake, "is_for_us", "web: reply token checked"),
            (intake, "store_raw", "web: intake (insert, de-duplication)"),
            (replies, "process", "worker: the claim, the rest"),
            (parse.InboundMail, "from_json", "worker: the stored parse read back"),
            (replies, "find_target", "worker: game and seat from the reply address"),
            (replies, "_seat_of", "worker: the sender's seat"),
            (replies.retry, "through_blips", "worker: the outcome written"),
            (replies, "_command_lines", "worker: command lines (the words' registry)"),
            (replies, "_run", "worker: the move's transaction, rest"),
            (submit, "_apply", "worker: the move: engine, repository load"),
            (submit, "record", "worker: the move: events, receipt, emails queued"),
            (movewrites, "write", "worker: the move: its one write"),
    ]:
        if hasattr(module, name):
            parts.wrap(module, name, label)
    real_kick = svc.kick

    def kick(job, *args):
        t = time.thread_time()
        real_kick(job, *args)
        label = "web: kick published" if job == "process_inbound" else "worker: kicks published"
        took = time.thread_time() - t
        parts.spent[label] += took
        inside = parts.inside()
        if inside:
            inside[-1] += took
    svc.kick = kick


def replies_to_post(svc, n: int) -> list[bytes]:
    """`n` replies, each the first move of its own new Trees game."""
    rng, out = random.Random(4), []
    for i in range(n):
        gid = play.start_game(svc, "trees", PEOPLE[:2], {}).game_id
        with svc.db.transaction() as s:
            pos = repository.load(s, svc.states, gid)
        seat = min(pos.engine.to_act(pos.state))
        move = pos.engine.bots["easy"](pos.state, seat, rng)
        reply = EmailMessage()
        reply["From"], reply["To"] = PEOPLE[seat], svc.urls.reply_address(gid, seat)
        reply["Subject"] = "Re: your turn"
        reply["Message-ID"] = f"<reply-cpu-{gid}-{i}@phone.example>"
        reply.set_content(pos.engine.describe(move) + "\n\nOn Sunday Turnpost wrote:\n> ...\n")
        out.append(reply.as_bytes())
    return out


def measure(settings: dict, n: int, warm: int, profile: int) -> None:
    app = create_app(settings)
    svc = app.extensions["turnpost"]
    kick, svc.enqueue = svc.enqueue, play.services.run_nothing   # no mail while games start
    raws = replies_to_post(svc, warm + n)
    if not svc.embedded:
        svc.enqueue = kick          # publishing the kicks is part of the work
    svc.states.clear()              # a reply reaches a game this process has not seen
    client = app.test_client()
    headers = {"Authorization": f"Bearer {SECRET}", "Content-Type": "message/rfc822"}

    def post(raw: bytes) -> int:
        r = client.post("/inbound/raw", data=raw, headers=headers)
        assert r.status_code == 200, r.status_code
        r.close()                   # with a broker, the kick is published then
        return r.json["stored"]

    queued: list[int] = []

    def work(row_id: int) -> None:
        # through the module, so that the instrumented function is the one called
        result = replies.process(svc, row_id, claimant=f"bench-{row_id}")
        assert result.status == "applied", result
        queued.extend(result.outbox_ids)

    for raw in raws[:warm]:          # imports, compiled statements, pools
        work(post(raw))
    play.deliver(svc, queued)
    queued.clear()
    parts = Parts()
    instrument(parts, svc)
    timed = raws[warm:]
    profiler = cProfile.Profile() if profile else None
    web, worker, ids = [], [], []
    for raw in timed:
        t = time.thread_time()
        if profiler:
            profiler.enable()
        ids.append(post(raw))
        if profiler:
            profiler.disable()
        web.append(time.thread_time() - t)
    for row_id in ids:
        t = time.thread_time()
        if profiler:
            profiler.enable()
        work(row_id)
        if profiler:
            profiler.disable()
        worker.append(time.thread_time() - t)
    # the emails the moves queued, sent as a worker's deliver task sends them (the relay's
    # work, not the reply's: beside it for scale), two by two
    sent = list(queued)
    emails_cpu = 0.0
    svc.states.clear()
    for k in range(0, len(sent), 2):
        t = time.thread_time()
        if profiler:
            profiler.enable()
        play.deliver(svc, sent[k:k + 2])
        if profiler:
            profiler.disable()
        emails_cpu += time.thread_time() - t
    svc.dispose()
    total = sum(web) + sum(worker)
    print(f"{n} replies applied; CPU per reply (ms), this thread's:")
    print(f"  web  (POST /inbound/raw): median {statistics.median(web) * 1000:.3f}, "
          f"mean {statistics.mean(web) * 1000:.3f}")
    print(f"  worker (process_inbound): median {statistics.median(worker) * 1000:.3f}, "
          f"mean {statistics.mean(worker) * 1000:.3f}")
    print(f"  in all: {total / n * 1000:.3f} (each part's own time, mean):")
    rest = {"web": ("web: Flask, the route, the response (the rest)", sum(web)),
            "worker": ("worker: the bench's own calls (the rest)", sum(worker))}
    for side, (label, spent) in rest.items():
        named = sum(v for k, v in parts.spent.items() if k.startswith(side))
        parts.spent[label] = spent - named
    for label, spent in sorted(parts.spent.items()):
        print(f"    {label:<52} {spent / n * 1000:7.3f}")
    print(f"  then the {len(sent)} emails the moves queued, sent as a worker's task sends "
          f"them: {emails_cpu / n * 1000:.3f} per reply")
    if profiler:
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("tottime").print_stats(profile)
        stats.sort_stats("cumulative").print_stats(profile * 2)
        print(out.getvalue())


def main() -> None:
    logging.disable(logging.INFO)      # the relay's line per batch sent
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pg-url", help="PostgreSQL (its tables are dropped) instead of SQLite")
    ap.add_argument("--redis-url", help="the broker, with --pg-url (flushed)")
    ap.add_argument("--replies", type=int, default=200)
    ap.add_argument("--warm", type=int, default=30)
    ap.add_argument("--profile", type=int, default=0, metavar="N",
                    help="also print cProfile's N top functions (the profiler slows the parts)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.pg_url:
            fresh_database(args.pg_url)
            redis_url = args.redis_url or "redis://127.0.0.1:6379/12"
            settings = service_env(args.pg_url, redis_url)
        else:
            # inline: no background thread (its idle sweeps would run beside the replies)
            settings = {"TURNPOST_DATABASE_URL": f"sqlite:///{tmp}/reply.db",
                        "TURNPOST_MAILDIR": f"{tmp}/outbox", "TURNPOST_BACKGROUND": "inline"}
            upgrade(settings["TURNPOST_DATABASE_URL"])
        settings["TURNPOST_INBOUND_SECRET"] = SECRET
        settings["TURNPOST_CHANCE"] = random.Random(4)
        measure(settings, args.replies, args.warm, args.profile)
        if args.pg_url:
            import redis
            redis.Redis.from_url(redis_url).flushdb()


if __name__ == "__main__":
    main()
