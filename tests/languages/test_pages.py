"""The community's and the account's pages in German and French: each fetched by a browser
asking for the language (Accept-Language) and by a signed-in player who chose it says
`<html lang>` and has none of its fixed words left in English; the flashes said on them too;
the Atom feed in its player's language."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import select

from service import play
from service.play import community
from service.play.players import personaltokens, seatchanges
from service.store.models import Player
from service.web.community import duration, local_points
from tests.languages.helpers import INVITATION, make_player, words
from tests.web.helpers import form_client, latest_to, mails, post_form, sign_in, text_of

ANNA, BEN = "anna@example.org", "ben@example.org"
JOIN = re.compile(r"join link: http://turnpost\.test(/leagues/join/[A-Za-z0-9_.\-]+)")

#: English words none of these pages has in German or French (names and titles aside)
ENGLISH = {"the", "your", "you", "and", "is", "this", "with", "when", "game", "games", "move",
           "every", "ladder", "ladders", "tournament", "tournaments", "round", "rounds",
           "season", "league", "join", "leave", "challenge", "player", "players", "rated",
           "ratings", "nobody", "yet", "waiting", "sign", "make", "delete",
           "add", "erase", "account", "address", "follow", "standings", "entered", "swiss",
           "robin", "of", "to", "by", "it", "who", "we", "days", "back", "stop",
           "following", "what", "for", "start", "now", "open", "its", "are", "will",
           "invites", "accept", "enter", "made", "revoke", "calendar", "secret"}


def _handle(app, addr):
    with app.extensions["turnpost"].db.transaction() as s:
        return s.scalars(select(Player.handle).where(Player.email == addr)).one()


@pytest.fixture
def world(app):
    """A German player (Anna) with a tournament she made, a ladder place, a league with its
    join link, a finished rated game and an erase link; Ben invited to her tournament."""
    svc = app.extensions["turnpost"]
    make_player(app, ANNA, "de")
    anna = form_client(app)
    sign_in(anna, app, ANNA)
    made = anna.post("/tournaments", data={
        "game": "trees", "format": "swiss", "rounds": "2", "clock": "3d", "rated": "on",
        "entrants": f"{BEN}\nbot:easy"})
    assert made.status_code == 302, made.text
    anna.post("/ladders/trees/join", data={})
    runner = app.test_cli_runner()
    league = runner.invoke(args=["leagues", "create", "trees", "--divisions", "2", "--size",
                                 "2", "--season-days", "10", "--promote", "1", "bot:easy"])
    assert league.exit_code == 0, league.output
    game = play.start_game(svc, "trees", [ANNA, "ben2@example.org"], {})
    seatchanges.resign(svc, game.game_id, 1)
    post_form(anna, "/me/erase", page="/me")
    erase = "/me/erase/" + text_of(latest_to(app, ANNA)).split("/me/erase/")[1].split()[0]
    invitation = INVITATION.search(text_of([m for m in mails(app) if m["To"] == BEN][-1]))
    key = svc.transport.messages()[-1][0]            # the dev outbox's newest email
    return {"anna": anna, "join": JOIN.search(league.output).group(1), "erase": erase,
            "mail": key,
            "invitation": invitation.group(1), "handle": _handle(app, ANNA),
            "tournament": community.listed(svc)[0].id}


def _pages(world) -> list[str]:
    return ["/ladders", "/ladders/trees", "/ratings", "/ratings/trees", "/ratings/suzerain",
            "/tournaments", "/tournaments/new", f"/tournaments/{world['tournament']}",
            world["invitation"], "/leagues", "/leagues/1", world["join"],
            f"/players/{world['handle']}", world["erase"]]


def _english_left(html: str) -> set[str]:
    return words(html) & ENGLISH


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_each_page_speaks_the_browsers_language(app, world, lang):
    browser = app.test_client()
    for path in _pages(world):
        english = _english_left(browser.get(path).text)
        assert english, f"{path}: the check has no teeth in English"
        page = browser.get(path, headers={"Accept-Language": lang})
        assert page.status_code == 200, path
        assert f'<html lang="{lang}">' in page.text, path
        assert not _english_left(page.text), \
            f"{path} in {lang} still says {sorted(_english_left(page.text))}"


def test_a_signed_in_german_player_reads_them_in_german(app, world):
    anna = world["anna"]
    for path in [*_pages(world), "/me/tokens"]:
        page = anna.get(path, headers={"Accept-Language": "en"}).text
        assert '<html lang="de">' in page, path
        assert not _english_left(page), f"{path} still says {sorted(_english_left(page))}"
    me = anna.get("/me").text
    assert "Webhooks" in me and "Ich bin am Zug" in me and "It is my turn" not in me
    assert "Webhook hinzufügen" in me and "Add the webhook" not in me


def test_the_flashes_and_refusals_of_these_pages_are_in_the_readers_language(app, world):
    anna = world["anna"]
    again = anna.post("/ladders/trees/join", data={})
    assert again.status_code == 409 and "Du bist schon in dieser Rangliste" in again.text
    assert "Die Rangliste hat das nicht angenommen" in again.text
    left = anna.post("/ladders/trees/leave", data={}, follow_redirects=True).text
    assert "Du hast die Rangliste verlassen." in left and "You left the ladder" not in left
    refused = anna.post("/tournaments", data={"game": "trees", "format": "swiss",
                                             "rounds": "zwei", "entrants": BEN})
    assert refused.status_code == 400
    assert "Die Rundenzahl ist eine Zahl" in refused.text and "Rounds is a number" not in \
        refused.text
    two = anna.post("/tournaments", data={"game": "trees", "format": "swiss", "rounds": "2",
                                          "entrants": f"{BEN}\n{BEN}"})
    assert two.status_code == 400 and "Jeder Teilnehmer braucht eine andere E-Mail-Adresse" \
        in two.text
    followed = anna.post(f"/tournaments/{world['tournament']}/follow", data={},
                         follow_redirects=True).text
    assert "Gefolgt: Einmal am Tag" in followed and "Followed" not in followed
    wrong = world["invitation"].replace("/accept", "/maybe")
    gone = app.test_client().get(wrong, headers={"Accept-Language": "fr"})
    assert "Ce lien ne fonctionne pas" in gone.text and "does not work" not in gone.text


@pytest.mark.parametrize(("lang", "outbox", "reply"), [
    ("de", "Entwicklungs-Postausgang:", "Antworten als"),
    ("fr", "Boîte d'envoi de développement :", "Répondre en tant que")])
def test_the_dev_outbox_says_its_own_words_in_the_language(app, world, lang, outbox, reply):
    """Its emails are as they were sent (their readers' languages); its own words are not."""
    browser = app.test_client()
    listed = browser.get("/dev/outbox", headers={"Accept-Language": lang}).text
    assert f'<html lang="{lang}">' in listed and outbox in listed
    assert "newest first" not in listed and "Open an email" not in listed
    shown = browser.get("/dev/outbox/" + world["mail"], headers={"Accept-Language": lang}).text
    assert reply in shown and "Reply as" not in shown and "Send the reply" not in shown


@pytest.mark.parametrize(("lang", "points", "took"), [
    ("en", "1.5", "2.5 days"), ("de", "1,5", "2,5 Tage"), ("fr", "1,5", "2,5 jours")])
def test_points_and_times_to_move_are_written_as_the_language_writes_them(app, lang, points,
                                                                        took):
    with app.test_request_context("/", headers={"Accept-Language": lang}):
        app.preprocess_request()          # the request speaks the page's language
        assert local_points(1.5) == points and local_points(2.0) == "2"
        assert duration(timedelta(days=2.5)) == took


def test_the_feed_speaks_its_players_language_whoever_fetches_it(app, world):
    svc = app.extensions["turnpost"]
    play.start_game(svc, "trees", [ANNA, BEN], {})
    token = personaltokens.create(svc, ANNA, "feed", scope="feed")[1]
    feed = app.test_client().get(f"/feeds/{token}/moves.atom",
                                 headers={"Accept-Language": "fr"})
    assert feed.headers["Content-Language"] == "de" and 'xml:lang="de"' in feed.text
    assert "Du bist am Zug" in feed.text and "Your move" not in feed.text
    calendar = app.test_client().get(f"/feeds/{token}/deadlines.ics").text
    assert "Turnpost: fällige Züge" in calendar and "moves due" not in calendar


def test_the_lobbys_clocks_are_in_the_readers_language(client):
    lobby = client.get("/", headers={"Accept-Language": "de"}).text
    assert "3 Tage pro Zug" in lobby and "ein Zeitkonto über 7 Tage" in lobby
    assert "per move" not in lobby
    seats = client.get("/games/open", headers={"Accept-Language": "fr"}).text
    assert "3 jours par coup" in seats and "per move" not in seats
