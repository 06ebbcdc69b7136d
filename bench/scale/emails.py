"""A turn email's CPU time in the relay on `make bench-scale`'s seed, in process: games in the
middle of play, of all four kinds, where bench/email_cpu.py's are the first move of a Trees
game (which cost about two thirds as much). For finding what a real email costs and comparing
two versions of rendering on a busy machine.

    .venv/bin/python bench/scale/emails.py [--url postgresql+psycopg://.../turnpost_scale]
                                           [--emails 2000] [--games 95000-99999]

Turn emails for the seats of the games in the range are queued as the fan-out queues them
(held, due in the far future), loaded ten at a time, composed and flattened as the relay
does, then deleted: the seed is left as it was. Prints, per game kind, the median and 90th
percentile of an email's CPU (this thread's: load, compose, flatten), then the mean of each
part's own time across all of them (bench/reply_cpu.py's Parts)."""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import defaultdict
from email.message import MIMEPart
from pathlib import Path

import jinja2
from sqlalchemy import delete, select

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE.parents[1])]

from pg_bench import service_env  # noqa: E402
from reply_cpu import Parts  # noqa: E402

from scale import work  # noqa: E402
from service.display import boardpicture  # noqa: E402
from service.mailwire.outbound import compose, htmllines, pipelining  # noqa: E402
from service.play.mail import relay  # noqa: E402
from service.store.models import GameRow, OutboxRow  # noqa: E402
from service.web import create_app  # noqa: E402

GROUP = relay.GROUP


class _Inliner:
    """css_inline's inliner takes no attribute of ours: its `inline`, timed through this."""

    def __init__(self, real) -> None:
        self.inline = real.inline


def instrument(parts: Parts) -> None:
    parts.wrap(jinja2.Template, "render", lambda a: f"template {a[0].name}")
    parts.wrap(compose, "picture", "the table picture: rows, layout, alt text")
    parts.wrap(boardpicture, "board_image", "the table picture: drawn")
    parts.wrap(boardpicture, "encode_png", "the table picture: PNG encoded")
    parts.wrap(htmllines, "fold", "HTML lines folded")
    parts.wrap(pipelining, "flatten", "flattened (the bytes SMTP carries)")
    for name in ("set_content", "add_alternative", "make_related", "__setitem__"):
        parts.wrap(MIMEPart, name, "the email package: headers and parts")
    compose._inliner = _Inliner(compose._inliner)
    parts.wrap(compose._inliner, "inline", "CSS inlined")


def measure(url: str, redis_url: str, lo: int, hi: int, n: int) -> None:
    app = create_app(service_env(url, redis_url))
    svc = app.extensions["turnpost"]
    relay.prepare_to_render(svc)            # as a worker does before it forks
    with svc.db.transaction() as s:
        kinds = dict(s.execute(select(GameRow.id, GameRow.kind)
                               .where(GameRow.id.between(lo, hi))).all())
    ids = sorted(work.queue_fanout(svc, lo, hi, n).values())
    parts = Parts()
    by_kind: dict[str, list[float]] = defaultdict(list)
    try:
        with svc.db.transaction() as s:
            game_of = dict(s.execute(select(OutboxRow.id, OutboxRow.game_id)
                                     .where(OutboxRow.id.in_(ids))).all())
        sending = relay._Sending(svc, "scale-emails", probe=False)
        warm = ids[:GROUP * 2]                    # the first groups warm the process
        for k in range(0, len(ids), GROUP):
            if k == len(warm):
                instrument(parts)
            group = ids[k:k + GROUP]
            t0 = time.thread_time()
            drafts = sending._load(group)
            load = (time.thread_time() - t0) / len(group)
            if k >= len(warm):
                parts.spent["loaded (rows, games, news, desks)"] += load * len(group)
            for row_id in group:
                t0 = time.thread_time()
                pipelining.flatten(drafts[row_id][0]())
                if k >= len(warm):
                    by_kind[kinds[game_of[row_id]]].append(
                        (time.thread_time() - t0 + load) * 1000)
    finally:
        with svc.db.transaction() as s:
            s.execute(delete(OutboxRow).where(OutboxRow.id.in_(ids)))
        svc.dispose()
    every = [ms for values in by_kind.values() for ms in values]
    print(f"CPU ms per turn email (load, compose, flatten), {len(every)} emails of games "
          f"{lo}-{hi}:")
    for kind, values in sorted(by_kind.items()):
        values.sort()
        print(f"  {kind:12s} {len(values):5d} emails  median {statistics.median(values):6.2f}"
              f"  p90 {values[int(len(values) * 0.9)]:6.2f}")
    print(f"  {'all':12s} {len(every):5d} emails  mean   {statistics.mean(every):6.2f}")
    print("of which, mean per email (each part's own time; a template's includes are in its "
          "own):")
    for name, seconds in sorted(parts.spent.items(), key=lambda item: -item[1]):
        print(f"  {name:45s} {seconds / len(every) * 1000:6.2f}")


def seed_options(doc: str, games: str, emails: int) -> tuple[str, str, int, int, int]:
    """The command line of a script that works on the bench-scale seed in process: the
    seed's URL, a Redis URL, the range of game ids and the number of emails."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--url", default=os.environ.get(
        "TURNPOST_SCALE_DATABASE_URL",
        "postgresql+psycopg://postgres@127.0.0.1:5432/turnpost_scale"),
        help="the bench-scale seed (rows are added, then deleted)")
    ap.add_argument("--redis-url", default=os.environ.get("TURNPOST_SCALE_REDIS_URL",
                                                          "redis://127.0.0.1:6379/14"))
    ap.add_argument("--games", default=games,
                    help="a range of game ids in progress, above 10,000 (those below are the "
                         "heavy players', /me's)")
    ap.add_argument("--emails", type=int, default=emails)
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.games.split("-"))
    return args.url, args.redis_url, lo, hi, args.emails


def main() -> None:
    measure(*seed_options(__doc__, "95000-99999", 2000))


if __name__ == "__main__":
    main()
