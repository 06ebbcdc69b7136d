"""The calendar preferences from the two places a person or an operator sets them: /me and
`flask players prefs EMAIL KEY=VALUE...`; a bad value is refused naming what works, and
nothing of the rest is saved."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from service.play.clock import ManualClock
from service.store.models import GameRow, Player
from tests.conftest import T0
from tests.web.helpers import game_link, latest_to, lobby_game, post_form, sign_in

ANNA = "anna@example.org"


@pytest.fixture
def app(app_factory):
    return app_factory(TURNPOST_CLOCK=ManualClock(T0))


def run(app, *args):
    return app.test_cli_runner().invoke(args=list(args))


def stored(app, addr=ANNA):
    with app.extensions["turnpost"].db.transaction() as s:
        p = s.scalars(select(Player).where(Player.email == addr)).one()
        return p.zone, p.rest_days, p.quiet_hours, p.reminders, p.auto_vacation, p.forced_moves


def test_the_cli_sets_shows_and_refuses(app, client):
    sign_in(client, app, ANNA)                  # the account exists
    done = run(app, "players", "prefs", ANNA, "tz=Europe/Berlin", "rest_days=sat,sun",
               "quiet_hours=22-08", "reminders=24h,4h,1h", "auto_vacation=off",
               "forced_moves=off")
    assert done.exit_code == 0, done.output
    assert done.output.strip() == ("tz=Europe/Berlin rest_days=sat,sun quiet_hours=22:00-08:00 "
                                   "reminders=24h,4h,1h auto_vacation=off forced_moves=off "
                                   "language=en")
    before = stored(app)
    for bad, words in (("rest_days=mon,tue,wed,thu,fri,sat,sun", "at least one day"),
                       ("quiet_hours=18-12", "at most 16 hours"),
                       ("reminders=90d", "longer than the time per move"),
                       ("tz=Mars/Olympus", "tz=Europe/Berlin"),
                       ("auto_vacation=maybe", "auto_vacation=on"),
                       ("forced_moves=sometimes", "forced_moves=on"),
                       ("snooze=1h", "not a preference"),
                       ("rest_days", "KEY=VALUE")):
        result = run(app, "players", "prefs", ANNA, "quiet_hours=23-07", bad)
        assert result.exit_code != 0 and words in result.output, (bad, result.output)
    assert stored(app) == before                # nothing changed, the good value neither
    assert run(app, "players", "prefs", "nobody@example.org", "tz=UTC").exit_code != 0


def test_me_shows_saves_and_refuses_the_calendar(app, client):
    sign_in(client, app, ANNA)
    form = {"rest_days": "sat,sun", "quiet_hours": "22-08", "reminders": "4h,1h",
            "auto_vacation": "on"}
    assert post_form(client, "/me/calendar", form, page="/me").status_code == 302
    page = client.get("/me").text
    assert 'value="sat,sun"' in page and 'value="22:00-08:00"' in page
    bad = post_form(client, "/me/calendar", {**form, "quiet_hours": "20-14"}, page="/me")
    assert bad.status_code == 400 and "at most 16 hours" in bad.text
    assert 'value="20-14"' in bad.text          # the form as typed, to correct it
    assert stored(app)[2] == "22:00-08:00"


def newest_game(app):
    with app.extensions["turnpost"].db.transaction() as s:
        return s.scalars(select(GameRow).order_by(GameRow.id.desc()).limit(1)).first()


def test_a_games_rest_days_from_the_cli_and_the_lobby(app):
    with app.app_context():         # as `flask` runs it
        done = run(app, "start-game", "trees", ANNA, "ben@example.org", "-o", "clock=1d",
                   "-o", "rest_days=sat,sun")
        refused = run(app, "start-game", "trees", ANNA, "ben@example.org", "-o",
                      "rest_days=mon,tue,wed,thu,fri,sat,sun")
    assert done.exit_code == 0, done.output
    assert newest_game(app).rest_days == "sat,sun"
    assert refused.exit_code != 0 and "at least one day" in refused.output
    client, made = lobby_game(app, "cleo@example.org", ["dan@example.org"], rest_days="sun")
    assert made.status_code == 302
    assert newest_game(app).rest_days == "sun"
    refused = post_form(client, "/games", {"game": "trees", "players": "eve@example.org",
                                           "rest_days": "caturday"}, page="/")
    assert refused.status_code == 400 and "not a day" in refused.text
    assert newest_game(app).rest_days == "sun"          # no game made


def test_a_games_rest_days_are_shown_with_its_clock_on_the_game_page(app):
    """Every seat's page says the game's rest days beside its time control: the deadlines it
    shows are only right if one knows the clocks stand still on those days."""
    with app.app_context():
        done = run(app, "start-game", "trees", ANNA, "ben@example.org", "-o", "clock=1d",
                   "-o", "rest_days=fri,sat,sun")
    assert done.exit_code == 0, done.output
    first = latest_to(app, ANNA) or latest_to(app, "ben@example.org")
    page = app.test_client().get(game_link(first))
    assert page.status_code == 200
    assert ("1 day per move; no clock runs on Fri, Sat and Sun, in the time zone of each "
            "player") in page.text
    with app.app_context():
        run(app, "start-game", "trees", "cleo@example.org", "dan@example.org", "-o", "clock=1d")
    first = latest_to(app, "cleo@example.org") or latest_to(app, "dan@example.org")
    plain = app.test_client().get(game_link(first)).text
    assert "1 day per move" in plain and "no clock runs" not in plain
