""""Play against bots" and player counts: the practice form offers each game's own player
counts and every one of them starts (three at Magnate with the Roller rules is its
three-player game, RULINGS M21); a count a game does not allow is refused in that game's
words, in the lobby too; a refused practice form comes back as it was filled in, its error
beside it."""
from __future__ import annotations

import html
import re

import pytest
from sqlalchemy import func, select

from service.games import registry
from service.store.models import GameRow
from tests.web.helpers import form_client, sign_in

CASES = [(entry, n) for entry, _, game, preset in registry.lobby()
         for n in registry.player_counts(game, preset)]


@pytest.fixture
def client(app):
    return form_client(app)


def offered(page: str) -> list[str]:
    form = page.split('action="/practice', 1)[1].split("</form>", 1)[0]
    return re.findall(r'<option value="([a-z-]+:\d+)"', form)


def games(app) -> int:
    with app.extensions["turnpost"].db.transaction() as s:
        return s.scalar(select(func.count()).select_from(GameRow))


def test_the_practice_form_offers_each_games_own_player_counts(client):
    choices = offered(client.get("/").text)
    assert choices == [f"{entry}:{n}" for entry, n in CASES]
    assert "magnate:2" in choices and "magnate:3" not in choices       # classic: 2 only
    assert "magnate-roller:3" in choices and "trees:5" not in choices
    assert "aristocracy:5" in choices


@pytest.mark.parametrize("entry, seats", CASES, ids=[f"{e}-{n}" for e, n in CASES])
def test_every_count_the_practice_form_offers_starts(client, app, entry, seats):
    r = client.post("/practice", data={"table": f"{entry}:{seats}", "level": "easy"})
    assert r.status_code == 302, html.unescape(r.text)
    with app.extensions["turnpost"].db.transaction() as s:
        game = s.get(GameRow, 1)
        assert len(game.seats) == seats
        if entry == "magnate-roller":
            assert game.options["three"] is (seats == 3)


def test_three_at_roller_magnate_starts_its_three_player_game(client, app):
    """As the form used to post it (game and seats), too."""
    r = client.post("/practice", data={"game": "magnate-roller", "seats": "3"})
    assert r.status_code == 302, html.unescape(r.text)
    assert "Normal bot 2" in client.get(r.headers["Location"]).text


def test_three_at_classic_magnate_is_refused_in_its_own_words(client, app):
    r = client.post("/practice", data={"table": "magnate:3"})
    assert r.status_code == 400
    words = html.unescape(r.text)
    assert "Magnate is for 2 players; you asked for 3" in words
    assert "'three' option" not in words
    assert games(app) == 0


def test_inviting_two_to_classic_magnate_says_it_is_a_two_player_game(client, app):
    sign_in(client, app, "anna@example.org")
    r = client.post("/games", data={"game": "magnate",
                                    "players": "ben@example.org\ncleo@example.org"})
    assert r.status_code == 400
    words = html.unescape(r.text)
    assert "Magnate is for 2 players; you asked for 3 (you, 2 invited, 0 open)" in words
    assert "'three' option" not in words
    assert games(app) == 0


def test_inviting_two_to_roller_magnate_makes_its_three_player_game(client, app):
    sign_in(client, app, "anna@example.org")
    r = client.post("/games", data={"game": "magnate-roller",
                                    "players": "ben@example.org\ncleo@example.org"})
    assert r.status_code == 302, html.unescape(r.text)
    with app.extensions["turnpost"].db.transaction() as s:
        assert s.get(GameRow, 1).options["three"] is True


def test_a_refused_practice_form_comes_back_as_filled_in_with_its_error_beside_it(client, app):
    r = client.post("/practice", data={"table": "suzerain:2", "level": "hard",
                                       "email": "me@example.org", "mail": "on"})
    assert r.status_code == 400
    page = html.unescape(r.text)
    invite_form, practice_card = page.split('id="practice"', 1)
    assert "no bot called 'hard'" in practice_card and "no bot called" not in invite_form
    assert 'action="/practice#practice"' in practice_card           # the browser comes back here
    assert re.search(r'<option value="suzerain:2" selected>', practice_card)
    assert 'value="me@example.org"' in practice_card
    assert re.search(r'name="mail" checked', practice_card)
    # the invitation form is left as it was: the first game, the public page ticked
    assert re.search(r'name="game" id="game-trees" value="trees" checked', invite_form)


def test_a_refused_practice_form_by_its_old_fields_keeps_the_game_too(client):
    r = client.post("/practice", data={"game": "aristocracy", "seats": "9"})
    assert r.status_code == 400
    page = html.unescape(r.text).split('id="practice"', 1)[1]
    assert "Aristocracy is for 2 to 5 players; you asked for 9" in page
    assert re.search(r'<option value="aristocracy:5" selected>', page)      # the nearest
