"""States rebuilt from snapshots: a worker or web process that has never seen a long game
replays only the events after the newest snapshot, and gets exactly the state a replay of the
whole log gives; a snapshot it cannot trust (other rules or engine code, unreadable bytes) is
ignored, never believed."""
from __future__ import annotations

import random

import pytest
from sqlalchemy import select, update

from service import play
from service.games.contract import replay
from service.linking import freshness
from service.play import Intent, repository
from service.play.moves.submit import apply
from service.store import eventstore
from service.store.models import Snapshot

PEOPLE = ["anna@example.org", "ben@example.org", "cleo@example.org"]


@pytest.fixture
def replayed(monkeypatch):
    """How many events each load of the event store returned."""
    counts: list[int] = []
    real = eventstore.load

    def load(*args, **kwargs):
        found = real(*args, **kwargs)
        counts.append(len(found))
        return found

    monkeypatch.setattr(eventstore, "load", load)
    return counts


def play_by_bots(svc, game_id: int, moves: int, seed: int = 4) -> None:
    """Moves through the use case, as links would make them."""
    rng = random.Random(seed)
    for _ in range(moves):
        with svc.db.transaction() as s:
            pos = repository.load(s, svc.states, game_id)
        seat = min(pos.engine.to_act(pos.state))
        move = pos.engine.bots["easy"](pos.state, seat, rng)
        play.submit(svc, Intent(game_id, seat, moves=[move], source="bot"))


def whole_log_state(svc, game_id: int):
    with svc.db.transaction() as s:
        row = repository.game_row(s, game_id)
        engine = repository.registry.get(row.kind)
        return engine, replay(engine, [r.event for r in eventstore.load(s, row)])


def snapshot_seqs(svc, game_id: int) -> list[int]:
    with svc.db.transaction() as s:
        return list(s.scalars(select(Snapshot.seq).where(Snapshot.game_id == game_id)
                              .order_by(Snapshot.seq)))


@pytest.fixture
def long_game(services):
    services.chance = random.Random(3)
    game_id = play.start_game(services, "aristocracy", PEOPLE, {}).game_id
    play_by_bots(services, game_id, 60)
    return game_id


def test_moves_write_a_snapshot_each_time_the_log_passes_a_multiple(services, long_game):
    seqs = snapshot_seqs(services, long_game)
    with services.db.transaction() as s:
        last = repository.game_row(s, long_game).seq
    assert len(seqs) == last // repository.SNAPSHOT_EVERY >= 2
    assert all(0 < b - a <= repository.SNAPSHOT_EVERY + 10 for a, b in zip([0, *seqs], seqs))


def test_a_cold_load_replays_only_the_events_after_the_newest_snapshot(services, long_game,
                                                                      replayed):
    services.states.clear()                     # another process: nothing cached
    with services.db.transaction() as s:
        pos = repository.load(s, services.states, long_game)
    assert replayed == [pos.seq - snapshot_seqs(services, long_game)[-1]]
    engine, truth = whole_log_state(services, long_game)
    for seat in (None, 0, 1, 2):
        assert engine.view(pos.state, seat) == engine.view(truth, seat)
    assert freshness.mark(engine, pos.state, 1) == freshness.mark(engine, truth, 1)


def test_an_older_position_is_rebuilt_from_the_snapshot_before_it(services, long_game,
                                                                  replayed):
    first = snapshot_seqs(services, long_game)[0]
    services.states.clear()
    with services.db.transaction() as s:
        then = repository.load(s, services.states, long_game, upto=first + 3)
        row = repository.game_row(s, long_game)
        engine = repository.registry.get(row.kind)
        truth = replay(engine, [r.event for r in eventstore.load(s, row, upto=first + 3)])
    assert replayed[0] == 3 and then.seq == first + 3
    assert engine.view(then.state, 0) == engine.view(truth, 0)


@pytest.mark.parametrize("spoil", [{"format": "r1:other-engine-code"}, {"state": b"not a pickle"}])
def test_a_snapshot_of_other_rules_or_code_or_unreadable_is_ignored(services, long_game,
                                                                   replayed, spoil):
    with services.db.transaction() as s:
        s.execute(update(Snapshot).where(Snapshot.game_id == long_game).values(**spoil))
    services.states.clear()
    with services.db.transaction() as s:
        pos = repository.load(s, services.states, long_game)
    assert replayed == [pos.seq]                  # the whole log, as before snapshots
    engine, truth = whole_log_state(services, long_game)
    assert engine.view(pos.state, 2) == engine.view(truth, 2)
    # and the load that had to replay so much leaves a good snapshot for the next one
    services.states.clear()
    replayed.clear()
    with services.db.transaction() as s:
        repository.load(s, services.states, long_game)
    assert replayed == []                         # the snapshot is the state: no event read


def test_a_move_rolled_back_leaves_no_state_in_the_cache(services, long_game):
    with services.db.transaction() as s:
        before = repository.load(s, services.states, long_game)
    seat = min(before.engine.to_act(before.state))
    move = before.engine.legal_moves(before.state, seat)[0]

    class Abort(Exception):
        pass

    with pytest.raises(Abort), services.db.transaction() as s:
        apply(s, services, Intent(long_game, seat, moves=[move]))
        raise Abort
    assert services.states.get(long_game)[0] == before.seq



def test_events_the_caller_has_read_are_folded_instead_of_read_again(services, long_game,
                                                                       replayed):
    """An email's news, read by the relay: a cold worker folds the position from them when
    they reach back to where its load starts (here the newest snapshot), and reads the store
    when they do not; the state is the one a replay of the log gives either way."""
    snapshots = snapshot_seqs(services, long_game)
    with services.db.transaction() as s:
        row = repository.game_row(s, long_game)
        engine = repository.registry.get(row.kind)
        upto = row.seq - 1
        everything = eventstore.load(s, row, upto=upto)
        base = max(q for q in snapshots if q <= upto)
        short = eventstore.load(s, row, after=base + 1, upto=upto)     # one event short
    truth = replay(engine, [r.event for r in everything])
    for known, reads in ((everything, []), (short, [upto - base]), ((), [upto - base])):
        services.states.clear()                 # another process: nothing cached
        replayed.clear()
        with services.db.transaction() as s:
            pos = repository.load(s, services.states, long_game, upto=upto, known=known)
        assert replayed == reads, len(known)
        assert pos.seq == upto
        for seat in (None, 0, 1, 2):
            assert engine.view(pos.state, seat) == engine.view(truth, seat)
