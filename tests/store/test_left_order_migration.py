"""Revision 0032_seat_left_order numbers the seats that had left their games already, in the
order they left (their seat changes), so that RULINGS P1 ranks the first to leave lowest in the
games that were under way: after it the rows are what the service itself writes as seats
leave (tests/play/community/test_ranking.py)."""
from __future__ import annotations

from sqlalchemy import select

from service.play.players import seatchanges
from service.store.migrate import upgrade
from service.store.models import Seat
from tests.play.time.helpers import start
from tests.play.time.test_batch import THREE
from tests.store.test_turns_migration import downgrade

FOUR = [*THREE, "Dora <dora@example.org>"]


def numbered(svc) -> list[tuple[int, int, int | None]]:
    with svc.db.transaction() as s:
        return s.execute(select(Seat.game_id, Seat.seat, Seat.left_order)
                         .order_by(Seat.game_id, Seat.seat)).all()


def test_seats_that_left_are_numbered_in_the_order_they_left(services, db_url):
    under_way = start(services, kind="aristocracy", players=FOUR, seed=1).game_id
    seatchanges.resign(services, under_way, 2)          # first
    seatchanges.resign(services, under_way, 0)          # then
    ended = start(services, kind="aristocracy", players=THREE, seed=2).game_id
    seatchanges.resign(services, ended, 1)
    seatchanges.resign(services, ended, 2)              # the game ends
    before = numbered(services)
    assert [n for g, _, n in before if g == under_way] == [2, None, 1, None]
    assert [n for g, _, n in before if g == ended] == [None, 1, 2]
    services.dispose()

    downgrade(db_url, "0031_seat_player_game_index")
    upgrade(db_url)
    assert numbered(services) == before
