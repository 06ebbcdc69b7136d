"""Ratings change when a rated game ends, in the transaction that records the end, once per
game: a win, a shared place at a table of three, a resignation and a forfeit on time (losses),
unrated and practice games (never), a repeated end (rated once), and a rebuild from the logs
that gives the numbers the ends gave one by one."""
from __future__ import annotations

import random
import threading

import pytest
from sqlalchemy import func, select

from service import play
from service.games.contract import Outcome
from service.play import community, repository
from service.play.players import seatchanges
from service.play.time import ending
from service.play.time.sweep import timeouts
from service.store.models import GameRow, Player, Rating, RatingChange
from tests.play.helpers import position
from tests.play.time.helpers import move, start, to_act

ANNA, BEN, CARLA = ("Anna <anna@example.org>", "Ben <ben@example.org>",
                    "Carla <carla@example.org>")


def rater(svc, email: str) -> str:
    with svc.db.transaction() as s:
        return f"player:{s.scalars(select(Player.id).where(Player.email == email)).one()}"


def rating_table(svc, kind="trees") -> dict[str, tuple[float, float, int]]:
    with svc.db.transaction() as s:
        return {r.rater: (r.mu, r.sigma, r.games)
                for r in s.scalars(select(Rating).where(Rating.kind == kind))}


def changes(svc) -> list[tuple]:
    with svc.db.transaction() as s:
        return [(r.game_id, r.rater, r.rank, r.mu_before, r.mu, r.sigma, r.games)
                for r in s.scalars(select(RatingChange).order_by(RatingChange.id))]


def _resigned(svc, players, seat):
    g = start(svc, players=players, seed=50 + len(changes(svc)))
    seatchanges.resign(svc, g.game_id, seat)
    return g


def play_out(svc, game_id):
    while to_act(svc, game_id):
        move(svc, game_id)


def test_a_two_player_win_raises_the_winner_and_lowers_the_loser(services):
    g = start(services, turn_cap=2)
    play_out(services, g.game_id)
    with services.db.transaction() as s:
        pos = repository.load(s, services.states, g.game_id)
        outcome = pos.engine.outcome(pos.state)
        assert pos.row.status == "ended"
    found = rating_table(services)
    anna, ben = found[rater(services, "anna@example.org")], found[rater(services, "ben@example.org")]
    assert anna[2] == ben[2] == 1
    if len(outcome.winners) == 2:
        assert anna[0] == ben[0]
    else:
        won, lost = (anna, ben) if outcome.winners == (0,) else (ben, anna)
        assert won[0] > community.MODEL.mu > lost[0]


def test_resigning_rates_as_a_loss(services):
    g = start(services)
    seatchanges.resign(services, g.game_id, 0)          # Anna resigns: Ben wins
    found = rating_table(services)
    anna, ben = found[rater(services, "anna@example.org")], found[rater(services, "ben@example.org")]
    assert ben[0] > community.MODEL.mu > anna[0]
    assert ben[1] < community.MODEL.sigma              # less uncertain after a game
    assert [c[2] for c in changes(services)] in ([1, 2], [2, 1])


def test_a_shared_first_place_at_a_table_of_three(services):
    g = start(services, kind="aristocracy", players=[ANNA, BEN, CARLA])
    with services.db.transaction() as s:
        game = s.get(GameRow, g.game_id)
        ending.finish(s, game, services.clock.now(),
                      outcome=Outcome((5.0, 5.0, 2.0), (0, 1), "test"))
    found = rating_table(services, "aristocracy")
    anna, ben, carla = (found[rater(services, f"{n}@example.org")]
                        for n in ("anna", "ben", "carla"))
    assert anna == ben
    assert anna[0] > community.MODEL.mu > carla[0]
    assert sorted(c[2] for c in changes(services)) == [1, 1, 3]


def test_a_seat_that_resigned_ranks_last_whatever_its_score(services):
    g = start(services, kind="aristocracy", players=[ANNA, BEN, CARLA])
    seatchanges.resign(services, g.game_id, 0)
    with services.db.transaction() as s:
        game = s.get(GameRow, g.game_id)
        assert community.places(game, Outcome((9.0, 5.0, 2.0), (0,), "test")) == \
            {0: 3, 1: 1, 2: 2}


def test_an_unrated_game_and_a_practice_game_change_no_rating(services):
    g = start(services, rated="off")
    seatchanges.resign(services, g.game_id, 0)
    practice, _ = play.start_practice(services, "trees", 2, "normal", {})
    seatchanges.resign(services, practice.game_id, 0)
    assert rating_table(services) == {} and changes(services) == []


def test_a_bad_rated_option_is_refused(services):
    with pytest.raises(play.BadStart, match="rated"):
        start(services, rated="maybe")


def test_a_bot_level_is_a_rated_player_of_its_own(services):
    g = start(services, players=[ANNA, "bot:normal"])
    seatchanges.resign(services, g.game_id, 0)
    assert rating_table(services)["bot:normal"][0] > community.MODEL.mu


def test_a_repeated_end_rates_the_game_once(services):
    g = start(services)
    seatchanges.resign(services, g.game_id, 1)
    before, rows = rating_table(services), changes(services)
    with services.db.transaction() as s:         # a replay, an import, a second sweeper
        game = s.get(GameRow, g.game_id)
        ending.finish(s, game, services.clock.now())
    assert rating_table(services) == before and changes(services) == rows


@pytest.mark.parametrize("bulk", [False, True])
def test_a_forfeit_on_time_rates_as_a_loss_on_either_sweep(services, bulk):
    g = start(services, clock="1d", on_timeout="forfeit")
    late = to_act(services, g.game_id)[0]
    services.clock.advance(days=1, minutes=1)
    timeouts.run(services, bulk=bulk)
    with services.db.transaction() as s:
        assert s.get(GameRow, g.game_id).status == "ended"
    by_seat = {c[2]: c for c in changes(services)}
    assert set(by_seat) == {1, 2}
    loser = rater(services, ["anna@example.org", "ben@example.org"][late])
    assert by_seat[2][1] == loser


def test_a_rebuild_from_the_logs_gives_the_incremental_numbers(services):
    for n, players in enumerate([[ANNA, BEN], [BEN, CARLA], [ANNA, CARLA], [ANNA, "bot:easy"]]):
        g = start(services, players=players, seed=20 + n, turn_cap=2)
        if n % 2:
            seatchanges.resign(services, g.game_id, n % 2)
        else:
            play_out(services, g.game_id)
    three = start(services, kind="aristocracy", players=[ANNA, BEN, CARLA])
    seatchanges.resign(services, three.game_id, 2)
    seatchanges.resign(services, three.game_id, 1)      # one left: the game ends
    incremental, rows = rating_table(services), changes(services)
    three_players = rating_table(services, "aristocracy")
    assert len(incremental) == 4 and len(three_players) == 3
    assert community.rebuild(services, "trees") == 4
    assert rating_table(services) == incremental
    assert community.rebuild(services) == 5
    assert rating_table(services) == incremental
    assert rating_table(services, "aristocracy") == three_players
    assert sorted(changes(services), key=lambda c: (c[0], c[1])) == \
        sorted(rows, key=lambda c: (c[0], c[1]))


def test_provisional_until_ten_games(services):
    for n in range(10):
        g = start(services, seed=40 + n)
        seatchanges.resign(services, g.game_id, 1)
        with services.db.transaction() as s:
            mine = community.standing(s, "trees", rater(services, "anna@example.org"))
        assert mine.provisional == (n < 9)
    with services.db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(RatingChange)) == 20


class MeetingModel:
    """The rating model, but each game's update first waits (a second at most) for the other
    game's: without the rating row's lock both would read Anna's rating before either wrote."""

    def __init__(self, model, meeting):
        self.model, self.meeting = model, meeting

    def __getattr__(self, name):
        return getattr(self.model, name)

    def rate(self, *args, **kwargs):
        try:
            self.meeting.wait()
        except threading.BrokenBarrierError:
            pass                     # the other waits for our lock: go on alone
        return self.model.rate(*args, **kwargs)


def test_games_ending_at_once_for_one_player_both_count_and_rebuild_alike(services, monkeypatch):
    """Two games of Anna's end at the same moment (threads; on PostgreSQL too): each reads the
    rating the other left, none is lost, and a rebuild gives the same numbers."""
    from service.play.community import ratings
    from tests.play.time.test_race import run_together
    _ = _resigned(services, [ANNA, BEN], 1)      # their ratings exist: no insert to wait on
    _ = _resigned(services, [ANNA, CARLA], 1)
    one = start(services, players=[ANNA, BEN], seed=60)
    two = start(services, players=[ANNA, CARLA], seed=70)
    model = ratings.MODEL
    monkeypatch.setattr(ratings, "MODEL",
                        MeetingModel(model, threading.Barrier(2, timeout=1)))
    results = run_together(lambda: seatchanges.resign(services, one.game_id, 1),
                           lambda: seatchanges.resign(services, two.game_id, 1))
    assert not any(isinstance(r, Exception) for r in results), results
    monkeypatch.setattr(ratings, "MODEL", model)
    found = rating_table(services)
    assert found[rater(services, "anna@example.org")][2] == 4
    community.rebuild(services)
    assert rating_table(services) == found


@pytest.mark.parametrize("bulk", [False, True])
def test_a_timeout_move_that_ends_the_game_rates_it_on_either_sweep(services, bulk):
    g = start(services, clock="1d", turn_cap=1)
    while True:                         # moves in time until the clock's move would be the last
        pos = position(services, g.game_id)
        seat = to_act(services, g.game_id)[0]
        m = pos.engine.legal_moves(pos.state, seat)[0]
        after = pos.state
        for event in pos.engine.decide(pos.state, seat, m, random.Random(1)):
            after = pos.engine.evolve(after, event)
        if pos.engine.outcome(after) is not None:
            break
        move(services, g.game_id)
    services.clock.advance(days=1, minutes=1)
    timeouts.run(services, bulk=bulk)
    with services.db.transaction() as s:
        assert s.get(GameRow, g.game_id).status == "ended"
    rows = changes(services)
    assert len(rows) == 2 and {r[0] for r in rows} == {g.game_id}


def test_places_stored_at_the_end_equal_those_made_from_the_outcome(services):
    """A seat that left ranks last; the end stores the places with the result, and a reader
    (a rebuild, the standings) reads them back: the same places, the others still in score
    order."""
    four = [ANNA, BEN, CARLA, "Dora <dora@example.org>"]
    g = start(services, kind="aristocracy", players=four)
    seatchanges.resign(services, g.game_id, 3)
    outcome = Outcome((5.0, 3.0, 4.0, 9.0), (3,), "test")
    with services.db.transaction() as s:
        game = s.get(GameRow, g.game_id)
        from_outcome = community.places(game, outcome)
        ending.finish(s, game, services.clock.now(), outcome=outcome)
        assert community.places(game) == from_outcome == {0: 1, 1: 3, 2: 2, 3: 4}
