"""/me shows what is at risk first: the games whose deadline falls in the next 24 hours,
soonest first, each with its deadline in the player's own zone and how soon it is."""
from __future__ import annotations

from sqlalchemy import select, update

from service.play.reads import mygames
from service.store.models import Player
from tests.play.time.helpers import seats, start, to_act

ANNA = "Anna <anna@example.org>"


def test_games_due_within_24_hours_come_first_in_the_player_zone(services):
    games = [start(services, players=[ANNA, other], clock=clock, seed=seed)
             for other, clock, seed in (("Ben <ben@example.org>", "3d", 3),
                                        ("Carla <carla@example.org>", "30h", 3),
                                        ("Dan <dan@example.org>", "20h", 3))]
    with services.db.transaction() as s:
        s.execute(update(Player).where(Player.email == "anna@example.org")
                  .values(zone="America/New_York"))
        anna = s.scalar(select(Player.id).where(Player.email == "anna@example.org"))
    mine = [g.game_id for g in games
            if seats(services, g.game_id)[to_act(services, g.game_id)[0]]["player"]
            == "anna@example.org"]
    services.clock.advance(hours=8)
    page = mygames.my_games(services, anna)
    # 20h game: 12 hours left; 30h game: 22 hours left; the 3-day game is not at risk
    expected = [g for g in (games[2].game_id, games[1].game_id) if g in mine]
    assert len(expected) == 2 and [line.game_id for line in page.at_risk] == expected
    for line in page.at_risk:
        assert line.time_left.endswith("hours)") and ("EST" in line.time_left)
