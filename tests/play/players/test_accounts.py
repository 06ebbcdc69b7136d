"""Accounts without passwords: a one-time emailed link signs one browser in (15 minutes,
once, that browser only), `/me` lists the player's games, preferences are saved or refused."""
from __future__ import annotations

import re

import pytest

from service import play
from service.play import repository
from service.play.clock import ManualClock
from tests.conftest import T0
from tests.web.helpers import (
    SIGN_IN,
    latest_to,
    mails,
    move_links,
    post_form,
    sign_in,
    start_game,
    text_of,
)

ANNA, BEN = "anna@example.org", "ben@example.org"


@pytest.fixture
def clock():
    return ManualClock(T0)


@pytest.fixture
def app(app_factory, clock):
    return app_factory(TURNPOST_CLOCK=clock)


def ask_link(client, app, addr=ANNA) -> str:
    assert post_form(client, "/sign-in", {"email": addr}).status_code == 200
    return SIGN_IN.search(text_of(latest_to(app, addr))).group(1)


def test_a_sign_in_link_signs_in_the_browser_that_asked_once(client, app):
    assert client.get("/me").headers["Location"].startswith("/sign-in")   # anonymous
    path = ask_link(client, app)
    assert client.get(path).status_code == 200          # a GET (a mail scanner) does nothing
    assert client.get("/me").status_code == 302
    r = post_form(client, path, page=path)
    assert r.status_code == 302 and r.headers["Location"] == "/me"
    me = client.get("/me")
    assert me.status_code == 200 and "Signed in as anna@example.org" in me.text
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    # used twice: refused, even in the same browser
    client.post("/sign-out", data={"csrf_token": re.search(
        r'name="csrf_token" value="([^"]+)"', me.text).group(1)})
    again = post_form(client, path, page=path)
    assert again.status_code == 400 and "used already" in again.text
    assert client.get("/me").status_code == 302


def test_a_sign_in_link_from_another_browser_or_too_late_is_refused(app, clock):
    mine, other = app.test_client(), app.test_client()
    path = ask_link(mine, app)
    r = post_form(other, path, page=path)
    assert r.status_code == 400 and "another browser" in r.text
    assert "Ask for a new sign-in link" in r.text
    assert other.get("/me").status_code == 302
    clock.advance(minutes=16)
    late = post_form(mine, path, page=path)
    assert late.status_code == 400 and "15 minutes" in late.text
    assert mine.get("/me").status_code == 302


def test_bad_addresses_are_refused_and_nothing_is_sent(client, app):
    for typed in ("not an address", "a@b", "x" * 300 + "@example.org", "anna@@example.org"):
        r = post_form(client, "/sign-in", {"email": typed})
        assert r.status_code == 400 and "not an email address" in r.text
    assert mails(app) == []


def test_a_forged_session_cookie_is_anonymous(client, app):
    sign_in(client, app, ANNA)
    forged = app.test_client()
    forged.set_cookie("session", client.get_cookie("session").value[:-4] + "AAAA",
                      domain="localhost")
    assert forged.get("/me").status_code == 302


def test_signing_in_goes_back_only_to_a_page_of_this_site(app):
    client = app.test_client()
    client.get("/sign-in?next=//evil.example/x")
    assert sign_in(client, app, ANNA).headers["Location"] == "/me"


def test_the_session_cookie_is_secure_on_https(app_factory):
    app = app_factory(TURNPOST_BASE_URL="https://turnpost.example")
    assert app.config["SESSION_COOKIE_SECURE"] is True


def test_me_lists_my_move_first_then_waiting_then_finished(client, app):
    start_game(app, "trees", [ANNA, BEN], mail_mode="turn")
    second = start_game(app, "trees", [BEN, ANNA], mail_mode="turn").game_id
    play_until_waiting(app, second, seat=1)           # game 2 now waits on Ben
    sign_in(client, app, ANNA)
    page = client.get("/me").text
    title = re.search(r"<title>(.*)</title>", page).group(1)
    moves = page.index("Your move (")
    waiting = page.index("Waiting on others")
    finished = page.index("Finished")
    assert moves < waiting < finished
    assert "Trees #1" in page[moves:waiting] and "Trees #2" in page[waiting:finished]
    assert title == "(1) My games · Turnpost"
    assert "waiting on ben since 24 Nov 09:00 UTC" in page[waiting:finished]
    assert BEN not in page                     # display names only
    # each line links to the seat's own page
    link = re.search(r'href="(/g/[^"]+)"', page).group(1)
    assert client.get(link).status_code == 200


def play_until_waiting(app, game_id, seat):
    svc = app.extensions["turnpost"]
    while True:
        with svc.db.transaction() as s:
            pos = repository.load(s, svc.states, game_id)
        if seat not in pos.engine.to_act(pos.state):
            return
        move = pos.engine.legal_moves(pos.state, seat)[0]
        play.submit(svc, play.Intent(game_id, seat, moves=[move], whole_turn=True))


def test_preferences_are_saved_or_refused_whole(client, app):
    sign_in(client, app, ANNA)
    ok = post_form(client, "/me/preferences", {"name": "Anna K", "zone": "Europe/Paris",
                                               "mail_mode": "digest", "digest_hour": "7"},
                   page="/me")
    assert ok.status_code == 302
    page = client.get("/me").text
    assert 'value="Anna K"' in page and 'value="Europe/Paris"' in page
    assert "Saved." in page                                 # the player sees it was saved
    for bad, why in (({"zone": "Mars/Olympus"}, "not a time zone"),
                     ({"name": "anna@example.org"}, "no @"),
                     ({"mail_mode": "digest", "digest_hour": "25"}, "0 to 23"),
                     ({"mail_mode": "shout"}, "mail modes")):
        form = {"name": "Anna", "zone": "", "mail_mode": "turn", "digest_hour": "", **bad}
        r = post_form(client, "/me/preferences", form, page="/me")
        assert r.status_code == 400 and why in r.text
    assert 'value="Anna K"' in client.get("/me").text      # nothing changed


def test_the_mover_is_never_mailed_about_its_own_move(client, app):
    start_game(app, "trees", [ANNA, BEN], mail_mode="every")
    mover = next(a for a in (ANNA, BEN) if move_links(latest_to(app, a)))
    before = len([m for m in mails(app) if m["To"] == mover])
    assert client.post(move_links(latest_to(app, mover))[0][1]).status_code == 200
    assert len([m for m in mails(app) if m["To"] == mover]) == before
