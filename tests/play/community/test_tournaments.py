"""Tournaments run by their games' ends: the next round when a round's last game ends, the
standings and their tie-breaks, the refusals that make nothing."""
from __future__ import annotations

import threading

import pytest
from sqlalchemy import func, select

from service import play
from service.play import community
from service.play.players import seatchanges
from service.play.time.sweep import timeouts
from service.store.models import (
    GameRow,
    OutboxRow,
    Player,
    Seat,
    Tournament,
    TournamentRound,
)
from tests.play.community.helpers import background


def test_a_tournament_of_bots_runs_to_its_end_by_itself(services):
    drain = background(services)
    made = community.create(services, "trees", "swiss", 3,
                            ["bot:easy", "bot:normal", "bot:easy", "bot:normal"])
    assert len(made.games) == 2
    drain()
    view = community.show(services, made.tournament_id)
    assert view.status == "ended" and view.round == 3
    assert [len(r.tables) for r in view.played] == [2, 2, 2]
    assert all(table.over for r in view.played for table in r.tables)
    # four entrants, three rounds: everyone met everyone once
    pairs = [frozenset(t.players) for r in view.played for t in r.tables]
    assert len(set(pairs)) == 6
    assert sum(line.points for line in view.standings) == 6
    assert all(line.played == 3 for line in view.standings)


PEOPLE = ["ann@example.org", "bob@example.org", "cy@example.org", "dee@example.org"]


def round_rows(svc, tournament_id):
    with svc.db.transaction() as s:
        return s.scalars(select(TournamentRound.round).where(
            TournamentRound.tournament_id == tournament_id)).all()


def test_two_workers_finishing_a_rounds_last_games_at_once_start_the_next_round_once(services):
    kicked: list = []
    services.enqueue = lambda job, *args: kicked.append((job, args))
    made = community.create(services, "trees", "swiss", 3, PEOPLE)
    first, second = made.games
    barrier = threading.Barrier(2)
    failures: list = []

    def run(work):
        try:
            barrier.wait()
            work()
        except Exception as exc:  # noqa: BLE001 - a thread's failure fails the test below
            failures.append(exc)

    # both games of round 1 end at the same moment (each its seat 0 resigns)...
    threads = [threading.Thread(target=run, args=(lambda g=g: seatchanges.resign(services, g, 0),))
               for g in (first, second)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert failures == []
    advances = [args for job, args in kicked if job == "tournament"]
    assert advances == [(made.tournament_id,), (made.tournament_id,)]
    # ... and both workers' kicks advance at the same moment: round 2 starts once
    threads = [threading.Thread(target=run, args=(lambda: community.advance(
        services, made.tournament_id),)) for _ in advances]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert failures == []
    assert sorted(round_rows(services, made.tournament_id)) == [1, 2]
    with services.db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(GameRow).where(
            GameRow.tournament_id == made.tournament_id)) == 3
    # the two who resigned withdrew: round 2 pairs the other two only
    view = community.show(services, made.tournament_id)
    assert [len(r.tables) for r in view.played] == [2, 1]
    assert sum(line.withdrawn for line in view.standings) == 2


def test_an_odd_number_gets_a_bye_scored_as_a_win_at_most_once_each(services):
    drain = background(services)
    made = community.create(services, "trees", "swiss", 3,
                            ["bot:easy", "bot:normal", "bot:easy"])
    drain()
    view = community.show(services, made.tournament_id)
    assert view.status == "ended"
    byes = [name for r in view.played for name in r.byes]
    assert len(byes) == 3 and len(set(byes)) == 3
    assert all(line.byes == 1 and line.played == 2 for line in view.standings)
    # three byes and three games, a point each
    assert sum(line.points for line in view.standings) == 6


def test_a_round_robin_plays_every_pair_once(services):
    drain = background(services)
    made = community.create(services, "trees", "round-robin", None,
                            ["bot:easy", "bot:normal", "bot:easy", "bot:normal"])
    drain()
    view = community.show(services, made.tournament_id)
    assert view.status == "ended" and view.rounds == 3
    pairs = [frozenset(t.players) for r in view.played for t in r.tables]
    assert len(pairs) == len(set(pairs)) == 6


def test_a_swiss_of_three_player_tables_seats_by_standing_and_runs_to_its_end(services):
    drain = background(services)
    made = community.create(services, "trees", "swiss", 2,
                            ["bot:easy", "bot:normal"] * 3 + ["bot:easy"], table=3)
    drain()
    view = community.show(services, made.tournament_id)
    assert view.status == "ended"
    assert all(len(t.players) == 3 for r in view.played for t in r.tables)
    assert [len(r.byes) for r in view.played] == [1, 1]
    assert len({b for r in view.played for b in r.byes}) == 2
    # a table of three gives 1, 1/2 and 0 (the first beat both, the second one of two); a
    # bye is a point
    assert sum(line.points for line in view.standings) == 2 * 2 * 1.5 + 2


def test_an_entrant_who_resigns_forfeits_their_remaining_games(services):
    drain = background(services)
    made = community.create(services, "trees", "round-robin", None,
                            ["ann@example.org", "bot:easy", "bot:normal", "bot:easy"])
    first = next(t for t in community.show(services, made.tournament_id).played[0].tables
                 if "ann" in t.players)
    seatchanges.resign(services, first.game_id, first.players.index("ann"))
    drain()
    view = community.show(services, made.tournament_id)
    assert view.status == "ended"
    ann = next(line for line in view.standings if line.name == "ann")
    assert ann.withdrawn and ann.played == 1 and ann.points == 0
    # her two later opponents score their games against her as won, without playing
    assert [len(r.tables) for r in view.played] == [2, 1, 1]
    assert sorted(len(r.byes) for r in view.played) == [0, 1, 1]
    assert "ann" not in {b for r in view.played for b in r.byes}
    assert sum(line.points for line in view.standings) == 6


@pytest.mark.parametrize("bulk", [True, False], ids=["batched", "per-game"])
def test_a_game_lost_on_time_ends_the_round_and_the_next_starts(services, bulk):
    drain = background(services)
    made = community.create(services, "trees", "swiss", 2, PEOPLE[:2], clock="1d")
    with services.db.transaction() as s:
        s.get(GameRow, made.games[0]).on_timeout = "forfeit"
    services.clock.advance(days=1, minutes=5)
    assert timeouts.run(services, bulk=bulk).outcomes == {"ended": 1}
    drain()
    assert sorted(round_rows(services, made.tournament_id)) == [1, 2]


def test_the_sweep_advances_a_tournament_whose_kick_was_lost(services):
    lost: list = []
    services.enqueue = lambda job, *args: lost.append(job)
    made = community.create(services, "trees", "swiss", 2, PEOPLE[:2])
    seatchanges.resign(services, made.games[0], 0)
    assert "tournament" in lost and round_rows(services, made.tournament_id) == [1]
    play.sweep(services)
    assert community.show(services, made.tournament_id).status == "ended"


def test_a_round_robin_round_of_forfeits_only_is_scored_and_the_next_round_played(services):
    drain = background(services)
    made = community.create(services, "trees", "round-robin", None,
                            ["ann@example.org", "bob@example.org", "bot:easy", "bot:normal"])
    for table in community.show(services, made.tournament_id).played[0].tables:
        person = next(name for name in table.players if name in ("ann", "bob"))
        seatchanges.resign(services, table.game_id, table.players.index(person))
    drain()
    view = community.show(services, made.tournament_id)
    assert view.status == "ended"
    # round 2 pairs each person with a bot: two forfeits, no game; round 3 the bots meet
    assert [len(r.tables) for r in view.played] == [2, 0, 1]
    assert sorted(view.played[1].byes) == ["Easy bot", "Normal bot"]


@pytest.mark.parametrize("kind, fmt, rounds, entrants, says", [
    ("trees", "swiss", 3, ["ann@example.org"], "needs 2 players at a table; only 1"),
    ("trees", "swiss", 0, PEOPLE, "from 1 to"),
    ("trees", "round-robin", 5, PEOPLE, "plays 3 rounds"),
    ("trees", "knockout", 3, PEOPLE, "not 'knockout'"),
    ("chess", "swiss", 3, PEOPLE, "no game called"),
    ("trees", "swiss", 3, ["ann@example.org", "ANN@example.org"], "different email"),
    ("trees", "swiss", 3, ["ann@example.org", "bot:hard"], "no bot called"),
])
def test_bad_tournaments_are_refused_and_make_nothing(services, kind, fmt, rounds, entrants,
                                                      says):
    with pytest.raises(community.BadTournament) as refused:
        community.create(services, kind, fmt, rounds, entrants)
    assert says in refused.value.detail
    with services.db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(Tournament)) == 0
        assert s.scalar(select(func.count()).select_from(GameRow)) == 0


def test_round_and_end_emails_go_to_people_never_to_bots(services):
    drain = background(services)
    made = community.create(services, "trees", "swiss", 1, ["ann@example.org", "bot:easy"])
    with services.db.transaction() as s:
        kinds = s.execute(select(OutboxRow.kind, OutboxRow.to_addr).where(
            OutboxRow.kind.like("tournament%"))).all()
    assert kinds == [("tournament_round", "ann@example.org")]
    seatchanges.resign(services, made.games[0], 0)
    drain()
    with services.db.transaction() as s:
        ends = s.scalars(select(OutboxRow.to_addr).where(OutboxRow.kind == "tournament_end"))
        assert list(ends) == ["ann@example.org"]
    assert community.show(services, made.tournament_id).status == "ended"


def seat_paused(svc, game_id, email):
    with svc.db.transaction() as s:
        row = s.scalars(select(Seat).join(Player).where(Seat.game_id == game_id,
                                                        Player.email == email)).one()
        return (row.clock or {}).get("paused_since") is not None


@pytest.mark.parametrize("no_vacation", [True, False])
def test_no_vacation_keeps_the_tournaments_clocks_running_through_a_vacation(services,
                                                                             no_vacation):
    drain = background(services)
    ordinary = play.start_game(services, "trees", ["ann@example.org", "zed@example.org"],
                               {"clock": "3d"})
    made = community.create(services, "trees", "swiss", 2,
                            ["ann@example.org", "bob@example.org", "bot:easy", "bot:normal"],
                            clock="3d", no_vacation=no_vacation)
    with services.db.transaction() as s:
        ann = s.scalars(select(Player.id).where(Player.email == "ann@example.org")).one()
    seatchanges.take_vacation(services, ann, "vacation 3")
    assert seat_paused(services, ordinary.game_id, "ann@example.org")
    assert seat_paused(services, made.games[0], "ann@example.org") is not no_vacation
    # a round that starts while she is away (bob resigns; the bots finish): paused only
    # where vacations count
    seatchanges.resign(services, made.games[0], 1)
    drain()
    second = [t.game_id for t in community.show(services, made.tournament_id).played[1].tables
              if "ann" in t.players]
    assert len(second) == 1
    second = second[0]
    assert seat_paused(services, second, "ann@example.org") is not no_vacation


@pytest.mark.parametrize("rated", [True, False])
def test_an_unrated_tournaments_games_are_unrated(services, rated):
    made = community.create(services, "trees", "swiss", 1, PEOPLE, rated=rated)
    with services.db.transaction() as s:
        flags = s.scalars(select(GameRow.rated).where(GameRow.id.in_(made.games))).all()
    assert flags == [rated, rated]
