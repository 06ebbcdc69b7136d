"""The clock sweep's cost: one pass over 100,000 games of which 1,000 are due, in database
statements and time, as a ratio to one move request (the same link POST a player makes,
measured just before each pass in the same run). SQLite, or PostgreSQL with `--url`; figures
only, never asserted.

    .venv/bin/python bench/sweep_bench.py [--games 100000] [--due 1000] [--passes 5]
                                          [--per-game] [--url postgresql+psycopg://...]
                                          [--cpu]

The 1,000 due games are real Trees games on a 1-day clock; the other 99,000 are idle rows (a
game and two seats each, one bulk insert) whose deadlines lie weeks ahead: the sweep must find
the due seats by the deadline index without touching them. Each pass first sends the 1,000
reminders (a quarter of the day before the deadline), then, past the deadline, plays the 1,000
timeout moves; the next pass does the same for the seats now to act. The state cache is
emptied before each pass, as in a sweeper that has not seen these games; what the set-up
left is frozen out of the garbage collector's sight, as the worker does with its app.
Beside each pass's time it measures two parts no rewrite of the sweep's own code could remove:
the time spent inside the database driver's own calls (its statements run, rows stepped or
fetched, commits; on PostgreSQL the round trips to the server: a cursor
that times them), and the engines' own work for the same timeouts (each due game's log folded
from where the pass starts it, and its timeout move chosen, decided and folded), done alone
just before the pass on the same games. Their sum, as a ratio to a move, is the floor under
the 20x target (docs/performance.md): what is left above it is the sweep's own code (SQLAlchemy, JSON, clocks).
`make bench` prints the median of the passes with their spread (bench/bench.py);
`--per-game` adds one pass on
the per-game path a batch falls back to, for comparison. `--url` runs on that database
instead of a temporary SQLite file: its tables are DROPPED and recreated."""
from __future__ import annotations

import argparse
import gc
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import create_engine, event, func, insert, select, text  # noqa: E402

from service import play  # noqa: E402
from service.games import registry  # noqa: E402
from service.linking import freshness  # noqa: E402
from service.linking.signer import Claims  # noqa: E402
from service.play import repository  # noqa: E402
from service.play.clock import ManualClock  # noqa: E402
from service.play.time.sweep import timeouts  # noqa: E402
from service.store import eventstore, snapshots  # noqa: E402
from service.store.migrate import upgrade  # noqa: E402
from service.store.models import Base, GameRow, Player, Seat  # noqa: E402
from service.web import create_app  # noqa: E402

T0 = datetime(2026, 11, 24, 9, 0, tzinfo=timezone.utc)
MOVES = 30          # move requests timed before each pass
# every time read here: the wall clock, or with --cpu the process's CPU time (which a loaded
# machine's preemption does not inflate; a pass's wall clock there swings 3x pass to pass)
clock_now = time.perf_counter


class Collector:
    """Time spent in the garbage collector (a share of every pass's time, larger the more
    the process holds)."""

    def __init__(self):
        self.seconds, self._started = 0.0, None
        gc.callbacks.append(self._seen)

    def _seen(self, phase, _info):
        if phase == "start":
            self._started = clock_now()
        elif self._started is not None:
            self.seconds += clock_now() - self._started

    def close(self):
        gc.callbacks.remove(self._seen)


class DriverClock:
    """Seconds spent inside the database driver's own calls: a statement run (on PostgreSQL
    its round trip to the server), rows fetched, a commit. Connections made after `attach`
    use a cursor that times each call (a function call more per fetch: the pass's time rises
    by well under 1%). sqlite3 on SQLite, psycopg on PostgreSQL."""

    def __init__(self):
        self.seconds = 0.0
        clock = self

        def timed(real):
            def call(self, *args, **kwargs):
                t = clock_now()
                try:
                    return real(self, *args, **kwargs)
                finally:
                    clock.seconds += clock_now() - t
            return call
        self._timed = timed

        class Cursor(sqlite3.Cursor):
            execute = timed(sqlite3.Cursor.execute)
            executemany = timed(sqlite3.Cursor.executemany)
            fetchone = timed(sqlite3.Cursor.fetchone)
            fetchmany = timed(sqlite3.Cursor.fetchmany)
            fetchall = timed(sqlite3.Cursor.fetchall)

        class Connection(sqlite3.Connection):
            commit = timed(sqlite3.Connection.commit)
            rollback = timed(sqlite3.Connection.rollback)

            def cursor(self, factory=Cursor):
                return super().cursor(factory)

        self.connection = Connection

    def _psycopg(self):
        import psycopg
        timed = self._timed

        class Cursor(psycopg.Cursor):
            execute = timed(psycopg.Cursor.execute)
            executemany = timed(psycopg.Cursor.executemany)
            fetchone = timed(psycopg.Cursor.fetchone)
            fetchmany = timed(psycopg.Cursor.fetchmany)
            fetchall = timed(psycopg.Cursor.fetchall)

        class Connection(psycopg.Connection):
            commit = timed(psycopg.Connection.commit)
            rollback = timed(psycopg.Connection.rollback)

        return Connection, Cursor

    def attach(self, engine) -> None:
        """Time the engine's connections from now on (the pooled ones are closed)."""
        if engine.dialect.name == "sqlite":
            event.listen(engine, "do_connect",
                         lambda _dialect, _record, _cargs, params: params.update(
                             factory=self.connection))
        elif engine.dialect.driver == "psycopg":
            connection, cursor = self._psycopg()
            event.listen(engine, "do_connect",
                         lambda _dialect, _record, cargs, params: connection.connect(
                             *cargs, **params, cursor_factory=cursor))
        else:
            return
        engine.dispose()


def engines_alone(svc, now: datetime, rng: random.Random) -> float:
    """The engines' own work for the seats due at `now`, by itself: each game's log folded
    from where the sweep's batch starts it (its newest snapshot when more than a snapshot's
    worth of events lie behind, as timeouts_batch.Batch finds it), then its timeout moves
    (timeouts.play_timeout_moves, writing nowhere). Seconds; the reading is not timed."""
    with svc.db.transaction() as s:
        due = s.execute(select(Seat.game_id, Seat.seat).where(Seat.deadline <= now)).all()
        games = {g.id: g for g in s.scalars(select(GameRow).where(
            GameRow.id.in_({game_id for game_id, _ in due})))}
        far = {g.id: (repository.snapshot_format(g), 0, g.seq) for g in games.values()
               if g.seq > repository.SNAPSHOT_EVERY}
        based = snapshots.latest_many(s, far)
        logs = eventstore.load_many(s, {g.id: (g, based.get(g.id, (0, None))[0])
                                         for g in games.values()})
    chance, svc.chance = svc.chance, rng
    spent = 0.0
    try:
        for game_id, seat in due:
            game = games[game_id]
            engine = registry.get(game.kind)
            t = clock_now()
            seq, state = based.get(game_id, (0, None))
            recorded = logs.get(game_id, [])
            for _, ev in recorded:
                state = engine.evolve(state, ev)
            seq = recorded[-1][0] if recorded else seq
            timeouts.play_timeout_moves(Nowhere(), svc, repository.Position(game, engine, state,
                                                                           seq),
                                        seat, "bench", now, why="bot")
            spent += clock_now() - t
    finally:
        svc.chance = chance
    return spent


class Nowhere:
    """A timeout's writes, dropped (timeouts.Out)."""

    def __getattr__(self, _name):
        return lambda *args, **kwargs: None


class Counter:
    def __init__(self, engine):
        self.n = 0
        event.listen(engine, "before_cursor_execute", self._count)

    def _count(self, *_args):
        self.n += 1


@dataclass
class Pass:
    timeouts: int
    statements: int
    seconds: float
    reminders: int
    reminder_statements: int
    reminder_seconds: float
    move_statements: float      # one move request, just before this pass
    move_seconds: float
    gc_seconds: float = 0.0     # of `seconds`, in the garbage collector
    driver_seconds: float = 0.0  # of `seconds`, inside the database driver's own calls
    engine_seconds: float = 0.0  # the engines' own work for these timeouts, done alone

    def per_k(self, value: float, count: int) -> float:
        return value * 1000 / max(1, count)

    @property
    def statement_ratio(self) -> float:
        return self.per_k(self.statements, self.timeouts) / self.move_statements

    @property
    def time_ratio(self) -> float:
        return self.per_k(self.seconds, self.timeouts) / self.move_seconds

    @property
    def driver_ratio(self) -> float:
        return self.per_k(self.driver_seconds, self.timeouts) / self.move_seconds

    @property
    def engine_ratio(self) -> float:
        return self.per_k(self.engine_seconds, self.timeouts) / self.move_seconds

    @property
    def floor_ratio(self) -> float:
        """Inside the database's calls plus the engines: what is left when the sweep's own code costs
        nothing."""
        return self.driver_ratio + self.engine_ratio

    @property
    def over_floor(self) -> float:
        """The pass against its floor: what the sweep's own code multiplies it by (issue 39:
        at most 2x)."""
        return self.seconds / max(self.driver_seconds + self.engine_seconds, 1e-9)

    @property
    def reminder_statement_ratio(self) -> float:
        return self.per_k(self.reminder_statements, self.reminders) / self.move_statements

    @property
    def reminder_time_ratio(self) -> float:
        return self.per_k(self.reminder_seconds, self.reminders) / self.move_seconds


@dataclass
class Figures:
    games: int
    due: int
    idle_statements: int = 0
    idle_seconds: float = 0.0
    passes: list[Pass] = field(default_factory=list)
    per_game: Pass | None = None

    def median(self, name: str) -> float:
        return statistics.median(getattr(p, name) for p in self.passes)

    def spread(self, name: str) -> tuple[float, float]:
        values = [getattr(p, name) for p in self.passes]
        return min(values), max(values)


def fill(svc, games: int) -> None:
    """`games` idle games: a game row and two seats each, deadlines weeks ahead, in one bulk
    insert per table."""
    with svc.db.transaction() as s:
        s.execute(insert(Player), [{"email": "idle@example.org", "name": "idle",
                                    "created_at": T0}])
        pid = s.query(Player.id).filter_by(email="idle@example.org").scalar()
        top = s.query(func.max(GameRow.id)).scalar() or 0
        ids = range(top + 1, top + games + 1)
        s.execute(insert(GameRow), [{"id": g, "kind": "trees", "options": {}, "seq": 1,
                                     "status": "active", "created_at": T0, "clock": "3d",
                                     "on_timeout": "bot"} for g in ids])
        s.execute(insert(Seat), [
            {"game_id": g, "seat": seat, "player_id": pid, "muted": False,
             "status": "active", "holder": 0, "clock": {},
             "deadline": T0 + timedelta(days=30, minutes=i % 1000) if seat == 0 else None,
             "remind_at": T0 + timedelta(days=29, minutes=i % 1000) if seat == 0 else None}
            for i, g in enumerate(ids) for seat in (0, 1)])


def time_moves(app, svc, counter: Counter, games: list[int], rng) -> tuple[float, float]:
    """One move request (the link POST of a player), averaged over MOVES games whose clocks
    no pass reaches: statements and seconds."""
    client, posted, spent, done = app.test_client(), 0, 0.0, 0
    for game_id in games:
        with svc.db.transaction() as s:
            pos = repository.load(s, svc.states, game_id)
        if pos.engine.outcome(pos.state) is not None:
            continue
        seat = min(pos.engine.to_act(pos.state))
        move = pos.engine.bots["easy"](pos.state, seat, rng)
        token = svc.urls.signer.dumps("move", Claims(game_id, seat,
                                                     freshness.mark(pos.engine, pos.state, seat),
                                                     move))
        before = counter.n
        t = clock_now()
        assert client.post(f"/m/{token}").status_code == 200
        spent += clock_now() - t
        posted += counter.n - before
        done += 1
        if done == MOVES:
            break
    return posted / done, spent / done


def one_pass(app, svc, clock, counter: Counter, driver: DriverClock, movers: list[int], rng,
             bulk=True) -> Pass:
    """Reminders due for every due game, then their deadlines: two sweep passes."""
    move_statements, move_seconds = time_moves(app, svc, counter, movers, rng)
    clock.advance(hours=19)                 # a 1-day clock reminds 6 hours before
    svc.states.clear()
    n0, t = counter.n, clock_now()
    reminded = timeouts.run(svc, bulk=bulk)
    r_statements, r_seconds = counter.n - n0, clock_now() - t
    clock.advance(hours=6, minutes=1)
    engine_seconds = engines_alone(svc, clock.now(), random.Random(rng.random()))
    svc.states.clear()
    n0, d0, t, collector = counter.n, driver.seconds, clock_now(), Collector()
    report = timeouts.run(svc, bulk=bulk)
    statements, seconds = counter.n - n0, clock_now() - t
    collector.close()
    return Pass(report.timed_out, statements, seconds, reminded.reminded, r_statements,
                r_seconds, move_statements, move_seconds, collector.seconds,
                driver.seconds - d0, engine_seconds)


def measure(tmp: Path, games: int = 100_000, due: int = 1000, passes: int = 5,
            per_game: bool = False, say=print, url: str | None = None) -> Figures:
    if url is None:
        url = f"sqlite:///{tmp / 'sweep.db'}"
    else:
        engine = create_engine(url)
        with engine.begin() as conn:
            Base.metadata.drop_all(conn)
            conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
        engine.dispose()
    upgrade(url)
    clock = ManualClock(T0)
    # inline: no background thread, whose idle sweep would be a second sweeper in the passes.
    # No vacation day taken instead of a timeout: the figure is 1,000 timeouts, and the bench's
    # few players each sit at thousands of games, every one of whose clocks a day would stop.
    app = create_app({"TURNPOST_DATABASE_URL": url, "TURNPOST_MAILDIR": str(tmp / "out"),
                      "TURNPOST_CHANCE": random.Random(1), "TURNPOST_CLOCK": clock,
                      "TURNPOST_BACKGROUND": "inline", "TURNPOST_AUTO_VACATION": False})
    svc = app.extensions["turnpost"]
    svc.enqueue = play.services.run_nothing          # time the clocks, not the mail
    t0 = clock_now()
    people = ["a@example.org", "b@example.org"]
    for _ in range(due):
        play.start_game(svc, "trees", people, {"clock": "1d"})
    # the games moved in: on a clock as well (a move keeps its seats' clocks), one that
    # no pass reaches
    movers = [play.start_game(svc, "trees", people, {"clock": "30d"}).game_id
              for _ in range(MOVES * 2)]
    fill(svc, games - due)
    say(f"set up {games:,} games ({due:,} due) in {clock_now() - t0:.1f} s")
    # as the worker process that runs the sweep does once its app is built (workers/worker.py)
    gc.collect()
    gc.freeze()
    counter, rng, driver = Counter(svc.db.engine), random.Random(2), DriverClock()
    driver.attach(svc.db.engine)
    figures = Figures(games, due)

    n0, t = counter.n, clock_now()
    play.timers(svc)
    figures.idle_statements, figures.idle_seconds = counter.n - n0, clock_now() - t
    say(f"a pass with nothing due: {figures.idle_statements} statements, "
        f"{figures.idle_seconds * 1000:.1f} ms")
    for n in range(passes):
        p = one_pass(app, svc, clock, counter, driver, movers, rng)
        figures.passes.append(p)
        say(f"pass {n + 1}: {p.timeouts} timeouts in {p.statements} statements, "
            f"{p.seconds * 1000:.0f} ms (GC {p.gc_seconds * 1000:.0f}, inside the database "
            f"{p.driver_seconds * 1000:.0f}; the engines alone "
            f"{p.engine_seconds * 1000:.0f}); {p.reminders} reminders in {p.reminder_statements} "
            f"statements, {p.reminder_seconds * 1000:.0f} ms; one move request "
            f"{p.move_statements:.1f} statements, {p.move_seconds * 1000:.2f} ms")
    if per_game:
        p = figures.per_game = one_pass(app, svc, clock, counter, driver, movers, rng,
                                        bulk=False)
        say(f"per-game path: {p.timeouts} timeouts in {p.statements} statements, "
            f"{p.seconds * 1000:.0f} ms; {p.reminders} reminders in {p.reminder_statements} "
            f"statements, {p.reminder_seconds * 1000:.0f} ms")
    svc.dispose()
    gc.unfreeze()
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--due", type=int, default=1000)
    ap.add_argument("--passes", type=int, default=5)
    ap.add_argument("--per-game", action="store_true")
    ap.add_argument("--url", help="a database to use (its tables are dropped) instead of "
                    "a temporary SQLite file")
    ap.add_argument("--cpu", action="store_true", help="time everything by the process's "
                    "CPU time, not the wall clock (SQLite: the database's calls are CPU too)")
    args = ap.parse_args()
    if args.cpu:
        global clock_now
        clock_now = time.process_time
    with tempfile.TemporaryDirectory() as tmp:
        f = measure(Path(tmp), args.games, args.due, args.passes, args.per_game, url=args.url)
    print("\nper 1,000, in move requests' worth (median of the passes, min-max):")
    for label, name in (("timeouts, statements", "statement_ratio"),
                        ("timeouts, time", "time_ratio"),
                        ("  inside the database", "driver_ratio"),
                        ("  the engines alone", "engine_ratio"),
                        ("  the two: the floor", "floor_ratio"),
                        ("the pass over its floor", "over_floor"),
                        ("reminders, statements", "reminder_statement_ratio"),
                        ("reminders, time", "reminder_time_ratio")):
        low, high = f.spread(name)
        print(f"  {label:22} {f.median(name):7.1f}  ({low:.1f}-{high:.1f})")
    if f.per_game is not None:
        print(f"  per-game path: timeouts {f.per_game.statement_ratio:.1f} (statements), "
              f"{f.per_game.time_ratio:.1f} (time); reminders "
              f"{f.per_game.reminder_statement_ratio:.1f}, {f.per_game.reminder_time_ratio:.1f}")
    print("target: timeouts <= 20 move requests' worth per 1,000; the pass <= 2x its floor")


if __name__ == "__main__":
    main()
