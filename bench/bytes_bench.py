"""`make bench-bytes`: where PostgreSQL's bytes go when players move. Prints; never asserts.

Trees and Suzerain games between people, on a 3-day clock, move in turn through the use cases
(play.submit as a move link makes it, play.accept_mail + process_inbound as a reply does; one
reply in four), at a correspondence pace on a manual clock with the clocks' pass run between
rounds, each move's emails sent at once to a Maildir as a worker would (pending -> sending ->
sent). A bare INSERT into a two-column table, once per move, is the floor.

The workload runs three times, each time in the database made anew (DROPPED AND RECREATED:
give it a scratch one), autovacuum off on every table so that nothing runs behind the
figures' backs:

- run 1, no vacuum: the growth over all the moves, with every dead row version left in place
  (what `make bench-scale` measures: autovacuum had not caught up); then a plain VACUUM at the
  end (it marks the dead versions' space free for reuse but gives little back to the disk, so
  the files stay nearly the size they grew to); then VACUUM FULL, the live rows alone.
- run 2, VACUUM every --vacuum-every moves, as autovacuum keeping up would: the dead versions'
  space is reused by the next moves' updates and inserts. Measured over the second half of
  the moves: what production grows by, give or take autovacuum's lag
  (autovacuum_vacuum_scale_factor: a table is vacuumed once a fifth of its rows are dead).
- run 3, the same with the daily prune (service.play.time.sweep.retention) before each VACUUM
  at a --retention-days retention (a day, where production keeps 90: the first half of the
  moves spans more than a day of the manual clock), so that the second half runs as a server
  that has run past its retention: the rows pruned make room for the new ones.

Each table's row is its heap, TOAST and free-space/visibility maps (pg_table_size); its
indexes follow it indented. Figures are KB per 1,000 moves.

    .venv/bin/python bench/bytes_bench.py --url postgresql+psycopg://postgres@127.0.0.1/h4
"""
from __future__ import annotations

import argparse
import logging
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import create_engine, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from service import play  # noqa: E402
from service.linking import freshness  # noqa: E402
from service.linking.signer import Claims  # noqa: E402
from service.play import repository  # noqa: E402
from service.play.clock import ManualClock  # noqa: E402
from service.store.migrate import upgrade  # noqa: E402
from service.web import create_app  # noqa: E402
from service.web.links import link_key  # noqa: E402

KINDS = ("trees", "suzerain")
PEOPLE = ["anna@example.org", "ben@example.org"]
T0 = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
FLOOR = "bench_floor"


@dataclass
class Sizes:
    """Bytes of each table (pg_table_size) and each index, by name; an index's table."""
    tables: dict[str, int] = field(default_factory=dict)
    indexes: dict[str, int] = field(default_factory=dict)
    index_table: dict[str, str] = field(default_factory=dict)

    def total(self) -> int:
        return sum(self.tables.values()) + sum(self.indexes.values())


def sizes(conn) -> Sizes:
    out = Sizes()
    for name, size in conn.execute(text(
            "SELECT c.relname, pg_table_size(c.oid) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = 'public' AND c.relkind = 'r'")):
        out.tables[name] = size
    for name, table, size in conn.execute(text(
            "SELECT i.relname, t.relname, pg_relation_size(i.oid) FROM pg_index x "
            "JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid "
            "JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = 'public'")):
        out.indexes[name], out.index_table[name] = size, table
    return out


def recreate(url: str) -> None:
    """The scratch database dropped, made again and migrated: every run starts from empty
    files."""
    target = make_url(url)
    admin = create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{target.database}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{target.database}"'))
    admin.dispose()
    upgrade(url)
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f"CREATE TABLE {FLOOR} (id serial PRIMARY KEY, at timestamp)"))
        for (table,) in conn.execute(text(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).all():
            conn.execute(text(f'ALTER TABLE "{table}" SET (autovacuum_enabled = false)'))
    engine.dispose()


class Players:
    """The games and their moves: each round, every game in progress moves once."""

    def __init__(self, svc, clock: ManualClock, seed: int):
        self.svc, self.clock, self.rng = svc, clock, random.Random(seed)
        self.games: list[int] = []
        self.moves = self.replies = 0

    def start(self, per_kind: int, idle: int) -> None:
        """`per_kind` games of each kind that will move, each followed by its share of `idle`
        games that never do: the moving games' rows sit on full pages among others, as in a
        database of many games (where an update finds no room on its page unless the table's
        fillfactor left some)."""
        for _ in range(per_kind):
            for kind in KINDS:
                self.games.append(play.start_game(self.svc, kind, PEOPLE, {"clock": "3d"}).game_id)
                for _ in range(idle // (per_kind * len(KINDS))):
                    play.start_game(self.svc, kind, PEOPLE, {})     # no clock: never due
                self.send()

    def round(self, floor) -> int:
        """One move in each game in progress (and a floor insert for each). Returns the moves
        made."""
        made = 0
        for game_id in list(self.games):
            self.clock.advance(minutes=self.rng.randint(1, 6))    # a round: ~1.5 h
            if not self.move(game_id):
                self.games.remove(game_id)
                continue
            with floor.begin() as conn:
                conn.execute(text(f"INSERT INTO {FLOOR} (at) VALUES (now())"))
            self.send()
            made += 1
        play.timers(self.svc)      # the clocks' pass: reminders and timeouts due, if any
        self.send()
        self.moves += made
        return made

    def move(self, game_id: int) -> bool:
        with self.svc.db.transaction() as s:
            pos = repository.load(s, self.svc.states, game_id)
            if pos.engine.outcome(pos.state) is not None or not pos.engine.to_act(pos.state):
                return False
            seat = min(pos.engine.to_act(pos.state))
            move = pos.engine.bots["easy"](pos.state, seat, self.rng)
            mark = freshness.mark(pos.engine, pos.state, seat)
        if self.rng.random() < 0.25:
            self.reply(game_id, seat, pos.engine.describe(move))
            return True
        token = self.svc.urls.signer.dumps("move", Claims(game_id, seat, mark, move))
        play.submit(self.svc, play.Intent(game_id, seat, moves=[move], expected=mark,
                                          source="link", key=link_key(token), whole_turn=True))
        return True

    def reply(self, game_id: int, seat: int, line: str) -> None:
        self.replies += 1
        mail = EmailMessage()
        mail["From"], mail["To"] = PEOPLE[seat], self.svc.urls.reply_address(game_id, seat)
        mail["Subject"] = "Re: your turn"
        mail["Message-ID"] = f"<bytes-{game_id}-{self.replies}@phone.example>"
        mail.set_content(line + "\n\nOn Sunday Turnpost wrote:\n> your turn\n")
        row_id, _ = play.accept_mail(self.svc, mail.as_bytes(), "bench")
        play.process_inbound(self.svc, row_id)

    def send(self) -> None:
        """Every email due, sent as a worker sends them (claimed, sent, marked sent)."""
        while play.deliver(self.svc, [], fill=True):
            pass


@dataclass
class Run:
    moves: int
    grown: Sizes             # after minus before, no vacuum
    vacuumed: Sizes | None = None   # after a plain VACUUM at the end, minus before
    live: Sizes | None = None       # after VACUUM FULL, minus before (VACUUM FULL'd too)
    hot: dict[str, tuple[int, int]] = field(default_factory=dict)   # table: (updates, HOT)


def vacuum(url: str, full: bool = False) -> None:
    """VACUUM; `full`: VACUUM FULL (the tables rewritten with their live rows alone), then a
    VACUUM for the free-space and visibility maps a plain one makes."""
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        if full:
            conn.execute(text("VACUUM FULL"))
        conn.execute(text("VACUUM"))
    engine.dispose()


def measure(url: str, tmp: Path, args, say, vacuum_every: int | None = None,
            prune_days: int | None = None) -> Run:
    """One run. Without `vacuum_every`: the growth over all the moves. With it: VACUUM every
    that many moves (and, with `prune_days`, the daily prune before each, at that retention),
    and the growth over the second half of the moves, once the first half has filled the
    retention: what a server that has run for a while grows by."""
    recreate(url)
    clock = ManualClock(T0)
    retention = {} if prune_days is None else {
        "TURNPOST_LINK_MAX_AGE_DAYS": prune_days, "TURNPOST_OUTBOX_RETENTION_DAYS": prune_days,
        "TURNPOST_RECEIPT_RETENTION_DAYS": prune_days, "TURNPOST_INBOUND_RETENTION_DAYS": prune_days}
    app = create_app({"TURNPOST_DATABASE_URL": url, "TURNPOST_MAILDIR": str(tmp / "outbox"),
                      "TURNPOST_MAIL_TRANSPORT": "maildir", "TURNPOST_CLOCK": clock,
                      "TURNPOST_CHANCE": random.Random(1), "TURNPOST_BACKGROUND": "inline",
                      "TURNPOST_SECRET_KEY": "bench-secret-long-enough-for-production",
                      "TURNPOST_BASE_URL": "http://t.test", "TURNPOST_MAIL_DOMAIN": "t.test",
                      **retention})
    svc = app.extensions["turnpost"]
    svc.enqueue = play.services.run_nothing
    floor = create_engine(url)
    people = Players(svc, clock, seed=2)
    people.start(args.games, args.idle)
    vacuum(url, full=True)          # the start's own writes compacted: the baseline

    def snapshot() -> tuple[int, Sizes, dict]:
        time.sleep(1.5)             # the backends' statistics reach pg_stat (hot_counts)
        with floor.connect() as conn:
            return people.moves, sizes(conn), hot_counts(conn)

    start = snapshot()
    window = args.moves // 2 if vacuum_every else 0
    since_vacuum = 0
    while people.moves < args.moves and people.games:
        since_vacuum += people.round(floor)
        if vacuum_every and since_vacuum >= vacuum_every:
            if prune_days is not None:
                play.prune(svc)     # what beat does daily; here more often, to the same effect
            vacuum(url)
            since_vacuum = 0
            if start[0] < window <= people.moves:
                start = snapshot()  # the second half's baseline
    if vacuum_every:
        vacuum(url)
    say(f"{people.moves:,} moves ({people.replies:,} by reply), "
        f"{len(people.games)} games still in progress; measured over the last "
        f"{people.moves - start[0]:,}")
    end = snapshot()
    run = Run(end[0] - start[0], minus(end[1], start[1]))
    run.hot = {t: (u - start[2].get(t, (0, 0))[0], h - start[2].get(t, (0, 0))[1])
               for t, (u, h) in end[2].items()}
    svc.dispose()
    if not vacuum_every:
        vacuum(url)
        with floor.connect() as conn:
            run.vacuumed = minus(sizes(conn), start[1])
        vacuum(url, full=True)
        with floor.connect() as conn:
            run.live = minus(sizes(conn), start[1])
    floor.dispose()
    return run


def hot_counts(conn) -> dict[str, tuple[int, int]]:
    return {t: (u, h) for t, u, h in conn.execute(text(
        "SELECT relname, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables"))}


def minus(after: Sizes, before: Sizes) -> Sizes:
    return Sizes({k: v - before.tables.get(k, 0) for k, v in after.tables.items()},
                 {k: v - before.indexes.get(k, 0) for k, v in after.indexes.items()},
                 after.index_table)


def table(first: Run, second: Run, third: Run | None, every: int, days: int) -> str:
    runs = [first, first, first, second] + ([third] if third else [])
    per = [1_000 / 1024 / max(1, r.moves) for r in runs]
    columns = [first.grown, first.vacuumed, first.live, second.grown] + (
        [third.grown] if third else [])
    head = ("relation (KB per 1,000 moves)", "no vacuum", "VACUUM at end", "live (FULL)",
            f"VACUUM every {every}") + ((f"+ prune at {days} d",) if third else ()) \
        + ("updates (HOT %)",)
    rows = []

    def cells(pick) -> list[str]:
        return [f"{pick(c) * p:,.0f}" for c, p in zip(columns, per)]

    def upd(name: str) -> str:
        u, h = first.hot.get(name, (0, 0))
        return f"{u:,} ({100 * h / u:.0f}%)" if u else "-"

    names = sorted((t for t in first.grown.tables if t != FLOOR),
                   key=lambda t: -(first.grown.tables[t] + sum(
                       v for i, v in first.grown.indexes.items()
                       if first.grown.index_table[i] == t)))
    for name in names:
        idx = sorted(i for i, t in first.grown.index_table.items() if t == name)
        if not any(c.tables.get(name) or any(c.indexes.get(i) for i in idx) for c in columns) \
                and not first.hot.get(name, (0, 0))[0]:
            continue
        rows.append((name, *cells(lambda c, n=name: c.tables.get(n, 0)), upd(name)))
        for i in idx:
            if any(c.indexes.get(i) for c in columns):
                rows.append((f"  {i}", *cells(lambda c, n=i: c.indexes.get(n, 0)), ""))
    rows.append(("all tables and indexes",
                 *cells(lambda c: c.total() - c.tables.get(FLOOR, 0)
                        - sum(v for i, v in c.indexes.items() if c.index_table[i] == FLOOR)),
                 ""))
    rows.append(("floor: a bare INSERT per move",
                 *cells(lambda c: c.tables.get(FLOOR, 0) + sum(
                     v for i, v in c.indexes.items() if c.index_table[i] == FLOOR)), ""))
    widths = [max(len(r[k]) for r in [head, *rows]) for k in range(len(head))]
    lines = ["  ".join(c.ljust(w) if k == 0 else c.rjust(w)
                       for k, (c, w) in enumerate(zip(r, widths))) for r in [head, *rows]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", default=os.environ.get(
        "TURNPOST_BYTES_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/turnpost_bytes"),
        help="a scratch PostgreSQL database: DROPPED and recreated")
    ap.add_argument("--games", type=int, default=12, help="games of each kind")
    ap.add_argument("--idle", type=int, default=300, help="games started that never move")
    ap.add_argument("--moves", type=int, default=1_200, help="moves to make (at least)")
    ap.add_argument("--vacuum-every", type=int, default=100)
    ap.add_argument("--retention-days", type=int, default=1,
                    help="run 3's retention (links' life, outbox rows, receipts, replies)")
    args = ap.parse_args()
    logging.disable(logging.INFO)   # a line per email sent otherwise

    def say(msg: str) -> None:
        print(f"bytes bench: {msg}", flush=True)

    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        say("run 1: no vacuum until the end")
        first = measure(args.url, Path(tmp) / "1", args, say)
        say(f"run 2: VACUUM every {args.vacuum_every} moves")
        second = measure(args.url, Path(tmp) / "2", args, say, args.vacuum_every)
        third = None
        if hasattr(play, "prune"):
            say(f"run 3: the same, and the prune at a {args.retention_days}-day retention")
            third = measure(args.url, Path(tmp) / "3", args, say, args.vacuum_every,
                            args.retention_days)
    print()
    print(table(first, second, third, args.vacuum_every, args.retention_days))
    load = "load average {:.1f} {:.1f} {:.1f}".format(*os.getloadavg())
    print(f"\n{time.perf_counter() - started:.0f} s; {load}.\n"
          "Run 1 (all its moves): 'no vacuum', the growth with every dead row version kept "
          "(autovacuum behind); 'VACUUM at end', the same files after a plain VACUUM (space "
          "marked free for reuse, not given back); 'live (FULL)', the live rows alone. Runs 2 "
          "and 3 (the second half of their moves): 'VACUUM every N', the growth with "
          "autovacuum keeping up, what production sees; '+ prune', and with outbox rows and "
          "receipts and replies deleted past their retention, what production sees once it has run "
          "longer than the retention. Updates: run 1's row updates and the share that were "
          "HOT (no index touched, room on the page).")


if __name__ == "__main__":
    main()
