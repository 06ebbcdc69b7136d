"""Revision 0029_seat_turns back-fills whose move it is (`seats.to_act`) and how a game ended by
its rules (`games.outcome`) for the games already there, by folding each: after it, the rows
are what the service itself writes as games go on (tests/play/test_turn_rows.py)."""
from __future__ import annotations

import random

from alembic import command
from sqlalchemy import create_engine, select

from service import play
from service.play.players import seatchanges
from service.play.repository import SNAPSHOT_EVERY
from service.store.migrate import alembic_config, upgrade
from service.store.models import GameRow, Seat
from tests.play.test_turn_rows import _take_back
from tests.play.time.helpers import position, start
from tests.play.time.test_batch import THREE


def downgrade(url: str, revision: str) -> None:
    engine = create_engine(url)
    with engine.begin() as connection:
        cfg = alembic_config(url)
        cfg.attributes["connection"] = connection
        command.downgrade(cfg, revision)
    engine.dispose()


def played(svc, game_id: int, moves: int | None, seed: int) -> None:
    rng = random.Random(seed)
    n = 0
    while moves is None or n < moves:
        pos = position(svc, game_id)
        if pos.engine.outcome(pos.state) is not None:
            return
        seat = rng.choice(sorted(pos.engine.to_act(pos.state)))
        choice = rng.choice(pos.engine.legal_moves(pos.state, seat))
        play.submit(svc, play.Intent(game_id, seat, moves=[choice], whole_turn=True))
        n += 1
        if n % 5 == 0:
            _take_back(svc, game_id, seat)


def taken_back_behind_a_snapshot(svc) -> int:
    """A game whose last move wrote a snapshot (it passed event 50) and was then taken back:
    the back-fill cannot go on from that snapshot, and folds the whole log."""
    for seed in range(30):
        game_id = start(svc, kind="suzerain", players=THREE[:2], seed=40 + seed).game_id
        rng = random.Random(seed)
        while True:
            pos = position(svc, game_id)
            if pos.engine.outcome(pos.state) is not None:
                break
            seat = rng.choice(sorted(pos.engine.to_act(pos.state)))
            choice = rng.choice(pos.engine.legal_moves(pos.state, seat))
            last = play.submit(svc, play.Intent(game_id, seat, moves=[choice],
                                                whole_turn=True)).last_seq
            if last // SNAPSHOT_EVERY > pos.seq // SNAPSHOT_EVERY:
                _take_back(svc, game_id, seat)
                if position(svc, game_id).seq > last:      # taken back
                    return game_id
                break
    raise AssertionError("no move past a snapshot could be taken back")


def stored(svc) -> dict:
    with svc.db.transaction() as s:
        return {"to_act": s.execute(select(Seat.game_id, Seat.seat, Seat.to_act)
                                    .order_by(Seat.game_id, Seat.seat)).all(),
                "outcome": s.execute(select(GameRow.id, GameRow.outcome)
                                     .order_by(GameRow.id)).all()}


def test_existing_games_get_their_turns_and_outcomes_from_their_logs(services, db_url):
    for n, kind in enumerate(["trees", "suzerain", "magnate", "aristocracy"]):
        players = THREE if kind == "aristocracy" else THREE[:2]
        played(services, start(services, kind=kind, players=players, seed=n).game_id, 12, n)
    played(services, start(services, seed=20).game_id, None, 20)          # to its end
    taken_back_behind_a_snapshot(services)
    resigned = start(services, seed=21).game_id
    seatchanges.resign(services, resigned, 1)                             # the service's end
    before = stored(services)
    assert any(yes for *_, yes in before["to_act"])
    assert any(outcome for _, outcome in before["outcome"])
    services.dispose()

    downgrade(db_url, "0028_seat_player_index")
    upgrade(db_url)
    assert stored(services) == before
