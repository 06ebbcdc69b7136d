"""What matching reads of a player is the ratings' own: the rating a finished rated game gave
them, their reliability from the log, and the rated option a matched game starts with."""
from __future__ import annotations

from sqlalchemy import select

from service.play.community import strength
from service.play.community.ratings import player_rater, standing
from service.play.players import seatchanges
from service.store.models import GameRow, Player
from tests.play.time.helpers import start

ANNA, BEN = "Anna <anna@example.org>", "Ben <ben@example.org>"


def ids(svc):
    with svc.db.transaction() as s:
        return {p.email: p.id for p in s.scalars(select(Player))}


def test_before_any_game_a_player_has_no_rating_and_no_reliability(services):
    start(services, players=[ANNA, BEN])
    anna = ids(services)["anna@example.org"]
    with services.db.transaction() as s:
        assert strength.rating_of(s, anna, "trees") is None
        assert strength.reliability_of(s, anna) is None


def test_the_rating_read_is_the_one_a_rated_game_gave(services):
    g = start(services, players=[ANNA, BEN])
    seatchanges.resign(services, g.game_id, 1)          # Ben resigns: Anna wins, both rated
    anna, ben = ids(services)["anna@example.org"], ids(services)["ben@example.org"]
    with services.db.transaction() as s:
        mine = standing(s, "trees", player_rater(anna))
        assert strength.rating_of(s, anna, "trees") == mine.rating
        assert strength.rating_of(s, anna, "trees") > strength.rating_of(s, ben, "trees")
        assert strength.rating_of(s, anna, "magnate") is None


def test_the_rated_option_makes_the_game_rated_or_not(services):
    g = start(services, players=[ANNA, BEN], **strength.rated_option(False))
    with services.db.transaction() as s:
        game = s.get(GameRow, g.game_id)
        assert game.rated is False and strength.game_rated(game) is False
    assert strength.rated_option(True) == {"rated": "on"}
