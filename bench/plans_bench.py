"""Round trips saved by plans (issue 38): emails and player turns per Suzerain and Trees game
between two easy bots that plan one move ahead, against the same games without plans. Seeds
fixed; prints a table, never asserts.

    .venv/bin/python bench/plans_bench.py                # 3 games of each, up to 30 plans a turn
    .venv/bin/python bench/plans_bench.py --games 3 --max-plans 50

A player turn is one reply the bench sends for a seat (its move, whole turn, with its plan
lines in the same reply); a move the service plays by plan or as a forced move (the default
preference) is no turn. Emails are the turn emails the game queued for its two people.

Planning one move ahead: after its move, the seat now waiting writes, for each move the other
may make as far as it can know (the engine's `plan_world`: the other holding any card it
might), `if they <that move> then <its easy bot's answer there>`, at most --max-plans lines,
the rest of those conditions left to a turn email. The games without plans play the same
easy bots with the same seeds; forced moves are on in both."""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import func, select  # noqa: E402

from service import play  # noqa: E402
from service.games.contract import IllegalMove, replay  # noqa: E402
from service.play import Intent, repository  # noqa: E402
from service.play.errors import PlayError  # noqa: E402
from service.play.moves import runner, tablebots  # noqa: E402
from service.store import EventRow, OutboxRow  # noqa: E402
from service.store.migrate import upgrade  # noqa: E402
from service.store.models import Plan  # noqa: E402
from service.web import create_app  # noqa: E402

PEOPLE = ["anna@example.org", "ben@example.org"]
MAX_STEPS = 3000


def services(workdir: str):
    url = f"sqlite:///{workdir}/plans.db"
    upgrade(url)
    app = create_app({"TURNPOST_DATABASE_URL": url, "TURNPOST_MAILDIR": f"{workdir}/mail",
                      "TURNPOST_CHANCE": random.Random(1), "TURNPOST_BACKGROUND": "inline",
                      "TURNPOST_BOT_DELAY_SECONDS": 0})
    svc = app.extensions["turnpost"]

    def run(job, *args):          # the bots' worker (forced moves) in process; mail counted
        if job == "bots":
            tablebots.move_bots(svc, args[0])
    svc.enqueue = run
    return svc


def position(svc, game_id):
    with svc.db.transaction() as s:
        return repository.load(s, svc.states, game_id)


def write_plans(svc, game_id: int, rng: random.Random, max_plans: int) -> int:
    """The waiting seat's plans for the acting seat's next move, from its own knowledge."""
    pos = position(svc, game_id)
    engine, state = pos.engine, pos.state
    acting = sorted(engine.to_act(state))
    if engine.outcome(state) is not None or len(acting) != 1:
        return 0
    other = acting[0]
    writer = 1 - other
    world = engine.plan_world(state, writer)
    conditions = engine.legal_moves(world, other)
    rng.shuffle(conditions)
    written = 0
    for move in conditions:
        if written >= max_plans:
            break
        try:
            after = replay(engine, engine.decide(world, other, move, random.Random(0)), world)
        except IllegalMove:
            continue
        if writer not in engine.to_act(after) or engine.outcome(after) is not None:
            continue
        answer = engine.bots["easy"](after, writer, random.Random(rng.random()))
        line = f"if they {engine.describe(move)} then {engine.describe(answer)}"
        try:
            runner.run_line(svc, game_id, writer, line)
            written += 1
        except PlayError:
            continue
    return written


def one_game(svc, kind: str, seed: int, plans: bool, max_plans: int) -> dict:
    svc.chance = random.Random(seed)
    game_id = play.start_game(svc, kind, PEOPLE, {}).game_id
    rng = random.Random(seed)
    turns = written = 0
    for _ in range(MAX_STEPS):
        pos = position(svc, game_id)
        if pos.engine.outcome(pos.state) is not None:
            break
        seat = min(pos.engine.to_act(pos.state))
        move = pos.engine.bots["easy"](pos.state, seat, rng)
        play.submit(svc, Intent(game_id, seat, moves=[move], source="email", whole_turn=True))
        turns += 1
        if plans:
            written += write_plans(svc, game_id, rng, max_plans)
    with svc.db.transaction() as s:
        emails = s.scalar(select(func.count()).select_from(OutboxRow)
                          .where(OutboxRow.game_id == game_id, OutboxRow.kind == "turn"))
        forced = s.scalar(select(func.count(func.distinct(EventRow.created_at))).where(
            EventRow.game_id == game_id, EventRow.source == "forced"))
        by_plan = s.scalar(select(func.count()).select_from(Plan).where(
            Plan.game_id == game_id, Plan.status == "played"))
    return {"turns": turns, "emails": emails, "written": written, "by_plan": by_plan,
            "forced": forced}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games of each kind and mode")
    parser.add_argument("--max-plans", type=int, default=30, help="plan lines a turn")
    args = parser.parse_args()
    seeds = list(range(1, args.games + 1))
    with tempfile.TemporaryDirectory() as workdir:
        svc = services(workdir)
        print(f"{args.games} games each, seeds {seeds[0]}-{seeds[-1]}, easy bots, "
              f"up to {args.max_plans} plan lines a turn\n")
        print(f"{'game':<10}{'mode':<10}{'turns/game':>12}{'emails/game':>13}"
              f"{'by plan':>9}{'forced':>8}{'plans written':>15}")
        for kind in ("suzerain", "trees"):
            totals = {}
            for mode in ("no plans", "plans"):
                runs = [one_game(svc, kind, seed, mode == "plans", args.max_plans)
                        for seed in seeds]
                avg = {k: sum(r[k] for r in runs) / len(runs) for k in runs[0]}
                totals[mode] = avg
                print(f"{kind:<10}{mode:<10}{avg['turns']:>12.1f}{avg['emails']:>13.1f}"
                      f"{avg['by_plan']:>9.1f}{avg['forced']:>8.1f}{avg['written']:>15.1f}")
            base, planned = totals["no plans"], totals["plans"]
            print(f"{kind:<10}{'ratio':<10}{planned['turns'] / base['turns']:>12.2f}"
                  f"{planned['emails'] / base['emails']:>13.2f}")
        svc.dispose()


if __name__ == "__main__":
    main()
