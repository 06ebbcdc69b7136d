"""Leagues (issue 50, item 5): a league of 8, people and bots, in two divisions of four, plays
a whole season (a round robin in each division) to its end; the next season starts at once
with the top of the second division moved up and the bottom of the first moved down, and
the people are told by email (their division and opponents; their place, up or down)."""
from __future__ import annotations

import random

import pytest
from sqlalchemy import select

from service import play
from service.play import community
from service.play import repository as positions
from service.store.models import GameRow, LeagueMember, LeagueSeason, Player, Seat

from ..web.helpers import form_client, mails, sign_in, start_game, text_of

PEOPLE = ["ann@example.org", "bea@example.org", "cy@example.org", "dee@example.org"]
BOTS = ["bot:easy", "bot:normal", "bot:easy", "bot:normal"]


def _play_people(app, league_id, season):
    """The people's moves in the season's games, at random (bots move by themselves), until
    every game of the season has ended."""
    svc = app.extensions["turnpost"]
    rng = random.Random(5)
    for _ in range(5000):
        with svc.db.transaction() as s:
            ts = s.scalars(select(LeagueSeason.tournament_id).where(
                LeagueSeason.league_id == league_id, LeagueSeason.season == season)).all()
            due = s.execute(select(Seat.game_id, Seat.seat).join(
                GameRow, GameRow.id == Seat.game_id).where(
                GameRow.tournament_id.in_(ts), GameRow.status == "active",
                Seat.to_act.is_(True), Seat.bot.is_(None)).limit(1)).first()
        if due is None:
            play.sweep(svc)           # a stalled bot, a tournament's lost kick
            with svc.db.transaction() as s:
                if not s.scalar(select(GameRow.id).where(GameRow.tournament_id.in_(ts),
                                                         GameRow.status == "active")):
                    return
            continue
        with svc.db.transaction() as s:
            pos = positions.load(s, svc.states, due.game_id)
        move = rng.choice(pos.engine.legal_moves(pos.state, due.seat))
        play.submit(svc, play.Intent(due.game_id, due.seat, moves=[move], source="web"))
    raise AssertionError("the season never ended")


def _divisions(app, league_id) -> dict[str, int]:
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        return {m.player.email: m.division for m in s.scalars(
            select(LeagueMember).where(LeagueMember.league_id == league_id))}


def test_a_season_plays_to_its_end_and_the_next_moves_the_top_and_bottom(app):
    svc = app.extensions["turnpost"]
    league = community.leagues.create(svc, "suzerain", divisions=2, size=4, season_days=20,
                                      promote=1)
    # people and bots alternate, so each division has both
    entrants = [x for pair in zip(PEOPLE, BOTS, strict=True) for x in pair]
    assert community.leagues.enter(svc, league, entrants[:7]) == 7
    assert community.leagues.show(svc, league).season == 0         # waits to be full
    community.leagues.enter(svc, league, entrants[7:])
    view = community.leagues.show(svc, league)
    assert view.season == 1 and view.status == "running"
    before = _divisions(app, league)
    assert sorted(before.values()) == [1, 1, 1, 1, 2, 2, 2, 2]
    started = [m for m in mails(app) if "season 1 begins" in m["Subject"]]
    assert {m["To"] for m in started} == set(PEOPLE)
    assert "division" in text_of(started[0]) and "round robin against" in text_of(started[0])

    with svc.db.transaction() as s:
        first = {d: t for d, t in s.execute(select(LeagueSeason.division,
                                                   LeagueSeason.tournament_id).where(
            LeagueSeason.league_id == league, LeagueSeason.season == 1))}
    _play_people(app, league, 1)
    with svc.db.transaction() as s:
        boards = {d: [line.player_id for line in community.standings.compute(
            s, svc, s.get(community.tournaments.Tournament, t))] for d, t in first.items()}
        emails = dict(s.execute(select(Player.id, Player.email)).all())
    view = community.leagues.show(svc, league)
    assert view.season == 2
    after = _divisions(app, league)
    top_of_two, bottom_of_one = emails[boards[2][0]], emails[boards[1][-1]]
    assert after[top_of_two] == 1 and after[bottom_of_one] == 2
    assert sorted(after.values()) == [1, 1, 1, 1, 2, 2, 2, 2]
    # the second season's round robins have the new divisions
    with svc.db.transaction() as s:
        second = dict(s.execute(select(LeagueSeason.division, LeagueSeason.tournament_id)
                                .where(LeagueSeason.league_id == league,
                                       LeagueSeason.season == 2)).all())
        entered = {d: {e.player.email for e in community.tournaments.entrants_of(s, t)}
                   for d, t in second.items()}
    assert top_of_two in entered[1] and bottom_of_one in entered[2]
    ends = [m for m in mails(app) if "season 1 is over" in m["Subject"]]
    assert {m["To"] for m in ends} == set(PEOPLE)
    assert any("up to division 1" in text_of(m) or "down to division 2" in text_of(m)
               or "stay in division" in text_of(m) for m in ends)


def test_a_league_is_checked_before_it_is_made(app):
    svc = app.extensions["turnpost"]
    with pytest.raises(community.leagues.LeagueRefused, match="no game called"):
        community.leagues.create(svc, "chess", 2, 4, 20, 1)
    with pytest.raises(community.leagues.LeagueRefused, match="1 to 10 divisions"):
        community.leagues.create(svc, "suzerain", 0, 4, 20, 1)
    with pytest.raises(community.leagues.LeagueRefused, match="1 to 2 can move"):
        community.leagues.create(svc, "suzerain", 2, 4, 20, 3)


def test_joining_by_the_signed_link_on_the_lobby_page(app):
    svc = app.extensions["turnpost"]
    league = community.leagues.create(svc, "suzerain", 1, 2, 10, 1)
    start_game(app, "trees", ["zoe@example.org", "yan@example.org"])
    client = form_client(app)
    sign_in(client, app, "zoe@example.org")
    page = client.get("/leagues").text
    assert f"league-{league}" in page and "/leagues/join/" in page
    path = "/leagues/join/" + page.split("/leagues/join/")[1].split('"')[0]
    assert "Join" in client.get(path).text
    answer = client.post(path, data={}, follow_redirects=True).text
    assert "You joined" in answer
    again = client.post(path, data={}, follow_redirects=True).text
    assert "already" in again
    assert community.leagues.show(svc, league).joined == 1
