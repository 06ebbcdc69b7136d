"""Two players posting at once, each fitting one standing challenge: it is taken once (the
conditional UPDATE open -> matched), one game starts, and the loser of the race stands. On
PostgreSQL the two transactions truly overlap; SQLite serializes them."""
from __future__ import annotations

import threading

from sqlalchemy import func, select

from service.play.community import challenges, read_terms
from service.store.models import Challenge, GameRow, Seat
from tests.play.community.helpers import player


def test_one_challenge_is_taken_once_when_two_match_it_at_once(services):
    anna, ben, cleo = (player(services, n) for n in ("Anna", "Ben", "Cleo"))
    challenges.post(services, anna, read_terms("trees", "3d"))
    start = threading.Barrier(2)
    posted, failed = {}, []

    def post(pid):
        try:
            start.wait()
            posted[pid] = challenges.post(services, pid, read_terms("trees", "3d"))
        except Exception as exc:         # a lost race must not be an error either
            failed.append(exc)

    threads = [threading.Thread(target=post, args=(p,)) for p in (ben, cleo)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failed == []
    with services.db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(GameRow)) == 1
        game_id = s.scalar(select(GameRow.id))
        players = set(s.scalars(select(Seat.player_id).where(Seat.game_id == game_id)))
        statuses = dict(s.execute(select(Challenge.player_id, Challenge.status)).all())
    assert anna in players and len(players) == 2
    assert statuses[anna] == "matched"
    assert sorted(statuses.values()) == ["matched", "matched", "open"]
    assert sum(p.game_id is not None for p in posted.values()) == 1
