"""The clock on the web: the lobby's default clock in words, every seat's clock on the game
page, resign with a confirmation step, a vacation by form, and `flask sweep`."""
from __future__ import annotations

import re
from datetime import datetime, timezone

from service.clock import ManualClock
from tests.web.helpers import mails, text_of

T0 = datetime(2026, 11, 24, 9, 0, tzinfo=timezone.utc)


def game_link(app, addr):
    msg = [m for m in mails(app) if m["To"] == addr][-1]
    return re.search(r"http://turnpost\.test(/g/[A-Za-z0-9_.\-]+)", text_of(msg)).group(1)


def test_lobby_default_is_three_days_and_the_page_shows_clocks(app_factory):
    app = app_factory(TURNPOST_CLOCK=ManualClock(T0))
    client = app.test_client()
    lobby = client.get("/").get_data(as_text=True)
    assert '<option value="3d" selected>3 days per move</option>' in lobby
    r = client.post("/games", data={"game": "trees",
                                    "players": "Anna <anna@example.org>\nben@example.org"})
    assert r.status_code == 302
    body = text_of([m for m in mails(app) if "YOUR TURN" in text_of(m)][0])
    assert "Your move by Fri 27 Nov, 09:00 UTC (in 3 days)" in body
    page = client.get(game_link(app, "anna@example.org")).get_data(as_text=True)
    assert "Clocks" in page and "3 days per move" in page
    assert "to move by" in page


def test_lobby_refuses_a_bad_clock(client):
    r = client.post("/games", data={"game": "trees", "clock": "0d",
                                    "players": "anna@example.org\nben@example.org"})
    assert r.status_code == 400
    assert "too short" in r.get_data(as_text=True)


def test_resign_asks_first_then_ends_the_game(app_factory):
    app = app_factory(TURNPOST_CLOCK=ManualClock(T0))
    client = app.test_client()
    client.post("/games", data={"game": "trees", "players": "anna@example.org\nben@example.org"})
    link = game_link(app, "ben@example.org")
    confirm = client.get(link + "/resign").get_data(as_text=True)
    assert "Really resign?" in confirm
    assert client.post(link + "/resign").status_code == 302      # no confirm: asks again
    r = client.post(link + "/resign", data={"confirm": "yes"}, follow_redirects=True)
    page = r.get_data(as_text=True)
    assert "Game over" in page and "anna won" in page.lower()
    r = client.post(link + "/resign", data={"confirm": "yes"})
    assert r.status_code == 422 and "finished" in r.get_data(as_text=True)


def test_vacation_by_form_and_refusal(app_factory):
    app = app_factory(TURNPOST_CLOCK=ManualClock(T0))
    client = app.test_client()
    client.post("/games", data={"game": "trees", "players": "anna@example.org\nben@example.org"})
    link = game_link(app, "anna@example.org")
    r = client.post(link + "/vacation", data={"request": "back"})
    assert r.status_code == 422 and "You are not on vacation" in r.get_data(as_text=True)
    r = client.post(link + "/vacation", data={"request": "3"}, follow_redirects=True)
    assert "until 26 Nov" in r.get_data(as_text=True)


def test_flask_sweep_runs_the_clocks(app_factory):
    clock = ManualClock(T0)
    app = app_factory(TURNPOST_CLOCK=clock)
    runner = app.test_cli_runner()
    app.test_client().post("/games", data={"game": "trees", "clock": "1d",
                                           "players": "anna@example.org\nben@example.org"})
    clock.advance(days=1)
    with app.app_context():     # as `flask --app service.web sweep` runs it
        result = runner.invoke(args=["sweep"])
    out = result.output + repr(result.exception)
    assert "1 timeouts" in out
