"""The seeded database: players, games in progress, finished games, written with COPY into the
migrated schema (bench/scale/templates.py makes the rows) in chunks of 5,000 games, two
connections copying at once (this machine's two cores: the server parses and stores while
this process joins the next rows). Each chunk is one transaction that also records the chunk:
a seed cut short (its time budget, a full disk, Ctrl-C) goes on with the chunks missing next
time; a finished one is reused as it stands.

The logs, snapshots and receipts go as binary COPY made once per template
(bench/scale/binary.py); the indexes of the tables a game fills are dropped while the chunks
go in and built once they are (bench/scale/indexes.py), at the end of every seeding run, so
the database between runs, partial or complete, has `flask init-db`'s schema exactly.

Game ids 1..IN_PROGRESS are the games in progress, the rest are finished. HEAVY players sit at
1,000 games each: 100 of the games in progress and 900 of the first finished ones, so they
have their thousand as soon as that many finished games are in. What the finished games leave
out: their idempotency receipts and their outbox rows (bookkeeping a server may prune once a
game ends); the games in progress have all of theirs."""
from __future__ import annotations

import queue
import random
import shutil
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

import psycopg
from pg_bench import create_database
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from service.store.migrate import upgrade
from service.store.models import Base

from . import binary, indexes
from . import templates as tpl

GAMES, PLAYERS, IN_PROGRESS, HEAVY = 1_000_000, 200_000, 100_000, 100
HEAVY_ACTIVE, HEAVY_FINISHED = 100, 900
CHUNK = 5_000
#: connections copying chunks at once (one server process each: this machine has 2 cores)
LOADERS = 2
#: the seed stops (resumably) when the disk holding the database has less than this free
MIN_FREE_BYTES = 25 * 2**30
META = "bench_scale_meta"
CHUNKS = "bench_scale_chunks"     # the chunks in: first and last game id, rows


@dataclass
class Progress:
    players: int = 0
    done: int = 0                   # games in (chunks are copied in the order of their ids)
    seeded_at: datetime | None = None   # the instant the seats' clocks were set for
    seconds: float = 0.0            # spent seeding games and their indexes, over every run
    rows: int = 0                   # rows copied for games, over every run
    bytes: int = 0                  # database size after the last chunk

    @property
    def complete(self) -> bool:
        return self.done >= GAMES


def libpq(url: str) -> str:
    """SQLAlchemy's URL as psycopg's connection string."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def read_progress(conn) -> Progress | None:
    found = conn.execute("SELECT to_regclass(%s)", (META,)).fetchone()[0]
    if found is None:
        return None
    values = dict(conn.execute(f"SELECT key, value FROM {META}").fetchall())
    done, rows = int(values.get("done", 0)), int(values.get("rows", 0))
    if conn.execute("SELECT to_regclass(%s)", (CHUNKS,)).fetchone()[0] is not None:
        done, rows = conn.execute(f"SELECT coalesce(sum(last - first + 1), 0), "
                                  f"coalesce(sum(rows), 0) FROM {CHUNKS}").fetchone()
    elif done < GAMES:
        return None         # a partial seed of the earlier layout: seeded again
    return Progress(int(values.get("players", 0)), int(done),
                    datetime.fromisoformat(values["seeded_at"]) if "seeded_at" in values
                    else None, float(values.get("seconds", 0)), int(rows),
                    int(values.get("bytes", 0)))


def write_progress(conn, p: Progress) -> None:
    for key, value in (("players", p.players), ("done", p.done), ("seconds", p.seconds),
                       ("rows", p.rows), ("bytes", p.bytes),
                       ("seeded_at", p.seeded_at.isoformat() if p.seeded_at else None)):
        conn.execute(f"INSERT INTO {META} VALUES (%s, %s) ON CONFLICT (key) DO UPDATE "
                     "SET value = EXCLUDED.value", (key, str(value)))


def fresh(url: str) -> None:
    """Empty tables at the latest schema, and the seed's own bookkeeping tables."""
    engine = create_engine(url)
    with engine.begin() as conn:
        Base.metadata.drop_all(conn)
        conn.execute(text(f"DROP TABLE IF EXISTS alembic_version, bench_floor, {META}, "
                          f"{CHUNKS}"))
        conn.execute(text(f"CREATE TABLE {META} (key text PRIMARY KEY, value text)"))
        conn.execute(text(f"CREATE TABLE {CHUNKS} (first int PRIMARY KEY, last int, "
                          "rows bigint)"))
    engine.dispose()
    upgrade(url)


def address(player: int) -> str:
    return f"p{player}@example.org"


def seed_players(conn, n: int) -> None:
    created = datetime(2025, 6, 1)
    with conn.cursor().copy("COPY players (id, email, name, created_at, handle) FROM STDIN") as cp:
        for p in range(1, n + 1):
            cp.write(f"{p}\t{address(p)}\tPlayer {p}\t{created.isoformat(' ')}\tplayer-{p}\n")
    conn.execute("SELECT setval('players_id_seq', %s)", (n,))


class Chooser:
    """Which template and which players each game id gets (the same every run)."""

    def __init__(self, templates: list[tpl.Template]):
        self.pools = {(kind, finished): [t for t in templates
                                         if t.kind == kind and t.finished == finished]
                      for kind in tpl.KINDS for finished in (True, False)}
        self.kinds, self.weights = list(tpl.KINDS), list(tpl.KINDS.values())

    def game(self, gid: int) -> tuple[tpl.Template, tuple[int, int], random.Random]:
        rng = random.Random(gid)
        kind = rng.choices(self.kinds, self.weights)[0]
        template = rng.choice(self.pools[kind, gid > IN_PROGRESS])
        return template, players_of(gid, rng), rng


def players_of(gid: int, rng: random.Random) -> tuple[int, int]:
    heavy = (gid <= HEAVY * HEAVY_ACTIVE
             or IN_PROGRESS < gid <= IN_PROGRESS + HEAVY * HEAVY_FINISHED)
    first = (gid - 1) % HEAVY + 1 if heavy else rng.randint(HEAVY + 1, PLAYERS)
    second = first
    while second == first:
        second = rng.randint(HEAVY + 1, PLAYERS)
    return first, second


def seat_lines(template: tpl.Template, gid: int, players: tuple[int, int], shift: timedelta
               ) -> str:
    out = []
    for seat in template.seats:
        values = dict(seat, game_id=gid, player_id=players[seat["seat"]])
        if shift:
            values["clock"] = tpl.shift_clock(seat["clock"], shift)
            for key in ("deadline", "remind_at", "mail_held_since"):
                if values[key] is not None:
                    values[key] = values[key] + shift
        out.append(tpl.line(values[c] for c in tpl.SEAT_COLUMNS))
    return "".join(out)


def clock_shift(template: tpl.Template, gid: int, seeded_at: datetime) -> timedelta:
    """A game in progress has its next deadline 20 to 72 hours after the seed (`spread`);
    a finished one keeps its template's times."""
    deadlines = [s["deadline"] for s in template.seats if s["deadline"] is not None]
    if template.finished or not deadlines:
        return timedelta(0)
    return spread(gid, seeded_at) - min(deadlines)


#: the tables copied in binary (bench/scale/binary.py), and those copied as text (their rows
#: differ between copies in more than the game id: addresses, clocks)
BINARY = (("events", tpl.EVENT_COLUMNS), ("snapshots", tpl.SNAPSHOT_COLUMNS),
          ("submissions", tpl.SUBMISSION_COLUMNS))


class Blocks:
    """Each template's binary rows for the BINARY tables, made once per run."""

    def __init__(self, conn, templates: list[tpl.Template]):
        self.index = {id(t): n for n, t in enumerate(templates)}
        self.pieces = {table: binary.pieces(conn, table, columns,
                                            [t.blocks.get(table, b"") for t in templates])
                       for table, columns in BINARY}
        self.rows = {table: [len(p) - 1 for p in parts] for table, parts in self.pieces.items()}
        conn.commit()


def seed_chunk(conn, chooser: Chooser, blocks: Blocks, first: int, last: int,
               seeded_at: datetime) -> int:
    """Games first..last with their seats, logs, snapshots, receipts and outbox rows; the
    number of rows written."""
    games = [(gid, *chooser.game(gid)) for gid in range(first, last + 1)]
    cur, rows = conn.cursor(), 0
    with cur.copy(f"COPY games ({', '.join(tpl.GAME_COLUMNS)}) FROM STDIN") as cp:
        for gid, template, _, _ in games:
            cp.write(template.game.replace(b"@G@", str(gid).encode()))
    with cur.copy(f"COPY seats ({', '.join(tpl.SEAT_COLUMNS)}) FROM STDIN") as cp:
        for gid, template, players, _ in games:
            cp.write(seat_lines(template, gid, players, clock_shift(template, gid, seeded_at)))
            rows += 1 + len(template.seats)
    for table, columns in BINARY:
        pieces, counts = blocks.pieces[table], blocks.rows[table]
        with cur.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN (FORMAT binary)") as cp:
            cp.write(binary.HEADER)
            for gid, template, _, _ in games:
                n = blocks.index[id(template)]
                if counts[n]:
                    cp.write(binary.game_id(gid).join(pieces[n]))
                    rows += counts[n]
            cp.write(binary.TRAILER)
    with cur.copy(f"COPY outbox ({', '.join(tpl.OUTBOX_COLUMNS)}) FROM STDIN") as cp:
        for gid, template, players, _ in games:
            block = template.blocks.get("outbox")
            if not block:
                continue
            block = block.replace(b"@G@", str(gid).encode())
            for seat, player in enumerate(players):
                block = block.replace(f"@A{seat}@".encode(), address(player).encode())
            cp.write(block)
            rows += block.count(b"\n")
    return rows


def disk_free(conn) -> int:
    where = conn.execute("SHOW data_directory").fetchone()[0]
    try:
        return shutil.disk_usage(where).free
    except OSError:
        return shutil.disk_usage("/").free


def chunks() -> list[tuple[int, int]]:
    """The seed's chunks of game ids (none straddling the last game in progress)."""
    out, first = [], 1
    while first <= GAMES:
        last = min(GAMES, first + CHUNK - 1, *([IN_PROGRESS] if first <= IN_PROGRESS else []))
        out.append((first, last))
        first = last + 1
    return out


def session(conn) -> None:
    # the rows are consistent by construction: no foreign-key triggers, no waiting for the
    # WAL's flush at each commit (this session only)
    conn.execute("SET session_replication_role = replica")
    conn.execute("SET synchronous_commit = off")


def ensure(url: str, *, reseed: bool = False, budget: float = 1200.0,
           cache: Path | None = None, say=print) -> Progress:
    """Seed what is missing, for at most `budget` seconds of game chunks, then build the
    indexes the chunks went without."""
    create_database(url)
    with psycopg.connect(libpq(url), autocommit=True) as conn:
        progress = None if reseed else read_progress(conn)
    if progress is None:
        say("scale seed: a fresh database (migrations, then COPY)")
        fresh(url)
        progress = Progress(seeded_at=datetime.now(timezone.utc).replace(microsecond=0))
    # a kept seed made before the latest migrations is brought up to them (the service
    # reads the new columns)
    upgrade(url)
    started, seeded_before = time.perf_counter(), progress.done
    with psycopg.connect(libpq(url)) as conn:
        deferred = deferred_indexes(conn)
        if not progress.complete:
            seed_games(url, conn, progress, deferred, budget, cache, say)
        built = indexes.missing(conn, deferred)
        if built:
            indexes.build(conn, built, say)
        if progress.done > seeded_before or built:
            progress.seconds += time.perf_counter() - started
            progress.bytes = conn.execute("SELECT pg_database_size(current_database())"
                                          ).fetchone()[0]
            write_progress(conn, progress)
            conn.commit()
    if progress.done > seeded_before:
        with psycopg.connect(libpq(url), autocommit=True) as conn:
            conn.execute("ANALYZE")     # the planner's statistics of the rows just copied
    return progress


def deferred_indexes(conn) -> list[list[str]]:
    """The indexes built after the rows (bench/scale/indexes.py), read from the schema the
    first time and kept in the seed's table from then on."""
    kept = conn.execute(f"SELECT value FROM {META} WHERE key = 'deferred'").fetchone()
    if kept:
        return indexes.load(kept[0])
    defs = indexes.definitions(conn)
    conn.execute(f"INSERT INTO {META} VALUES ('deferred', %s)", (indexes.dump(defs),))
    conn.commit()
    return defs


def seed_games(url: str, conn, progress: Progress, deferred: list[list[str]], budget: float,
               cache: Path | None, say) -> None:
    """The players, then the chunks not yet in, LOADERS at a time, each chunk one transaction
    that records it; the deferred indexes dropped for the while."""
    templates = tpl.load_or_build(cache or Path("var/scale-templates.pickle"), say=say)
    chooser, blocks = Chooser(templates), Blocks(conn, templates)
    session(conn)
    indexes.drop(conn, deferred)
    if progress.players < PLAYERS:
        t0 = time.perf_counter()
        seed_players(conn, PLAYERS)
        progress.players = PLAYERS
        write_progress(conn, progress)
        say(f"scale seed: {PLAYERS:,} players in {time.perf_counter() - t0:.1f} s")
    conn.commit()
    done = {first for first, in conn.execute(f"SELECT first FROM {CHUNKS}").fetchall()}
    todo = queue.SimpleQueue()
    for first, last in chunks():
        if first not in done:
            todo.put((first, last))
    stop_at, stop, lock = time.monotonic() + budget, threading.Event(), threading.Lock()
    failed: list[BaseException] = []
    t0, done_before = time.perf_counter(), progress.done

    def loader() -> None:
        try:
            with psycopg.connect(libpq(url)) as mine:
                session(mine)
                while not stop.is_set() and time.monotonic() < stop_at:
                    try:
                        first, last = todo.get_nowait()
                    except queue.Empty:
                        return
                    if disk_free(mine) < MIN_FREE_BYTES:
                        say("scale seed: stopped, less than 25 GB left on the database's disk")
                        stop.set()
                        return
                    rows = seed_chunk(mine, chooser, blocks, first, last, progress.seeded_at)
                    mine.execute(f"INSERT INTO {CHUNKS} VALUES (%s, %s, %s)",
                                 (first, last, rows))
                    mine.commit()
                    with lock:
                        progress.done += last - first + 1
                        progress.rows += rows
                        rate = (progress.done - done_before) / (time.perf_counter() - t0)
                        say(f"scale seed: games {first:,} to {last:,} ({rows:,} rows; "
                            f"{progress.done:,} games in, {rate:,.0f} games/s this run)")
        except BaseException as e:  # noqa: BLE001 - handed to the main thread
            failed.append(e)
            stop.set()

    threads = [threading.Thread(target=loader, name=f"loader-{n}") for n in range(LOADERS)]
    for t in threads:
        t.start()
    try:
        for t in threads:
            t.join()
    except KeyboardInterrupt:
        stop.set()          # each loader ends its chunk (committed or not) and stops
        for t in threads:
            t.join()
        raise
    if failed:
        raise failed[0]
    conn.execute("SELECT setval('games_id_seq', (SELECT coalesce(max(id), 1) FROM games))")
    conn.commit()


def spread(game_id: int, now: datetime) -> datetime:
    """Where a game in progress has its next deadline: 20 to 72 hours ahead (a 3-day clock's
    reminder comes 18 hours before it), the same for a game at every run."""
    return now + timedelta(hours=20, minutes=game_id * 7919 % (52 * 60))


def rebase(url: str, say=print) -> None:
    """The games in progress as if their last moves were just made: each game's seat clocks
    moved so that its next deadline falls 20 to 72 hours from now (`spread`), so a bench
    finds no deadline or reminder due but those it makes due itself."""
    now = datetime.now(timezone.utc).replace(microsecond=0, tzinfo=None)
    t0 = time.perf_counter()
    with psycopg.connect(libpq(url)) as conn:
        moved = shift_seats(conn, "game_id <= %s", (IN_PROGRESS,),
                            lambda game_id, earliest: spread(game_id, now) - earliest)
        # an earlier run's emails still unsent are not this run's to send
        conn.execute("UPDATE outbox SET status = 'skipped' "
                     "WHERE status IN ('pending', 'sending', 'held')")
        conn.commit()
    with psycopg.connect(libpq(url), autocommit=True) as conn:
        # the dead row versions these updates (and the last run's moves) left, cleared and
        # the visibility map set, as autovacuum keeps a production server's tables: a
        # server that runs with autovacuum off (this machine's test PostgreSQL does) would
        # otherwise read every seat's heap page where an index-only scan serves (/me: a
        # thousand seats of one player), after a million seat updates a run
        conn.execute("VACUUM (ANALYZE) seats, games, outbox")
    say(f"scale seed: {moved:,} seats' clocks set 20 to 72 hours from their deadlines, "
        f"then vacuumed, in {time.perf_counter() - t0:.1f} s")


def shift_seats(conn, where: str, params: tuple, shift_for) -> int:
    """Move the clocks (their JSON, deadline and reminder) of the seats matching `where` that
    have a deadline, each game's by shift_for(game id, its earliest deadline)."""
    rows = conn.execute(f"SELECT game_id, seat, clock, deadline FROM seats WHERE {where} "
                        "AND deadline IS NOT NULL ORDER BY game_id", params).fetchall()
    earliest: dict[int, datetime] = {}
    for game_id, _, _, deadline in rows:
        earliest[game_id] = min(deadline, earliest.get(game_id, deadline))
    conn.execute("CREATE TEMP TABLE shifted (game_id int, seat int, clock json, "
                 "shift interval) ON COMMIT DROP")
    with conn.cursor().copy("COPY shifted FROM STDIN") as cp:
        for game_id, seat, clock, _ in rows:
            shift = shift_for(game_id, earliest[game_id])
            cp.write_row((game_id, seat, tpl.json.dumps(tpl.shift_clock(clock, shift)), shift))
    conn.execute("UPDATE seats s SET clock = x.clock, deadline = s.deadline + x.shift, "
                 "remind_at = s.remind_at + x.shift FROM shifted x "
                 "WHERE s.game_id = x.game_id AND s.seat = x.seat")
    return len(rows)
