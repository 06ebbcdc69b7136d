"""The clock on the web: the lobby's default clock in words, every seat's clock on the game
page, resign with a confirmation step, a vacation by form, and `flask sweep`."""
from __future__ import annotations

import re
from datetime import datetime, timezone

from service.play.clock import ManualClock
from tests.web.helpers import lobby_game, mails, post_form, text_of

T0 = datetime(2026, 11, 24, 9, 0, tzinfo=timezone.utc)


def _csrf(client, page):
    from tests.web.helpers import csrf
    return csrf(client, page)


def game_link(app, addr):
    """The seat page link of the latest email to `addr` that has one (the default mail mode
    mails a player only when it is their move)."""
    for msg in reversed([m for m in mails(app) if m["To"] == addr]):
        found = re.search(r"http://turnpost\.test(/g/[A-Za-z0-9_.\-]+)", text_of(msg))
        if found:
            return found.group(1)
    return None


def mover_link(app):
    """(address, seat page link) of the player whose move it is (the one who was mailed)."""
    for addr in ("anna@example.org", "ben@example.org"):
        link = game_link(app, addr)
        if link:
            return addr, link
    raise AssertionError("nobody was mailed a seat link")


def test_lobby_default_is_three_days_and_the_page_shows_clocks(app_factory):
    app = app_factory(TURNPOST_CLOCK=ManualClock(T0))
    client = app.test_client()
    lobby = client.get("/").get_data(as_text=True)
    assert '<option value="3d" selected>3 days per move</option>' in lobby
    client, r = lobby_game(app, "anna@example.org", ["ben@example.org"])
    assert r.status_code == 302
    body = text_of([m for m in mails(app) if "YOUR TURN" in text_of(m)][0])
    assert "Your move by Fri 27 Nov, 09:00 UTC (in 3 days)" in body
    page = client.get(mover_link(app)[1]).get_data(as_text=True)
    assert "Clocks" in page and "3 days per move" in page
    assert "to move by" in page


def test_lobby_refuses_a_bad_clock(app):
    _, r = lobby_game(app, "anna@example.org", ["ben@example.org"], clock="0d")
    assert r.status_code == 400
    assert "too short" in r.get_data(as_text=True)


def test_resign_asks_first_then_ends_the_game(app_factory):
    app = app_factory(TURNPOST_CLOCK=ManualClock(T0))
    client, _ = lobby_game(app, "anna@example.org", ["ben@example.org"])
    resigner, link = mover_link(app)
    winner = "ben" if resigner.startswith("anna") else "anna"
    # the question is in the "Your seat" card, far down a phone's screen: the page opens there
    assert f'action="{link}/resign#seat"' in client.get(link).get_data(as_text=True)
    confirm = client.get(link + "/resign").get_data(as_text=True)
    assert "Really resign?" in confirm and 'id="seat"' in confirm
    asked = post_form(client, link + "/resign", page=link)      # asks again
    assert asked.status_code == 302 and asked.location.endswith("/resign#seat")
    r = client.post(link + "/resign", data={"confirm": "yes", "csrf_token": _csrf(client, link)},
                    follow_redirects=True)
    page = r.get_data(as_text=True)
    assert "Game over" in page and f"{winner} won" in page.lower()
    r = post_form(client, link + "/resign", {"confirm": "yes"}, page=link)
    assert r.status_code == 422 and "finished" in r.get_data(as_text=True)


def test_vacation_by_form_and_refusal(app_factory):
    app = app_factory(TURNPOST_CLOCK=ManualClock(T0))
    client, _ = lobby_game(app, "anna@example.org", ["ben@example.org"])
    _, link = mover_link(app)
    r = post_form(client, link + "/vacation", {"request": "back"}, page=link)
    assert r.status_code == 422 and "You are not on vacation" in r.get_data(as_text=True)
    r = client.post(link + "/vacation", data={"request": "3", "csrf_token": _csrf(client, link)},
                    follow_redirects=True)
    assert "to the end of 26 Nov" in r.get_data(as_text=True)


def test_flask_sweep_runs_the_clocks(app_factory):
    clock = ManualClock(T0)
    app = app_factory(TURNPOST_CLOCK=clock)
    runner = app.test_cli_runner()
    lobby_game(app, "anna@example.org", ["ben@example.org"], clock="1d")
    clock.advance(days=1)
    with app.app_context():     # as `flask --app service.web sweep` runs it
        result = runner.invoke(args=["sweep"])
    out = result.output + repr(result.exception)
    assert "1 timeouts" in out


def test_where_a_clock_is_chosen_it_says_how_many_vacation_days_one_game_takes(app_factory):
    """Issue 49, item 19: the lobby and the tournament form say what a clock that runs out
    costs before the timeout: a vacation day, at most TURNPOST_AUTO_VACATION_PER_GAME in one
    game. Without the rule (TURNPOST_AUTO_VACATION=false) they say nothing of it."""
    client = app_factory(TURNPOST_AUTO_VACATION="true",
                         TURNPOST_AUTO_VACATION_PER_GAME="2").test_client()
    for path in ("/", "/tournaments/new"):
        page = client.get(path).get_data(as_text=True)
        assert ("takes one of their vacation days instead (30 a year, unless they turned it "
                "off), at most 2 in one game; after those, it is a timeout.") in page, path
    assert 'id="clock-vacation"' not in app_factory().test_client().get("/").get_data(
        as_text=True)
