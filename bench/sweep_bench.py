"""The clock sweep's cost: one pass over 100,000 games of which 1,000 are due (their deadline
passed: the timeout move is played for each), in database statements and time, as a ratio to
one move request (the same link POST a player makes). SQLite; figures only, never asserted.

    .venv/bin/python bench/sweep_bench.py [--games 100000] [--due 1000]

The 1,000 due games are real Trees games; the other 99,000 are rows with seats whose deadline
lies in the future (the sweep must find the due ones by index without touching these)."""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import event, func, insert  # noqa: E402

from service import marks, play  # noqa: E402
from service.clock import ManualClock  # noqa: E402
from service.links import Claims  # noqa: E402
from service.play import positions  # noqa: E402
from service.store.migrate import upgrade  # noqa: E402
from service.store.models import GameRow, Player, Seat  # noqa: E402
from service.web import create_app  # noqa: E402

T0 = datetime(2026, 11, 24, 9, 0, tzinfo=timezone.utc)


class Counter:
    def __init__(self, engine):
        self.n = 0
        event.listen(engine, "before_cursor_execute", self._count)

    def _count(self, *_args):
        self.n += 1


def fill(svc, games: int) -> None:
    """`games` idle games: a game row and two seats each, deadlines days ahead."""
    with svc.db.transaction() as s:
        s.execute(insert(Player), [{"email": "idle@example.org", "name": "idle",
                                    "created_at": T0}])
        pid = s.query(Player.id).filter_by(email="idle@example.org").scalar()
        top = s.query(func.max(GameRow.id)).scalar() or 0
        for first in range(0, games, 5000):
            ids = list(range(top + first + 1, top + min(games, first + 5000) + 1))
            s.execute(insert(GameRow), [{"id": g, "kind": "trees", "options": {}, "seq": 1,
                                         "status": "active", "created_at": T0, "clock": "3d",
                                         "on_timeout": "bot"} for g in ids])
            s.execute(insert(Seat), [
                {"game_id": g, "seat": seat, "player_id": pid, "muted": False,
                 "status": "active", "holder": 0, "clock": {},
                 "deadline": T0 + timedelta(days=5, minutes=i % 1000) if seat == 0 else None,
                 "remind_at": T0 + timedelta(days=4, minutes=i % 1000) if seat == 0 else None}
                for i, g in enumerate(ids) for seat in (0, 1)])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--due", type=int, default=1000)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    url = f"sqlite:///{tmp / 'bench.db'}"
    upgrade(url)
    clock = ManualClock(T0)
    app = create_app({"TURNPOST_DATABASE_URL": url, "TURNPOST_MAILDIR": str(tmp / "out"),
                      "TURNPOST_CHANCE": random.Random(1), "TURNPOST_CLOCK": clock})
    svc = app.extensions["turnpost"]
    svc.enqueue = play.services.run_nothing          # time the clocks, not the mail
    t0 = time.perf_counter()
    due = [play.start_game(svc, "trees", ["a@example.org", "b@example.org"],
                           {"clock": "1d"}).game_id for _ in range(args.due)]
    fill(svc, args.games - args.due)
    print(f"set up {args.games} games ({args.due} due) in {time.perf_counter() - t0:.1f} s",
          flush=True)
    counter = Counter(svc.db.engine)
    client, rng = app.test_client(), random.Random(2)

    # one move request: the link POST of a player, averaged over 50 games
    n0, spent = counter.n, 0.0
    for game_id in due[:50]:
        with svc.db.transaction() as s:
            pos = positions.load(s, svc.states, game_id)
        seat = min(pos.engine.to_act(pos.state))
        move = pos.engine.bots["easy"](pos.state, seat, rng)
        token = svc.urls.signer.dumps("move", Claims(game_id, seat,
                                                     marks.mark(pos.engine, pos.state, seat),
                                                     move))
        t = time.perf_counter()
        assert client.post(f"/m/{token}").status_code == 200
        spent += time.perf_counter() - t
    move_statements, move_seconds = (counter.n - n0) / 50, spent / 50
    print(f"one move request: {move_statements:.1f} statements, "
          f"{move_seconds * 1000:.2f} ms", flush=True)

    # an idle pass: nothing due among 100,000 games
    n0, t = counter.n, time.perf_counter()
    play.timers(svc)
    print(f"sweep pass with nothing due: {counter.n - n0} statements, "
          f"{(time.perf_counter() - t) * 1000:.2f} ms", flush=True)

    # the pass with every due game's deadline passed
    clock.advance(days=1, hours=1)
    svc.states.clear()
    n0, t = counter.n, time.perf_counter()
    report = play.timers(svc)
    statements, seconds = counter.n - n0, time.perf_counter() - t
    timed_out = max(1, report.timed_out)
    print(f"sweep pass, {report.timed_out} timeouts (+{report.reminded} reminders): "
          f"{statements} statements, {seconds:.2f} s", flush=True)
    per_k = 1000 / timed_out
    print(f"per 1,000 timeouts: {statements * per_k / move_statements:.1f} move requests' worth "
          f"of statements, {seconds * per_k / move_seconds:.1f} move requests' worth of time "
          f"(target: 20)", flush=True)


if __name__ == "__main__":
    main()
