"""A player's data: how long one player's export and erasure take with N games of theirs (a
quarter played to the end, the rest six moves in) among OTHERS games of other players.

    .venv/bin/python bench/player_data_bench.py [DATABASE_URL]     (N=100 OTHERS=200 by default)

Without a URL it makes an SQLite file in a temporary folder; a PostgreSQL URL must name an
empty database. The export folds each game once; the erasure resigns each game in progress
(one transaction each, as any resignation) and then reads every free-text column once
(service.store.search), so its second part grows with the database, not with the player."""
from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import func, select  # noqa: E402

from config import Settings  # noqa: E402
from service import play  # noqa: E402
from service.play import repository  # noqa: E402
from service.play.players import erasure  # noqa: E402
from service.play.reads import mydata  # noqa: E402
from service.store.migrate import upgrade  # noqa: E402
from service.store.models import EventRow, GameRow, OutboxRow  # noqa: E402

ANNA = "anna@example.org"


def play_moves(svc, game_id: int, moves: int | None, rng: random.Random) -> None:
    made = 0
    while moves is None or made < moves:
        with svc.db.transaction() as session:
            pos = repository.load(session, svc.states, game_id)
        if pos.engine.outcome(pos.state) is not None:
            return
        seat = rng.choice(sorted(pos.engine.to_act(pos.state)))
        move = pos.engine.bots["random"](pos.state, seat, rng)
        play.submit(svc, play.Intent(game_id, seat, moves=[move], whole_turn=True,
                                     source="cli"))
        made += 1


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    url = sys.argv[1] if len(sys.argv) > 1 else f"sqlite:///{folder / 'bench.db'}"
    upgrade(url)
    cfg = Settings().as_flask() | {
        "TURNPOST_DATABASE_URL": url, "TURNPOST_MAILDIR": str(folder / "outbox"),
        "TURNPOST_SECRET_KEY": "bench-secret-long-enough-for-production-settings",
        "TURNPOST_BROKER_URL": "", "TURNPOST_BACKGROUND": "inline"}
    svc = play.from_settings(cfg, chance=random.Random(1))
    n, others = int(os.environ.get("N", 100)), int(os.environ.get("OTHERS", 200))
    rng = random.Random(2)
    started = time.perf_counter()
    for i in range(n):
        game = play.start_game(svc, "trees", [ANNA, f"p{i}@example.org"], {}).game_id
        play_moves(svc, game, None if i % 4 == 0 else 6, rng)
    for i in range(others):
        game = play.start_game(svc, "trees", [f"q{i}@example.org", f"p{i}@example.org"],
                               {}).game_id
        play_moves(svc, game, 6, rng)
    play.sweep(svc)
    with svc.db.transaction() as session:
        counts = {t.__tablename__: session.scalar(select(func.count()).select_from(t))
                  for t in (GameRow, EventRow, OutboxRow)}
    print(f"set-up {time.perf_counter() - started:.0f} s: {counts}")
    for run in ("cold", "warm"):
        started = time.perf_counter()
        doc = mydata.export_address(svc, ANNA)
        print(f"export ({run}): {len(doc['games'])} games in "
              f"{time.perf_counter() - started:.2f} s")
    started = time.perf_counter()
    erased = erasure.erase(svc, ANNA)
    print(f"erase: {len(erased.resigned)} games resigned, "
          f"{time.perf_counter() - started:.2f} s in all")
    svc.dispose()


if __name__ == "__main__":
    main()
