"""Service figures: server time of one move (request in, events and outbox rows committed, on
SQLite and on PostgreSQL), and events replayed per second when a state is rebuilt from its log.

    .venv/bin/python bench/service_bench.py [--pg postgresql+psycopg://postgres@127.0.0.1/test]

The PostgreSQL run DROPS AND RECREATES the tables of the database it is given: point it only
at a scratch database (the default is this machine's `test`).

Mail is not sent during the timed requests (the relay is switched off) so the figure is the
web + engine + database path of docs/architecture.md steps 1-4."""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import create_engine, text  # noqa: E402

from service import play  # noqa: E402
from service.games import registry  # noqa: E402
from service.games.contract import replay  # noqa: E402
from service.linking import freshness  # noqa: E402
from service.linking.signer import Claims  # noqa: E402
from service.play import repository  # noqa: E402
from service.store.migrate import upgrade  # noqa: E402
from service.store.models import Base  # noqa: E402
from service.web import create_app  # noqa: E402


def time_moves(url: str, moves: int = 200) -> list[float]:
    if url.startswith("postgresql"):
        engine = create_engine(url)
        with engine.begin() as conn:
            Base.metadata.drop_all(conn)
            conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
        engine.dispose()
    upgrade(url)
    app = create_app({"TURNPOST_DATABASE_URL": url, "TURNPOST_MAILDIR": tempfile.mkdtemp(),
                      "TURNPOST_CHANCE": random.Random(1), "TURNPOST_BACKGROUND": "inline"})
    svc = app.extensions["turnpost"]
    svc.enqueue = play.services.run_nothing      # time the move, not the mail (nor a sweep)
    client, signer, rng = app.test_client(), svc.urls.signer, random.Random(2)
    times: list[float] = []
    while len(times) < moves:
        started = play.start_game(svc, "trees", ["a@example.org", "b@example.org"], {})
        while len(times) < moves:
            with svc.db.transaction() as s:
                pos = repository.load(s, svc.states, started.game_id)
            if pos.engine.outcome(pos.state) is not None:
                break
            seat = min(pos.engine.to_act(pos.state))
            move = pos.engine.bots["easy"](pos.state, seat, rng)
            token = signer.dumps("move", Claims(started.game_id, seat, freshness.mark(pos.engine, pos.state, seat), move))
            t0 = time.perf_counter()
            r = client.post(f"/m/{token}")
            times.append(time.perf_counter() - t0)
            assert r.status_code == 200, r.text
    svc.dispose()
    return times


def reply_pipeline(url: str, replies: int = 100) -> tuple[float, int]:
    """Reply emails per second through the whole inbound pipeline on the embedded default:
    store raw (de-duplicated), parse, find game and seat, apply the command, queue and send
    the next emails to the Maildir."""
    from email import policy
    from email.message import EmailMessage
    from email.parser import BytesParser

    upgrade(url)
    maildir = tempfile.mkdtemp()
    app = create_app({"TURNPOST_DATABASE_URL": url, "TURNPOST_MAILDIR": maildir,
                      "TURNPOST_CHANCE": random.Random(1)})
    svc = app.extensions["turnpost"]
    transport = svc.transport
    rng, done, elapsed = random.Random(5), 0, 0.0
    while done < replies:
        gid = play.start_game(svc, "trees", ["a@example.org", "b@example.org"], {}).game_id
        while done < replies:
            with svc.db.transaction() as s:
                pos = repository.load(s, svc.states, gid)
            if pos.engine.outcome(pos.state) is not None:
                break
            seat = min(pos.engine.to_act(pos.state))
            addr = ["a@example.org", "b@example.org"][seat]
            ours = [BytesParser(policy=policy.default).parsebytes(raw)
                    for _, raw in transport.messages()]
            ours = [m for m in ours if m["To"] == addr][-1]
            move = pos.engine.bots["easy"](pos.state, seat, rng)
            reply = EmailMessage()
            reply["From"], reply["To"] = addr, ours["Reply-To"]
            reply["Subject"] = "Re: " + ours["Subject"]
            reply["Message-ID"] = f"<bench-{gid}-{done}@phone.example>"
            reply["In-Reply-To"] = ours["Message-ID"]
            reply.set_content(pos.engine.describe(move) + "\n\nOn Sunday Turnpost wrote:\n> ...\n")
            raw = reply.as_bytes()
            t0 = time.perf_counter()
            with app.app_context():
                play.accept_mail(svc, raw, "bench")
            elapsed += time.perf_counter() - t0
            done += 1
    svc.dispose()
    return done / elapsed, done


def replay_rate(game_id: str, seats: int, games: int = 20) -> tuple[float, int]:
    game = registry.get(game_id)
    rng = random.Random(3)
    logs = []
    for _ in range(games):
        events = game.start(seats, game.validate_options(seats, {}), rng)
        state = replay(game, events)
        while game.outcome(state) is None:
            seat = min(game.to_act(state))
            new = game.decide(state, seat, game.bots["easy"](state, seat, rng), rng)
            events += new
            state = replay(game, new, state)
        logs.append(events)
    total = sum(len(e) for e in logs)
    t0 = time.perf_counter()
    for events in logs:
        replay(game, events)
    return total / (time.perf_counter() - t0), total // games


def report(name: str, times: list[float]) -> None:
    ms = sorted(t * 1000 for t in times)
    print(f"one move, request to commit, {name}: median {statistics.median(ms):.1f} ms, "
          f"p95 {ms[int(len(ms) * 0.95)]:.1f} ms over {len(ms)} moves")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pg", default=os.environ.get("TURNPOST_BENCH_DATABASE_URL",
                                                    "postgresql+psycopg://postgres@127.0.0.1:5432/test"))
    ap.add_argument("--moves", type=int, default=200)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        report("SQLite", time_moves(f"sqlite:///{tmp}/bench.db", args.moves))
    try:
        report("PostgreSQL", time_moves(args.pg, args.moves))
    except Exception as exc:  # noqa: BLE001 - a laptop without PostgreSQL still gets figures
        print(f"PostgreSQL: not measured ({type(exc).__name__}: {str(exc).splitlines()[0]})")
    with tempfile.TemporaryDirectory() as tmp:
        rate, n = reply_pipeline(f"sqlite:///{tmp}/replies.db")
        print(f"reply emails through the whole pipeline (store, parse, apply, send the next "
              f"emails), SQLite: {rate:.1f} messages/s over {n}")
    for game_id, seats in (("trees", 2), ("suzerain", 2), ("aristocracy", 3), ("magnate", 2)):
        try:
            rate, per_game = replay_rate(game_id, seats)
        except Exception as exc:  # noqa: BLE001
            print(f"replay {game_id}: not measured ({exc})")
            continue
        print(f"replay {game_id} ({seats} players): {rate:,.0f} events/s "
              f"({per_game} events in a finished game)")


if __name__ == "__main__":
    main()
