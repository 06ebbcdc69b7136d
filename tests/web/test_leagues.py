"""Leagues through the adapters: `flask leagues create` and `show`, the lobby page and a
league's page, the signed join link (its page, its button, twice, tampered) and the season's
first letter as it is sent (subject, text and HTML)."""
from __future__ import annotations

import re
import time

from sqlalchemy import func, select

from service.play import community
from service.play.players import seatchanges
from service.store.models import League, LeagueMember, Player, Seat
from tests.web.helpers import form_client, html_of, mails, sign_in, text_of

CY = "cy@example.org"
JOIN = re.compile(r"join link: http://turnpost\.test(/leagues/join/[A-Za-z0-9_.\-]+)")


def cli(app, *args):
    with app.app_context():
        return app.test_cli_runner().invoke(args=["leagues", *args])


def make(app, *entrants):
    made = cli(app, "create", "trees", "--divisions", "2", "--size", "2", "--season-days",
               "10", "--promote", "1", *entrants)
    assert made.exit_code == 0, made.output
    return made


def members(app) -> int:
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        return s.scalar(select(func.count()).select_from(LeagueMember))


def test_the_cli_makes_a_league_and_shows_it_with_its_join_link(app):
    made = make(app, "bot:easy", "bot:normal")
    assert "league 1: 2 of 4 places taken; season 1 starts when full" in made.output
    assert JOIN.search(made.output)
    shown = cli(app, "show", "1")
    assert shown.exit_code == 0, shown.output
    assert "Trees league 1: forming, season 0; 2 divisions of 2, 1 up and down" in shown.output
    assert "waiting for a place: Easy bot, Normal bot" in shown.output
    assert JOIN.search(shown.output)
    missing = cli(app, "show", "9")
    assert missing.exit_code != 0 and "There is no league 9." in missing.output


def test_the_cli_refuses_bad_terms_and_makes_nothing(app):
    refused = cli(app, "create", "trees", "--divisions", "2", "--size", "4", "--season-days",
                  "30", "--promote", "3")
    assert refused.exit_code != 0
    assert "from 1 to 2 players move up and down" in refused.output
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(League)) == 0


def test_joining_by_the_link_once_starts_the_season_and_twice_changes_nothing(app):
    path = JOIN.search(make(app, "bot:easy", "bot:normal", "bot:easy").output).group(1)
    assert "taking members" in app.test_client().get("/leagues").text
    cy = form_client(app)
    page = cy.get(path).text                       # a GET shows the button, changes nothing
    assert "Join the league" in page and members(app) == 3
    sign_in(cy, app, CY)
    joined = cy.post(path, data={})
    assert joined.status_code == 200
    assert "You took the last place: season 1 has begun" in joined.text
    again = cy.post(path, data={})
    assert "You are in this league already; nothing was changed." in again.text
    assert members(app) == 4
    league = cy.get("/leagues/1").text
    assert "Season 1 is being played." in league and "Division 2" in league
    assert "Leave the league" in league
    # the season's first letter, as sent: division, opponent, clock, the league's page
    letter = next(m for m in mails(app) if m["To"] == CY and "league" in m["Subject"])
    assert letter["Subject"] == "Trees league #1: season 1 begins, you are in division 2"
    text = text_of(letter)
    assert "division 2 of 2" in text and "Easy bot 2" in text and "per move" in text
    assert "http://turnpost.test/leagues/1" in html_of(letter)


def test_a_tampered_join_link_is_refused_and_joins_nobody(app):
    path = JOIN.search(make(app).output).group(1)
    cy = form_client(app)
    sign_in(cy, app, CY)
    broken = path[:-4] + ("AAAA" if not path.endswith("AAAA") else "BBBB")
    assert cy.get(broken).status_code == 400
    answer = cy.post(broken, data={})
    assert answer.status_code == 400 and "damaged" in answer.text
    assert members(app) == 0


def test_leaving_by_the_page_and_leaving_twice(app):
    path = JOIN.search(make(app, "bot:easy").output).group(1)
    cy = form_client(app)
    sign_in(cy, app, CY)
    cy.post(path, data={})
    left = cy.post("/leagues/1/leave", data={}, follow_redirects=True)
    assert "You have left the league" in left.text
    again = cy.post("/leagues/1/leave", data={})
    assert again.status_code == 409 and "You are not in this league" in again.text


def test_the_season_end_letter_says_the_place_and_what_follows(app):
    """Cy's division is Cy and a bot; Cy resigns, which withdraws Cy from the season and the
    league. The bots' division plays itself out, the season ends, and Cy's letter says so."""
    path = JOIN.search(make(app, "bot:easy", "bot:normal", "bot:easy").output).group(1)
    cy = form_client(app)
    sign_in(cy, app, CY)
    cy.post(path, data={})
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        seat = s.scalars(select(Seat).join(Seat.player).where(Player.email == CY)).one()
        game_id, number = seat.game_id, seat.seat
    seatchanges.resign(svc, game_id, number)
    for _ in range(200):            # the bots' division, played by the background work
        if community.leagueshow.show(svc, 1).status != "running":
            break
        time.sleep(0.05)
    # with Cy gone only bots are left, and bots alone do not play season after season for
    # nobody: the league waits for people to join
    league = community.leagueshow.show(svc, 1)
    assert (league.status, league.season) == ("forming", 1)
    letter = next(m for m in mails(app) if m["To"] == CY and "is over" in m["Subject"])
    assert letter["Subject"] == "Trees league #1: season 1 is over, you placed 2 of 2"
    text = text_of(letter)
    assert "You have left the league, so you are not in the next season." in text
    assert "cy (withdrew): 0 points" in text
    assert "You have left the league" in html_of(letter)


def test_closing_a_league_ends_it_after_its_season_and_takes_nobody_new(app):
    path = JOIN.search(make(app, "bot:easy", "bot:normal", "bot:easy").output).group(1)
    cy = form_client(app)
    sign_in(cy, app, CY)
    cy.post(path, data={})
    closing = cli(app, "close", "1")
    assert "league 1: closing: the season being played is its last" in closing.output
    assert "is being played, and is its last" in cy.get("/leagues/1").text
    dee = form_client(app)
    sign_in(dee, app, "dee@example.org")
    refused = dee.post(path, data={})
    assert refused.status_code == 409 and "nobody can join it" in refused.text
    again = cli(app, "close", "1")
    assert again.exit_code != 0 and "closing already" in again.output
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        seat = s.scalars(select(Seat).join(Seat.player).where(Player.email == CY)).one()
        game_id, number = seat.game_id, seat.seat
    seatchanges.resign(svc, game_id, number)
    for _ in range(200):
        if community.leagueshow.show(svc, 1).status == "closed":
            break
        time.sleep(0.05)
    view = community.leagueshow.show(svc, 1)
    assert view.status == "closed" and view.season == 1
    letter = next(m for m in mails(app) if m["To"] == CY and "is over" in m["Subject"])
    assert "This was the league's last season: it is closed now." in text_of(letter)
    forming = make(app)
    assert "league 2: closed" in cli(app, "close", "2").output and forming.exit_code == 0
