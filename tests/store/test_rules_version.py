"""Games record the version of the rules they started under (`games.rules_version`), and a
log recorded under an earlier version replays and plays on as it did then, through the event
store and the use cases (architecture issue, point 4).

The witness is Suzerain, whose rules version 2 amended S7 (the right is offered at once after
the claim) and version 3 made that offer on public facts only. Its golden file `random_1.jsonl` was recorded before rules versions existed; here
that same game is stored as a version-1 log, then played on move by move through `play.submit`,
and every position must match the golden file's views and legal moves."""
from __future__ import annotations

import json
import random
from pathlib import Path

from sqlalchemy import select

from service import play
from service.games import registry
from service.games.contract import Event, replay
from service.play import repository
from service.store import eventstore
from service.store.models import EventRow, GameRow, Player, Seat

GOLDEN = Path(__file__).resolve().parent.parent / "games" / "suzerain" / "golden"


def without_version(events: list[Event]) -> list[Event]:
    first = events[0]
    return [Event(first.type, {k: v for k, v in first.data.items() if k != "rules"}),
            *events[1:]]


def store_old_game(svc, kind: str, options: dict, events: list[Event]) -> int:
    """A game as a database from before rules versions holds it: the migration gave its row
    rules_version 1, and its first event names no version."""
    now = svc.clock.now()
    with svc.db.transaction() as s:
        game = GameRow(kind=kind, options=options, seq=0, status="active", created_at=now,
                       rules_version=1)
        s.add(game)
        s.flush()
        for seat, addr in enumerate(["anna@example.org", "ben@example.org"]):
            player = Player(email=addr, name=addr.split("@")[0], created_at=now)
            s.add(player)
            s.flush()
            s.add(Seat(game_id=game.id, seat=seat, player_id=player.id, muted=False))
        s.flush()
        eventstore.append(s, game, events, seat=None, source="start", now=now)
        return game.id


def test_a_version_1_log_replays_and_plays_on_under_version_1(services):
    engine = registry.get("suzerain")
    assert engine.rules_version == 3
    lines = [json.loads(x) for x in (GOLDEN / "random_1.jsonl").read_text().splitlines()]
    header, steps = lines[0], lines[1:]
    rng = random.Random(header["seed"])
    options = engine.validate_options(2, header["options"])
    gid = store_old_game(services, "suzerain", options,
                         without_version(engine.start(2, options, rng)))
    with services.db.transaction() as s:
        stored = s.scalar(select(EventRow).where(EventRow.game_id == gid, EventRow.seq == 1))
        assert "rules" not in stored.data            # the log as it was written
    bot = engine.bots[header["bot"]]
    for step in steps:
        with services.db.transaction() as s:
            pos = repository.load(s, services.states, gid)
        assert pos.state.rules == 1                  # the upcaster read the row's version
        views = {str(seat): engine.view(pos.state, seat) for seat in (0, 1, None)}
        assert json.loads(json.dumps(views)) == step["views"], f"step {step['step']}"
        if "outcome" in step:
            assert engine.outcome(pos.state).to_json() == step["outcome"]
            break
        seat = rng.choice(sorted(engine.to_act(pos.state)))
        assert seat == step["seat"]
        legal = [engine.describe(m) for m in engine.legal_moves(pos.state, seat)]
        assert legal[:len(step["legal"])] == step["legal"]
        move = bot(pos.state, seat, rng)
        services.chance = rng                        # the same draws the recording made
        play.submit(services, play.Intent(gid, seat, moves=[move], source="cli"))
    else:
        raise AssertionError("the golden game never ended")


def test_a_new_game_records_the_engines_current_version(services):
    started = play.start_game(services, "suzerain", ["anna@example.org", "ben@example.org"], {})
    with services.db.transaction() as s:
        assert s.get(GameRow, started.game_id).rules_version == 3
        first = s.scalar(select(EventRow).where(EventRow.game_id == started.game_id,
                                                EventRow.seq == 1))
        assert first.data["rules"] == 3


def test_the_upcaster_names_the_version_only_where_the_log_does_not():
    old = Event("Started", {"dealer": 0})
    assert eventstore.upcast(old, 1, 1).data == {"dealer": 0, "rules": 1}
    assert eventstore.upcast(Event("Started", {"rules": 2}), 1, 1).data == {"rules": 2}
    assert eventstore.upcast(Event("Led", {"card": "1M"}), 2, 1).data == {"card": "1M"}


def test_the_state_takes_its_version_from_the_upcast_first_event():
    """The engine plays by the version the (upcast) first event names, so a row's version
    decides which rules a stored log is replayed under."""
    engine = registry.get("suzerain")
    lines = [json.loads(x) for x in (GOLDEN / "random_1.jsonl").read_text().splitlines()]
    rng = random.Random(lines[0]["seed"])
    options = engine.validate_options(2, lines[0]["options"])
    events = without_version(engine.start(2, options, rng))
    as_v1 = replay(engine, [eventstore.upcast(events[0], 1, 1), *events[1:]])
    as_v2 = replay(engine, [eventstore.upcast(events[0], 1, 2), *events[1:]])
    assert (as_v1.rules, as_v2.rules) == (1, 2)
