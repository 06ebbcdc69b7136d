"""The game page's move buttons all do one thing, and say it: each is one step, and in a game
whose turn stays open after the card play (RULINGS M9 as amended) the turn stays open until
"end turn"; a link from an email is a whole turn, and its Done page says the turn ended."""
from __future__ import annotations

import random
import re

from service.play import repository
from tests.web.helpers import form_client, game_link, latest_to, move_links, start_game

PLAYERS = ["anna@example.org", "ben@example.org"]
FORM = re.compile(r'<form method="post" action="(/m/[^"]+)">(.*?)</form>', re.S)


def _magnate(app):
    app.extensions["turnpost"].chance = random.Random(11)
    gid = start_game(app, "magnate", PLAYERS).game_id
    mover = next(a for a in PLAYERS if move_links(latest_to(app, a)))
    return gid, mover


def _acts(app, gid, seat) -> bool:
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        pos = repository.load(s, svc.states, gid)
    return seat in pos.engine.to_act(pos.state)


def test_every_move_button_on_the_page_is_one_step_and_says_the_turn_stays_open(app):
    # RULINGS M9: the page's buttons compose a turn step by step
    client = form_client(app)
    gid, mover = _magnate(app)
    seat = PLAYERS.index(mover)
    page = client.get(game_link(latest_to(app, mover))).text
    forms = FORM.findall(page)
    assert forms and all('name="then" value="game"' in body for _, body in forms)
    yours = page[page.index("<h2>Your moves</h2>"):]
    assert "your turn stays open" in yours[:yours.index("</form>")]
    sale = next(url for url, body in forms if "sell" in body.lower())
    answer = client.post(sale, data={"then": "game"})
    assert answer.status_code == 302 and "/g/" in answer.headers["Location"]
    assert _acts(app, gid, seat), "a button on the page keeps the turn open"
    after = client.get(answer.headers["Location"]).text
    assert "end turn" in after


def test_the_done_page_of_an_email_link_says_the_link_ended_the_turn(app):
    # RULINGS M9: one click on a card play link plays it and ends the turn
    client = form_client(app)
    gid, mover = _magnate(app)
    _, path = next((t, p) for t, p in move_links(latest_to(app, mover)) if "sell" in t.lower())
    done = client.post(path).text
    assert not _acts(app, gid, PLAYERS.index(mover))
    assert "your turn ended with it" in done and "Next to move" in done


def test_a_trees_page_speaks_of_no_magnate_steps(app):
    client = form_client(app)
    start_game(app, "trees", PLAYERS)
    mover = next(a for a in PLAYERS if move_links(latest_to(app, a)))
    page = client.get(game_link(latest_to(app, mover))).text
    assert "Each button makes its move at once" in page
    assert "trades and additions" not in page and "card play" not in page
