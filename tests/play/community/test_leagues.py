"""Leagues: a whole season of people and bots in two divisions, played to its end through the
use cases, and the next season with the top and bottom players moved; joining by the signed
link; the season's letters; the refusals that make nothing."""
from __future__ import annotations

import random
import threading

import pytest
from sqlalchemy import select

from service import play
from service.linking.signer import Tampered
from service.play import community, repository
from service.play.community import leagues, leagueshow
from service.play.players import erasure, seatchanges
from service.play.reads import mydata
from service.play.time.sweep import timeouts
from service.store.models import (
    GameRow,
    LeagueDivision,
    LeagueMember,
    OutboxRow,
    Seat,
    Tournament,
)
from service.store.statuses import GameStatus, SeatStatus
from tests.play.community.helpers import background, player

#: six entered by the operator (people and bots mixed), two who join by the link
ENTERED = ["ann@example.org", "bot:easy", "bob@example.org", "bot:normal", "bot:easy",
           "bot:normal"]
JOINERS = ["Cy", "Dee"]



def people_move(svc, rng: random.Random, idle: str = "") -> int:
    """Every person (but `idle`) to act in a league game makes a seeded random legal move,
    through the same use case a page's button calls. Returns the moves made."""
    made = 0
    with svc.db.transaction() as s:
        games = s.scalars(select(GameRow.id).where(
            GameRow.tournament_id.in_(select(LeagueDivision.tournament_id)),
            GameRow.status != GameStatus.ENDED).order_by(GameRow.id)).all()
    for game_id in games:
        with svc.db.transaction() as s:
            pos = repository.load(s, svc.states, game_id)
            people = {r.seat for r in pos.row.seats if not r.player.email.endswith(".invalid")
                      and r.player.email != idle}
            moves = [(seat, rng.choice(pos.engine.legal_moves(pos.state, seat)))
                     for seat in sorted(pos.engine.to_act(pos.state) & people)]
        for seat, move in moves:
            play.submit(svc, play.Intent(game_id, seat, moves=[move], source="web"))
            made += 1
    return made


def play_season(svc, drain, league_id: int, season: int) -> None:
    rng = random.Random(7)
    drain()
    for _ in range(5000):
        if leagueshow.show(svc, league_id).season > season:
            return
        if not people_move(svc, rng):
            drain()
            assert leagueshow.show(svc, league_id).season > season, "the season stalled"
            return
        drain()
    raise AssertionError("the season did not end")


def make_league(svc, **terms):
    terms = {"divisions": 2, "size": 4, "season_days": 30, "promote": 1} | terms
    made = leagues.create(svc, "trees", entrants=ENTERED, **terms)
    assert not made.started
    token = svc.urls.league_join_path(made.league_id).rsplit("/", 1)[1]
    answers = [leagues.join(svc, token, player(svc, name)) for name in JOINERS]
    assert answers == ["joined", "started"]
    return made.league_id


def names(view) -> list[list[str]]:
    return [[line.name for line in d.standings] for d in view.shown]


def test_a_league_of_eight_plays_a_season_to_its_end_and_the_next_moves_top_and_bottom(
        services):
    drain = background(services, jobs_at_most=20_000)
    league_id = make_league(services)
    first = leagueshow.show(services, league_id)
    assert first.status == "running" and first.season == 1
    # by order of joining: people and bots in both divisions
    assert sorted(names(first)[0]) == sorted(["ann", "Easy bot 1", "bob", "Normal bot 1"])
    assert sorted(names(first)[1]) == sorted(["Easy bot 2", "Normal bot 2", "Cy", "Dee"])

    play_season(services, drain, league_id, 1)

    with services.db.transaction() as s:
        season_one = s.scalars(select(LeagueDivision.tournament_id).where(
            LeagueDivision.league_id == league_id, LeagueDivision.season == 1)
            .order_by(LeagueDivision.division)).all()
        assert [s.get(Tournament, t).status for t in season_one] == ["ended", "ended"]
        # a round robin of four: every game of the season played to its end
        games = s.scalars(select(GameRow).where(GameRow.tournament_id.in_(season_one))).all()
        assert len(games) == 12 and all(g.status == GameStatus.ENDED for g in games)
        finals = [[line.player_id for line in community.standings.compute(
            s, services, s.get(Tournament, t))] for t in season_one]
    top, bottom = finals
    second = leagueshow.show(services, league_id)
    assert second.season == 2 and second.status == "running"
    now_in = [[line.player_id for line in d.standings] for d in second.shown]
    # the last of the top division and the first of the bottom one changed places
    assert set(now_in[0]) == set(top[:-1]) | {bottom[0]}
    assert set(now_in[1]) == set(bottom[1:]) | {top[-1]}
    # a season of its own: new round robins, not the old ones continued
    assert {d.tournament_id for d in second.shown}.isdisjoint(season_one)


def test_the_season_letters_say_division_opponents_place_and_move(services):
    drain = background(services, jobs_at_most=20_000)
    league_id = make_league(services)
    with services.db.transaction() as s:
        starts = {r.to_addr: r.payload for r in s.scalars(select(OutboxRow).where(
            OutboxRow.kind == "league_season_start"))}
    # one to each person, none to a bot
    assert sorted(starts) == ["ann@example.org", "bob@example.org", "cy@example.org",
                              "dee@example.org"]
    assert starts["cy@example.org"]["division"] == 2
    assert sorted(starts["cy@example.org"]["opponents"]) == ["Dee", "Easy bot 2",
                                                            "Normal bot 2"]
    assert "per move" in starts["ann@example.org"]["clock"]
    play_season(services, drain, league_id, 1)
    with services.db.transaction() as s:
        ends = {r.to_addr: r.payload for r in s.scalars(select(OutboxRow).where(
            OutboxRow.kind == "league_season_end"))}
        members = {m.player.email: m for m in s.scalars(select(LeagueMember))}
        assert sorted(ends) == sorted(starts)
        for addr, letter in ends.items():
            d, place = letter["division"], letter["place"]
            moved_up = d == 2 and place == 1
            moved_down = d == 1 and place == 4
            expected = ("promoted" if moved_up else "relegated" if moved_down
                        else f"division {d}")
            assert expected in letter["fate"], letter
            assert members[addr].division == (1 if moved_up else 2 if moved_down else d)
            assert len(letter["standings"]) == 4


def test_joining_twice_changes_nothing_and_says_so(services):
    made = leagues.create(services, "trees", 2, 4, 30, 1, ["bot:easy"])
    token = services.urls.league_join_path(made.league_id).rsplit("/", 1)[1]
    cy = player(services, "Cy")
    assert leagues.join(services, token, cy) == "joined"
    assert leagues.join(services, token, cy) == "already"
    view = leagueshow.show(services, made.league_id)
    assert view.waiting == ["Easy bot", "Cy"] and view.status == "forming"


def test_a_tampered_or_foreign_link_joins_nothing(services):
    made = leagues.create(services, "trees", 2, 4, 30, 1)
    token = services.urls.league_join_path(made.league_id).rsplit("/", 1)[1]
    cy = player(services, "Cy")
    with pytest.raises(Tampered):
        leagues.join(services, token[:-3] + ("aaa" if token[-3:] != "aaa" else "bbb"), cy)
    # a tournament's invitation is not a league's join link
    foreign = services.urls.tournament_invitation_path(made.league_id, 1, "accept")
    with pytest.raises(Exception) as caught:
        leagues.join(services, foreign.split("/")[3], cy)
    assert "join a league" in str(caught.value)
    assert leagueshow.show(services, made.league_id).waiting == []


def test_one_who_leaves_is_not_in_the_next_season_and_the_place_fills_from_below(services):
    drain = background(services, jobs_at_most=20_000)
    league_id = make_league(services)
    with services.db.transaction() as s:
        ann = s.scalars(select(LeagueMember).join(LeagueMember.player).where(
            LeagueMember.league_id == league_id)).first().player_id
    leagues.leave(services, league_id, ann)
    with pytest.raises(leagues.JoinRefused):
        leagues.leave(services, league_id, ann)
    play_season(services, drain, league_id, 1)
    second = leagueshow.show(services, league_id)
    seated = [line.player_id for d in second.shown for line in d.standings]
    assert ann not in seated and len(seated) == 7
    assert [len(d.standings) for d in second.shown] == [4, 3]


@pytest.mark.parametrize(("terms", "words"), [
    ({"divisions": 0}, "from 1 to 10 divisions"),
    ({"size": 1}, "from 2 to 20 players"),
    ({"promote": 3}, "from 1 to 2 players move up"),
    ({"season_days": 0}, "from 1 to 365 days"),
    ({"size": 20, "season_days": 1}, "at least 2 days"),
])
def test_bad_terms_are_refused_and_make_nothing(services, terms, words):
    terms = {"divisions": 2, "size": 4, "season_days": 30, "promote": 1} | terms
    with pytest.raises(leagues.BadLeague) as refused:
        leagues.create(services, "trees", **terms)
    assert words in refused.value.detail
    with pytest.raises(leagues.BadLeague, match="no game called 'chess'"):
        leagues.create(services, "chess", 2, 4, 30, 1)
    assert community.leagueshow.listed(services) == []


def test_a_members_league_is_in_their_export_and_erasing_them_leaves_it(services):
    made = leagues.create(services, "trees", 2, 4, 30, 1, ["cy@example.org", "bot:easy"])
    cy = player(services, "Cy")
    doc = mydata.export(services, cy)
    assert doc["leagues"] == [{"league": made.league_id, "kind": "trees", "season": 0,
                               "division": None, "joined_at": doc["leagues"][0]["joined_at"],
                               "left_at": None}]
    erasure.erase(services, "cy@example.org")
    with services.db.transaction() as s:
        member = s.get(LeagueMember, (made.league_id, cy))
        assert member.left_at is not None
    assert leagueshow.show(services, made.league_id).waiting == ["Easy bot"]


def test_one_who_stops_playing_loses_on_time_and_is_not_in_the_next_season(services):
    """Two divisions of two: Ann plays her bot, Bob never moves. The clocks end his game (a
    league's seat out of time forfeits), the season ends with it, and he is out."""
    drain = background(services, jobs_at_most=20_000)
    made = leagues.create(services, "trees", 2, 2, 10, 1,
                          ["ann@example.org", "bot:easy", "bob@example.org", "bot:normal"])
    assert made.started
    bob = player(services, "Bob")
    rng = random.Random(3)
    drain()
    for _ in range(400):
        if not people_move(services, rng, idle="bob@example.org"):
            break
        drain()
    services.clock.advance(days=6)
    timeouts.run(services)
    drain()
    with services.db.transaction() as s:
        seat = s.scalars(select(Seat).where(Seat.player_id == bob)).one()
        assert seat.status == SeatStatus.FORFEITED
        assert s.get(LeagueMember, (made.league_id, bob)).left_at is not None
        letter = s.scalars(select(OutboxRow).where(
            OutboxRow.kind == "league_season_end",
            OutboxRow.to_addr == "bob@example.org")).one().payload
    assert "You have left the league" in letter["fate"]
    second = leagueshow.show(services, made.league_id)
    assert second.season == 2
    assert bob not in [line.player_id for d in second.shown for line in d.standings]
    # three left: a last division of one joins the one above
    assert [len(d.standings) for d in second.shown] == [3]



def test_two_divisions_ending_at_once_end_the_season_once(services):
    kicked: list = []
    services.enqueue = lambda job, *args: kicked.append((job, args))
    made = leagues.create(services, "trees", 2, 2, 10, 1, ["ann@example.org", "bob@example.org",
                                                           "cy@example.org", "dee@example.org"])
    with services.db.transaction() as s:
        games = s.scalars(select(GameRow.id).order_by(GameRow.id)).all()
    assert len(games) == 2
    for game_id in games:                       # each division's one game ends
        seatchanges.resign(services, game_id, 0)
    divisions = [args for job, args in kicked if job == "tournament"]
    assert len(divisions) == 2
    barrier = threading.Barrier(2)
    failures: list = []

    def advance(tournament_id):
        try:
            barrier.wait()
            play.advance_tournament(services, tournament_id)
        except Exception as exc:  # noqa: BLE001 - a thread's failure fails the test below
            failures.append(exc)

    threads = [threading.Thread(target=advance, args=args) for args in divisions]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert failures == []
    with services.db.transaction() as s:
        seasons = s.scalars(select(LeagueDivision.season).where(
            LeagueDivision.league_id == made.league_id)).all()
        ends = s.scalars(select(OutboxRow.to_addr).where(
            OutboxRow.kind == "league_season_end")).all()
    assert sorted(seasons) == [1, 1, 2]         # one division next season: the two who stayed
    assert sorted(ends) == ["ann@example.org", "bob@example.org", "cy@example.org",
                            "dee@example.org"]
