"""A player's language, end to end: taken from the browser at sign-in, set on /me, by the API
and the CLI; their emails in it (Content-Language), the pages in theirs or the browser's."""
from __future__ import annotations

from sqlalchemy import select

from service.play.players import personaltokens
from service.store.models import Player
from tests.languages.helpers import make_player
from tests.web.helpers import (
    game_link,
    latest_to,
    mails,
    post_form,
    sign_in,
    start_game,
    text_of,
)

ANNA, BEN = "anna@example.org", "ben@example.org"


def language_of(app, addr):
    with app.extensions["turnpost"].db.transaction() as s:
        return s.scalars(select(Player.language).where(Player.email == addr)).one()


def test_a_german_players_turn_email_is_german(app):
    make_player(app, ANNA, "de")
    start_game(app, "trees", [ANNA, BEN])
    anna, ben = latest_to(app, ANNA), latest_to(app, BEN)
    assert anna["Content-Language"] == "de" and ben["Content-Language"] == "en"
    assert "am Zug" in anna["Subject"] and "Trees #" in anna["Subject"], anna["Subject"]
    assert "Seite der Partie:" in text_of(anna) and "Game page:" in text_of(ben)
    assert '<html lang="de">' in anna.get_body(("html",)).get_content()


def test_the_lobby_follows_accept_language_and_the_switcher(client):
    lobby = client.get("/", headers={"Accept-Language": "fr-CH, fr;q=0.9"}).text
    assert '<html lang="fr">' in lobby and "Lancer une partie" in lobby
    assert "Start a game" not in lobby and "Send the invitations" not in lobby
    assert '<html lang="en">' in client.get("/").text
    page = client.get("/?lang=de", headers={"Accept-Language": "fr"})
    assert '<html lang="de">' in page.text and "Freie Plätze" in page.text
    assert page.headers["Content-Language"] == "de"
    # the switcher's choice is kept for this browser
    assert '<html lang="de">' in client.get("/games/open", headers={"Accept-Language": "fr"}).text
    assert '<html lang="de">' in client.get("/?lang=xx").text     # none of ours: ignored
    assert '<html lang="en">' in client.get("/?lang=en").text


def test_sign_in_takes_the_browsers_language_once(app, client):
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "de-DE,de;q=0.9"
    sign_in(client, app, ANNA)
    link = latest_to(app, ANNA)
    assert link["Content-Language"] == "de" and link["Subject"] == "Dein Anmeldelink für Turnpost"
    assert language_of(app, ANNA) == "de"
    # a language chosen is kept when the player signs in from another browser
    other = app.test_client()
    other.environ_base["HTTP_ACCEPT_LANGUAGE"] = "fr"
    sign_in(other, app, ANNA)
    assert language_of(app, ANNA) == "de"
    assert '<html lang="de">' in other.get("/me").text


def test_me_sets_the_language_and_refuses_what_is_not_ours(app, client):
    sign_in(client, app, ANNA)
    assert post_form(client, "/me/calendar", {"language": "fr"}, page="/me").status_code == 302
    assert language_of(app, ANNA) == "fr"
    page = client.get("/me").text
    assert '<html lang="fr">' in page and "Votre temps à vous" in page
    assert "Your own time" not in page and "Sign out" not in page
    refused = post_form(client, "/me/calendar", {"language": "klingon"}, page="/me")
    assert refused.status_code == 400 and language_of(app, ANNA) == "fr"


def test_the_cli_and_the_api_set_it(app, client):
    sign_in(client, app, ANNA)
    runner = app.test_cli_runner()
    done = runner.invoke(args=["players", "prefs", ANNA, "language=de"])
    assert done.exit_code == 0 and "language=de" in done.output
    bad = runner.invoke(args=["players", "prefs", ANNA, "language=xx", "tz=Europe/Paris"])
    assert bad.exit_code != 0 and "language" in bad.output and language_of(app, ANNA) == "de"
    token = personaltokens.create(app.extensions["turnpost"], ANNA, "test")[1]
    auth = {"Authorization": f"Bearer {token}"}
    assert client.get("/api/v1/me/prefs", headers=auth).json["language"] == "de"
    changed = client.patch("/api/v1/me/prefs", json={"language": "fr"}, headers=auth)
    assert changed.status_code == 200 and changed.json["language"] == "fr"
    refused = client.patch("/api/v1/me/prefs", json={"language": 3}, headers=auth)
    assert refused.status_code == 400 and language_of(app, ANNA) == "fr"
    assert mails(app)    # nothing above mailed anyone but the sign-in


def test_a_seat_page_speaks_the_readers_language(app, client):
    start_game(app, "trees", [ANNA, BEN])
    page = client.get(game_link(latest_to(app, ANNA)), headers={"Accept-Language": "de"}).text
    assert '<html lang="de">' in page and "Verlauf" in page and "Type commands" not in page
