"""Abuse limits answer 429 with a page that says when to try again, and send nothing; forms
without the session's CSRF token are refused, except the links whose token is the credential."""
from __future__ import annotations

from tests.web.helpers import latest_to, mails, move_links, post_form, sign_in, start_game

ANNA, BEN = "anna@example.org", "ben@example.org"


def test_sign_in_mails_are_limited_per_address(app_factory):
    app = app_factory(TURNPOST_LIMIT_SIGN_IN_ADDRESS="2/hour")
    client = app.test_client()
    for _ in range(2):
        assert post_form(client, "/sign-in", {"email": ANNA}).status_code == 200
    r = post_form(client, "/sign-in", {"email": ANNA})
    assert r.status_code == 429 and "try again in" in r.text
    assert 0 < int(r.headers["Retry-After"]) <= 3600
    assert len(mails(app)) == 2
    # another address from the same client is still served (the per-client limit is higher)
    assert post_form(client, "/sign-in", {"email": BEN}).status_code == 200


def test_sign_in_mails_are_limited_per_client(app_factory):
    app = app_factory(TURNPOST_LIMIT_SIGN_IN="3/hour")
    client = app.test_client()
    for n in range(3):
        assert post_form(client, "/sign-in", {"email": f"p{n}@example.org"}).status_code == 200
    assert post_form(client, "/sign-in", {"email": "p9@example.org"}).status_code == 429
    assert len(mails(app)) == 3


def test_games_and_invitations_are_limited_per_account(app_factory):
    app = app_factory(TURNPOST_LIMIT_INVITES="2/day")
    client = app.test_client()
    sign_in(client, app, ANNA)
    made = post_form(client, "/games", {"game": "trees", "players": BEN}, page="/")
    assert made.status_code == 302
    sent = len(mails(app))
    r = post_form(client, "/games", {"game": "aristocracy",
                                     "players": "c@example.org\nd@example.org"}, page="/")
    assert r.status_code == 429 and "try again" in r.text
    assert len(mails(app)) == sent


def test_a_tournaments_invitations_count_with_the_games(app_factory):
    app = app_factory(TURNPOST_LIMIT_INVITES="3/day")
    client = app.test_client()
    sign_in(client, app, ANNA)
    made = post_form(client, "/tournaments", {"game": "trees", "format": "swiss", "rounds": "1",
                                              "entrants": f"{BEN}\nbot:easy\nbot:normal"},
                     page="/tournaments/new")
    assert made.status_code == 302              # one invitation: the bots are not mailed
    sent = len(mails(app))
    r = post_form(client, "/tournaments", {"game": "trees", "format": "swiss", "rounds": "1",
                                           "entrants": "c@example.org\nd@example.org\ne@x.org"},
                  page="/tournaments/new")
    assert r.status_code == 429 and "try again" in r.text
    assert len(mails(app)) == sent


def test_forms_need_the_csrf_token_but_email_links_do_not(client, app):
    r = client.post("/sign-in", data={"email": ANNA})
    assert r.status_code == 400 and "This form has expired" in r.text and mails(app) == []
    start_game(app, "trees", [ANNA, BEN])
    mover = next(a for a in (ANNA, BEN) if move_links(latest_to(app, a)))
    stranger = app.test_client()                       # no session at all
    assert stranger.post(move_links(latest_to(app, mover))[0][1]).status_code == 200
    unsub = latest_to(app, ANNA)["List-Unsubscribe"].strip("<>").replace("http://turnpost.test", "")
    assert stranger.post(unsub).status_code == 200    # RFC 8058 one-click
