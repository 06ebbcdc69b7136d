"""The batched sweep (service.play.time.sweep.timeoutbatch) against the per-game path it replaces: the
same games, kinds and policies swept both ways give the same events, seats, history and mail;
a batch that hits a conflict on the event log is rolled back whole and handled seat by seat,
with exactly one outcome per seat; and a batch costs a bounded number of statements."""
from __future__ import annotations

import random
import re

from sqlalchemy import delete, event, insert, select
from sqlalchemy.exc import IntegrityError

from service import play
from service.games.contract import Event
from service.mailwire.outbound.catalogs import unkept
from service.play import repository
from service.play.players import seatchanges
from service.play.time.sweep import timeoutbatch, timeouts
from service.store import eventstore
from service.store.models import (
    Base,
    EventRow,
    GameRow,
    OutboxRow,
    Plan,
    Seat,
    SeatChange,
    Snapshot,
    Submission,
)
from tests.play.moves.test_plans import name as plan_name
from tests.play.time.helpers import move, outbox, position, start, to_act

THREE = ["Anna <anna@example.org>", "Ben <ben@example.org>", "Carla <carla@example.org>"]


def scenario(svc, bulk: bool) -> list[dict]:
    """Several games of every kind and policy, swept through six days in steps that reach
    the reminders (a quarter of a day before each deadline) and then the deadlines: timeouts
    by bot, forfeit (two players: the end; three: played on), wait, a sealed Aristocracy
    round with several seats due at once, a resigned seat played at each of its turns, a seat
    that goes absent after three missed turns, and a player who moves in time."""
    start(svc, clock="1d", seed=3)
    start(svc, clock="1d", on_timeout="forfeit", seed=4)
    start(svc, clock="1d", on_timeout="wait", seed=5)
    start(svc, kind="aristocracy", players=THREE, clock="1d", seed=6)
    start(svc, kind="aristocracy", players=THREE, clock="1d", on_timeout="forfeit", seed=7)
    start(svc, kind="magnate", clock="1d", seed=8)
    start(svc, kind="suzerain", clock="1d", seed=9)
    left = start(svc, kind="trees", players=THREE, clock="2d", seed=10)
    seatchanges.resign(svc, left.game_id, 2)
    mover = start(svc, clock="1d", seed=11)
    reports = []
    for day in range(6):
        svc.clock.advance(hours=19)
        reports.append(timeouts.run(svc, bulk=bulk))
        if day % 2 == 0 and to_act(svc, mover.game_id):
            move(svc, mover.game_id)
        svc.clock.advance(hours=5, minutes=1)
        reports.append(timeouts.run(svc, bulk=bulk))
    return [{"resumed": r.resumed, "reminded": r.reminded, "timed_out": r.timed_out,
             "outcomes": r.outcomes, "emails": len(r.outbox_ids)} for r in reports]


TOKEN = re.compile(r"/s/[^/\s\"]+")


def dump(svc) -> dict:
    """Everything a sweep writes, with the game ids numbered by creation and the signed
    tokens in links left out (they carry the moment they were signed)."""
    with svc.db.transaction() as s:
        games = {g: n for n, g in enumerate(s.scalars(select(GameRow.id).order_by(GameRow.id)))}

        def rows(model, *order, cols):
            q = select(model).order_by(*order)
            return [tuple(games[r.game_id] if c == "game_id" else getattr(r, c)
                          for c in cols) for r in s.scalars(q)]
        return {
            "games": [(games[g.id], g.seq, g.status, g.result, g.bots_due)
                      for g in s.scalars(select(GameRow).order_by(GameRow.id))],
            "events": rows(EventRow, EventRow.game_id, EventRow.seq,
                           cols=("game_id", "seq", "type", "data", "seat", "source",
                                 "created_at")),
            "receipts": rows(Submission, Submission.game_id, Submission.key,
                             cols=("game_id", "key", "seat", "first_seq", "last_seq",
                                   "source", "created_at")),
            "seats": rows(Seat, Seat.game_id, Seat.seat,
                          cols=("game_id", "seat", "status", "clock", "deadline", "remind_at",
                                "on_timeout", "holder")),
            "history": rows(SeatChange, SeatChange.id,
                            cols=("game_id", "seat", "kind", "seq", "text", "created_at")),
            "mail": [(games.get(r.game_id), r.seat, r.to_addr, r.kind, r.seq, r.since_seq,
                      TOKEN.sub("/s/<token>", repr(r.payload)), r.status, r.created_at)
                     for r in s.scalars(select(OutboxRow).order_by(OutboxRow.id))],
        }


def wipe(svc) -> None:
    with svc.db.transaction() as s:
        for table in reversed(Base.metadata.sorted_tables):
            s.execute(delete(table))
    svc.states.clear()       # game ids may be handed out again


def test_batched_sweep_writes_what_the_per_game_path_writes(services, monkeypatch):
    t0 = services.clock.now()
    by_game = scenario(services, bulk=False)
    expected = dump(services)
    wipe(services)
    services.clock.set(t0)
    monkeypatch.setattr(timeouts, "timeout", refuse)
    monkeypatch.setattr(timeouts, "_reminders_one_by_one", refuse)
    batched = scenario(services, bulk=True)
    got = dump(services)
    assert batched == by_game
    for part in expected:
        assert got[part] == expected[part], part
    # the scenario reached what it is meant to compare
    outcomes = {k for r in by_game for k in r["outcomes"]}
    assert {"played", "ended", "waiting", "forfeited"} <= outcomes
    assert sum(r["reminded"] for r in by_game) > 0
    kinds = {k for _, _, k, *_ in got["history"]}
    assert {"forfeited", "absent", "resigned"} <= kinds
    assert any(s == "timer" for *_, s, _ in got["events"])


def long_game(svc, length: int, seed: int = 12) -> int:
    """An Aristocracy game on a 1-day clock played by bots (as players would) past `length`
    events: its states come from snapshots, and its timeouts cross the next one."""
    game = start(svc, kind="aristocracy", players=THREE, clock="1d", seed=seed).game_id
    rng = random.Random(seed)
    while True:
        pos = position(svc, game)
        if pos.seq >= length or pos.engine.outcome(pos.state) is not None:
            return game
        seat = min(pos.engine.to_act(pos.state))
        choice = pos.engine.bots["easy"](pos.state, seat, rng)
        play.submit(svc, play.Intent(game, seat, moves=[choice], source="web"))


def long_scenario(svc, bulk: bool) -> list[dict]:
    long_game(svc, 90)
    start(svc, clock="1d", seed=13)
    reports = []
    for _ in range(8):
        svc.clock.advance(days=1, minutes=1)
        svc.states.clear()          # a sweeper that has not seen the games: snapshots
        reports.append(timeouts.run(svc, bulk=bulk).outcomes)
    return reports


def test_batched_sweep_of_a_long_game_reads_and_writes_snapshots_as_the_per_game_path(
        services, monkeypatch):
    t0 = services.clock.now()
    by_game = long_scenario(services, bulk=False)
    expected = dump(services) | {"snapshots": snapshot_rows(services)}
    wipe(services)
    services.clock.set(t0)
    monkeypatch.setattr(timeouts, "timeout", refuse)
    folded = []
    real = eventstore.load_many

    def load_many(session, games):
        folded.extend(after for _, after in games.values())
        return real(session, games)
    monkeypatch.setattr(eventstore, "load_many", load_many)
    batched = long_scenario(services, bulk=True)
    got = dump(services) | {"snapshots": snapshot_rows(services)}
    assert batched == by_game
    for part in expected:
        assert got[part] == expected[part], part
    assert max(folded) >= 50                      # the long game was read from a snapshot
    assert len({seq for game, seq, _ in got["snapshots"] if game == 0}) >= 2
    assert sum(r.get("played", 0) for r in batched) >= 8


def snapshot_rows(svc) -> list[tuple]:
    with svc.db.transaction() as s:
        games = {g: n for n, g in enumerate(s.scalars(select(GameRow.id).order_by(GameRow.id)))}
        return [(games[r.game_id], r.seq, r.format)
                for r in s.scalars(select(Snapshot).order_by(Snapshot.game_id, Snapshot.seq))]


def refuse(*args, **kwargs):
    raise AssertionError("a batch fell back to the per-game path")


def test_a_conflict_in_a_batch_falls_back_with_one_outcome_per_seat(services, monkeypatch):
    """Another writer's event at the log position of the batch's first timeout move (as one
    that did not take the game's lock would write it): the batch's insert fails on the
    (game_id, seq) key, the whole batch is rolled back, and each seat is then handled on its
    own under its game's lock, exactly once."""
    games = [start(services, clock="1d", seed=20 + n).game_id for n in range(4)]
    services.clock.advance(days=1, minutes=1)
    real_write, real_timeout = timeoutbatch.Batch.write, timeouts.timeout
    taken, calls = [], []

    def write(self):
        first = self.events[0]
        taken.append((first["game_id"], first["seq"]))
        self.session.execute(insert(EventRow).values(dict(first, source="web")))
        return real_write(self)

    def per_game(svc, game_id, seat, deadline, now, ids):
        calls.append(game_id)
        return real_timeout(svc, game_id, seat, deadline, now, ids)
    monkeypatch.setattr(timeoutbatch.Batch, "write", write)
    monkeypatch.setattr(timeouts, "timeout", per_game)
    report = timeouts.run(services)
    assert len(taken) == 1 and calls == games      # rolled back, then seat by seat
    assert report.outcomes == {"played": 4}
    _each_played_once(services, games)
    assert timeouts.run(services).timed_out == 0   # nothing twice


def test_a_batch_rolled_back_after_writing_leaves_nothing_behind(services, monkeypatch):
    games = [start(services, clock="1d", seed=30 + n).game_id for n in range(3)]
    services.clock.advance(days=1, minutes=1)
    real = timeoutbatch.Batch.write

    def write(self):
        real(self)                      # every row written, then the conflict surfaces
        raise IntegrityError("INSERT INTO events", {}, Exception("duplicate key"))
    monkeypatch.setattr(timeoutbatch.Batch, "write", write)
    report = timeouts.run(services)
    assert report.outcomes == {"played": 3}
    _each_played_once(services, games)


def _each_played_once(svc, games):
    with svc.db.transaction() as s:
        for game_id in games:
            sources = s.scalars(select(EventRow.source).where(EventRow.game_id == game_id)
                                ).all()
            receipts = s.scalars(select(Submission.key)
                                 .where(Submission.game_id == game_id)).all()
            notices = s.scalars(select(OutboxRow.seat).where(
                OutboxRow.game_id == game_id, OutboxRow.created_at == svc.clock.now())).all()
            assert "web" not in sources and sources.count("timer") >= 1
            assert len(receipts) == 1 and receipts[0].startswith(tuple("0123"))
            assert sorted(notices) == [0, 1]        # each seat told once


def statements_of_a_pass(svc, games: int) -> int:
    for n in range(games):
        start(svc, clock="1d", seed=40 + n)
    svc.clock.advance(days=1, minutes=1)
    svc.states.clear()
    seen = []

    def count(*args):
        seen.append(args[2])
    event.listen(svc.db.engine, "before_cursor_execute", count)
    try:
        report = timeouts.run(svc)
    finally:
        event.remove(svc.db.engine, "before_cursor_execute", count)
    assert report.timed_out == games
    return len(seen)


def test_a_batch_costs_the_same_statements_for_3_games_as_for_30(services):
    few = statements_of_a_pass(services, 3)
    wipe(services)
    many = statements_of_a_pass(services, 30)
    assert many == few <= 25


def test_a_batch_reads_a_game_with_a_move_taken_back_as_positions_load_does(services):
    g = start(services, kind="aristocracy", players=THREE, clock="1d", seed=14).game_id
    before = position(services, g).seq
    move(services, g, to_act(services, g)[0])
    with services.db.transaction() as s:
        game = s.get(GameRow, g)
        eventstore.append(s, game, [Event(repository.TAKEN_BACK, {"to": before, "seat": 0})],
                           seat=0, source="undo", now=services.clock.now())
    services.states.clear()
    expected = position(services, g)
    services.states.clear()
    with services.db.transaction() as s:
        batch = timeoutbatch.Batch(s, services, services.clock.now())
        batch.load([g])
        batch.load_states([g])
        got = batch.positions[g]
    assert got.seq == expected.seq == before + 2
    assert got.state == expected.state
    assert got.engine.view(got.state, None) == expected.engine.view(expected.state, None)


# --- a timeout's move with plans: one step for both paths (timeoutmove.played) ---------------

def _plan_on_the_lead(svc, game_id: int) -> None:
    """The seat not leading writes an accepted plan on the leader's lead, and a `next:`."""
    pos = position(svc, game_id)
    leader = pos.state.leader
    for card in pos.state.hands[leader]:
        for follow in pos.state.hands[1 - leader]:
            try:
                play.runner.run_line(svc, game_id, 1 - leader,
                                     f"if they lead {plan_name(card)} then play "
                                     f"{plan_name(follow)}")
            except play.PlayError:
                continue
            play.runner.run_line(svc, game_id, 1 - leader,
                                 f"next: play {plan_name(pos.state.hands[1 - leader][-1])}")
            return
    raise AssertionError("no plan was accepted in this deal")


def plans_scenario(svc, bulk: bool) -> list[dict]:
    """Suzerain games whose leader runs out of time while the other seat's plans wait: the
    clock's lead drops the `if` plan (the clock moved for them) and sets off the `next:`."""
    for seed in (5, 6, 7, 8):
        game = start(svc, kind="suzerain", clock="1d", seed=seed).game_id
        _plan_on_the_lead(svc, game)
    svc.clock.advance(days=1, minutes=1)
    report = timeouts.run(svc, bulk=bulk)
    return [{"timed_out": report.timed_out, "outcomes": report.outcomes}]


def plan_rows(svc) -> list[tuple]:
    """The plans, with the game ids numbered by creation (PostgreSQL hands out new ones)."""
    with svc.db.transaction() as s:
        games = {g: n for n, g in enumerate(s.scalars(select(GameRow.id).order_by(GameRow.id)))}
        return [(games[p.game_id], p.seat, p.kind, p.status, p.why, p.told)
                for p in s.scalars(select(Plan).order_by(Plan.id))]


def test_batched_sweep_drops_and_plays_plans_as_the_per_game_path(services, monkeypatch):
    """A game with plans is swept in its batch (it used to go the per-game way, which alone
    knew plans): the same events, plans, clocks and mail either way."""
    t0 = services.clock.now()
    by_game = plans_scenario(services, bulk=False)
    expected, plans_then = dump(services), plan_rows(services)
    wipe(services)
    services.clock.set(t0)
    monkeypatch.setattr(timeouts, "timeout", refuse)
    batched = plans_scenario(services, bulk=True)
    assert batched == by_game
    got = dump(services)
    for part in expected:
        assert got[part] == expected[part], part
    assert plan_rows(services) == plans_then
    # the scenario reached what it is meant to compare
    assert {status for _, _, _, status, _, _ in plans_then} >= {"dropped"}
    assert any(source == "plan" for *_, source, _ in got["events"])


def test_a_timeout_tells_the_plans_it_dropped_in_the_writers_turn_email(services):
    """The turn email the clock's move sends carries its notice and the plans it dropped
    (the per-game path used to replace the payload with the notice, and the plans' writer,
    marked told, never heard)."""
    for bulk in (False, True):
        game = start(services, kind="suzerain", clock="1d", seed=5).game_id
        _plan_on_the_lead(services, game)
        writer = 1 - position(services, game).state.leader
        services.clock.advance(days=1, minutes=1)
        timeouts.run(services, bulk=bulk)
        turns = [m for m in outbox(services, game, "turn") if m["seat"] == writer]
        told = turns[-1]["payload"]
        assert "timeout" in told, bulk
        assert any("time ran out" in unkept(line["why"])
                   for line in told.get("plans_dropped", [])), bulk
