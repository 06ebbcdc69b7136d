"""Standing challenges: matched at once with the first challenge or open seat that fits both
ways (rating, reliability, game, clock, rated), both players told by email; the open ones
listed and filtered by the same terms; bad terms and a challenge that would meet itself
refused with nothing stored; blocked players never matched."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select

from service.play.community import BadChallenge, challenges, read_terms, strength
from service.play.players import blocks, invitations
from service.store.models import Challenge, GameRow, Seat
from tests.play.community.helpers import letters_to, player


@pytest.fixture
def ratings(monkeypatch):
    """Ratings per player id (the ratings are merged beside this family; the seam is read)."""
    table: dict[int, float] = {}
    reliabilities: dict[int, float] = {}
    monkeypatch.setattr(strength, "rating_of", lambda s, pid, kind: table.get(pid))
    monkeypatch.setattr(strength, "reliability_of", lambda s, pid: reliabilities.get(pid))
    return table, reliabilities


def count(svc, model, *where):
    with svc.db.transaction() as s:
        return s.scalar(select(func.count()).select_from(model).where(*where))


def seated(svc, game_id):
    with svc.db.transaction() as s:
        return sorted(s.scalars(select(Seat.player_id).where(Seat.game_id == game_id)))


def test_two_fitting_challenges_start_a_game_and_both_are_told(services, ratings):
    table, reliable = ratings
    anna, ben = player(services, "Anna"), player(services, "Ben")
    table[anna], table[ben] = 1600, 1450
    reliable[anna], reliable[ben] = 0.95, 0.9
    first = challenges.post(services, anna, read_terms("trees", "3d", True, 1400, 1700, 80))
    assert first.game_id is None
    second = challenges.post(services, ben, read_terms("trees", "3d", True, 1500, 1700, 90))
    assert second.game_id is not None and second.opponent == "Anna"
    assert seated(services, second.game_id) == sorted([anna, ben])
    with services.db.transaction() as s:
        assert s.get(GameRow, second.game_id).clock == "3d"
        assert {c.status for c in s.scalars(select(Challenge))} == {"matched"}
    assert letters_to(services, "Anna")[0]["opponent"] == "Ben"
    assert letters_to(services, "Ben")[0]["opponent"] == "Anna"
    assert challenges.standing(services) == []


@pytest.mark.parametrize("terms, why", [
    (("trees", "3d", True, 1400, 1550), "her rating is above his range"),
    (("trees", "3d", True, None, None, 97), "her reliability is below his least"),
    (("trees", "5d", True), "another clock"),
    (("trees", "3d", False), "unrated against rated"),
    (("magnate", "3d", True), "another game"),
])
def test_a_challenge_that_does_not_fit_stands(services, ratings, terms, why):
    table, reliable = ratings
    anna, ben = player(services, "Anna"), player(services, "Ben")
    table[anna], reliable[anna] = 1600, 0.95
    challenges.post(services, anna, read_terms("trees", "3d", True))
    posted = challenges.post(services, ben, read_terms(*terms))
    assert posted.game_id is None, why
    assert count(services, Challenge, Challenge.status == "open") == 2


def test_fitting_goes_both_ways(services, ratings):
    table, _ = ratings
    anna, ben = player(services, "Anna"), player(services, "Ben")
    table[anna], table[ben] = 1600, 1200
    challenges.post(services, anna, read_terms("trees", "3d", True, 1400, 1700))
    # Ben takes anyone, but Anna does not take 1200
    assert challenges.post(services, ben, read_terms("trees", "3d")).game_id is None


def test_the_oldest_fitting_challenge_is_taken(services, ratings):
    anna, ben, cleo = (player(services, n) for n in ("Anna", "Ben", "Cleo"))
    challenges.post(services, anna, read_terms("trees", "3d"))
    challenges.post(services, ben, read_terms("trees", "5d"))
    posted = challenges.post(services, cleo, read_terms("trees", "3d"))
    assert seated(services, posted.game_id) == sorted([anna, cleo])


def test_a_newcomer_counts_at_the_starting_rating(services, ratings):
    anna, ben = player(services, "Anna"), player(services, "Ben")
    challenges.post(services, anna, read_terms("trees", "3d", True, 1600, 1800))
    assert challenges.post(services, ben, read_terms("trees", "3d")).game_id is None
    challenges.post(services, anna, read_terms("trees", "4d", True, 1400, 1600))
    assert challenges.post(services, ben, read_terms("trees", "4d")).game_id is not None


def test_an_open_seat_that_fits_is_taken(services, ratings):
    anna, ben = player(services, "Anna"), player(services, "Ben")
    formed = invitations.create_game(services, anna, "trees", [], open_seats=1,
                                     options={"clock": "3d"})
    posted = challenges.post(services, ben, read_terms("trees", "3d"))
    assert posted.game_id == formed.game_id and posted.opponent == "Anna"
    with services.db.transaction() as s:
        assert s.get(GameRow, formed.game_id).status == "active"
    assert letters_to(services, "Anna")[0]["opponent"] == "Ben"


def test_an_open_seat_on_another_clock_is_not_taken(services, ratings):
    anna, ben = player(services, "Anna"), player(services, "Ben")
    invitations.create_game(services, anna, "trees", [], open_seats=1, options={"clock": "5d"})
    assert challenges.post(services, ben, read_terms("trees", "3d")).game_id is None


@pytest.mark.parametrize("terms, words", [
    (("trees", "3d", True, 1700, 1400), "1700-1400 is empty"),
    (("chess", "3d"), "no game called"),
    (("trees", "soon"), ""),
    (("trees", "none"), "needs a clock"),
    (("trees", "3d", True, None, None, 120), "percentage"),
    (("trees", "3d", True, "lots"), "whole number"),
])
def test_bad_terms_are_refused_with_the_reason(services, terms, words):
    with pytest.raises(BadChallenge) as refused:
        read_terms(*terms)
    assert words in refused.value.detail


def test_a_challenge_that_would_meet_its_own_player_is_refused(services, ratings):
    anna = player(services, "Anna")
    challenges.post(services, anna, read_terms("trees", "3d"))
    with pytest.raises(BadChallenge, match="only meet your own"):
        challenges.post(services, anna, read_terms("trees", "3d"))
    assert count(services, Challenge) == 1
    assert count(services, GameRow) == 0


def test_blocked_players_are_never_matched(services, ratings):
    anna, ben = player(services, "Anna"), player(services, "Ben")
    blocks.block(services, anna, ben)
    challenges.post(services, anna, read_terms("trees", "3d"))
    assert challenges.post(services, ben, read_terms("trees", "3d")).game_id is None
    formed = invitations.create_game(services, anna, "trees", [], open_seats=1,
                                     options={"clock": "4d"})
    assert challenges.post(services, ben, read_terms("trees", "4d")).game_id is None
    with services.db.transaction() as s:
        assert s.get(GameRow, formed.game_id).status == "forming"
    # nor does Ben see Anna's challenge listed
    assert [c.player for c in challenges.standing(services, viewer_id=ben)] == ["Ben", "Ben"]
    assert "Anna" in [c.player for c in challenges.standing(services)]


def test_the_list_filters_by_the_same_terms(services, ratings):
    table, reliable = ratings
    anna, ben, cleo = (player(services, n) for n in ("Anna", "Ben", "Cleo"))
    reliable[cleo] = 0.5
    challenges.post(services, anna, read_terms("trees", "3d", True, 1400, 1700))
    challenges.post(services, ben, read_terms("magnate", "5d", False))
    challenges.post(services, cleo, read_terms("trees", "5d", True))

    def players(**filters):
        return [c.player for c in challenges.standing(services, **filters)]

    assert players() == ["Anna", "Ben", "Cleo"]
    assert players(kind="trees") == ["Anna", "Cleo"]
    assert players(clock="5d") == ["Ben", "Cleo"]
    assert players(rated=False) == ["Ben"]
    assert players(rating=1300) == ["Ben", "Cleo"]
    assert players(min_reliability=80) == ["Anna", "Ben"]


def test_a_withdrawn_challenge_is_matched_no_more(services, ratings):
    anna, ben = player(services, "Anna"), player(services, "Ben")
    posted = challenges.post(services, anna, read_terms("trees", "3d"))
    challenges.withdraw(services, anna, posted.challenge_id)
    with pytest.raises(BadChallenge):
        challenges.withdraw(services, anna, posted.challenge_id)
    assert challenges.post(services, ben, read_terms("trees", "3d")).game_id is None
