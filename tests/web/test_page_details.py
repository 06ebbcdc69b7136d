"""Small things a player meets on the pages: a form refused comes back as they left it (the
lobby's "public page" box, the preferences), a card picture's alternative text names the card
once, an older page of history leads back to the newest, and shown times say their zone."""
from __future__ import annotations

import html
import re

from service import play
from service.games import cards
from service.play import repository
from tests.web.helpers import form_client, sign_in, start_game

ANNA = "anna@example.org"
PUBLIC = re.compile(r'<input type="checkbox" name="public"\s*(checked)?>')


def test_the_public_page_box_stays_as_the_player_left_it_after_an_error(app):
    client = form_client(app)
    sign_in(client, app, ANNA)
    assert PUBLIC.search(client.get("/").text).group(1) == "checked"     # ticked by default
    r = client.post("/games", data={"game": "trees", "players": "not an address"})
    assert r.status_code == 400
    assert PUBLIC.search(r.text).group(1) is None                        # unticked: kept so
    r = client.post("/games", data={"game": "trees", "players": "not an address",
                                    "public": "on"})
    assert r.status_code == 400 and PUBLIC.search(r.text).group(1) == "checked"


def test_a_cards_alternative_text_names_it_once(app, client):
    gid = start_game(app, "trees", [ANNA, "ben@example.org"]).game_id
    page = client.get(app.extensions["turnpost"].urls.game_path(gid, 0)).text
    faces = page.split('<ul class="faces">', 1)[1].split("</ul>", 1)[0]
    alts = dict(re.findall(r'src="/cards/([^"]+)\.svg" alt="([^"]+)"', faces))
    assert alts
    for card, alt in alts.items():
        alt = html.unescape(alt)
        name = cards.name(card)
        assert alt.startswith(name) and alt.count(name) == 1, alt
        assert "((" not in alt and "))" not in alt


def test_an_older_history_page_links_back_to_the_newest(app, client):
    svc = app.extensions["turnpost"]
    gid = start_game(app, "trees", [ANNA, "bot:easy"], {"turn_cap": "40"}).game_id
    for _ in range(60):
        with svc.db.transaction() as s:
            pos = repository.load(s, svc.states, gid)
        if pos.seq > 60 or pos.engine.outcome(pos.state) is not None:
            break
        move = pos.engine.legal_moves(pos.state, 0)[0]
        play.submit(svc, play.Intent(gid, 0, moves=[move], whole_turn=True))
    path = svc.urls.game_path(gid, 0)
    newest = client.get(path).text
    assert "Newest history" not in newest
    older = re.search(r'href="([^"]*\?before=\d+)#history">Older history', newest).group(1)
    assert older.startswith(path)
    page = client.get(older).text
    assert f'href="{path}#history">Newest history' in page


def test_a_refused_preferences_form_keeps_what_the_player_typed(app):
    client = form_client(app)
    sign_in(client, app, ANNA)
    r = client.post("/me/preferences", data={"name": "Annie B", "zone": "Mars/Olympus",
                                              "mail_mode": "digest", "digest_hour": "7"})
    assert r.status_code == 400
    form = r.text.split('action="/me/preferences', 1)[1].split("</form>", 1)[0]
    assert "is not a time zone" in form                      # the error, beside the form
    assert 'value="Annie B"' in form and 'value="Mars/Olympus"' in form
    assert 'value="7"' in form
    assert re.search(r'value="digest"\s+checked', form)
    # saved ones are shown when nothing was refused
    assert 'value="Annie B"' not in client.get("/me").text


def test_times_rewritten_in_the_browser_say_their_zone(client):
    script = client.get("/static/times.js").get_data(as_text=True)
    assert 'timeZoneName: "short"' in script


def test_the_game_page_shows_the_position_before_the_moves_box_plans_and_chat(app, client):
    """Issue 49, item 21: as the email does, the seat's view first (on a Suzerain page the
    trick, the hand and the table), then the moves, the command box, the plans, the chat and
    every move."""
    gid = start_game(app, "suzerain", [ANNA, "ben@example.org"]).game_id
    with app.extensions["turnpost"].db.transaction() as s:
        pos = repository.load(s, app.extensions["turnpost"].states, gid)
        seat = min(pos.engine.to_act(pos.state))
    page = client.get(app.extensions["turnpost"].urls.game_path(gid, seat)).text
    hand = page.index("Your hand (")                  # the partial's own hand, as text
    assert page.index("<h3>The table</h3>") < page.index("<h2>Your moves</h2>")
    later = [page.index(marker) for marker in ("<h2>Your moves</h2>", "<h2>Type commands</h2>",
                                               'id="chat"', "<h2>Every move you can make now")]
    assert all(hand < at for at in later), later
    if 'id="plans"' in page:
        assert hand < page.index('id="plans"')


def test_my_page_is_two_units_of_work_whatever_it_lists(app):
    """/me reads the signed-in account once for the request (its language, the page's `me`)
    and everything it lists in one more unit of work (issue 53): each of its parts on its own
    was a pool checkout, a ping, BEGIN and COMMIT. Its lists are all there."""
    from sqlalchemy import event, select

    from service.play.players import blocks, hooks
    from service.store.models import Player
    svc = app.extensions["turnpost"]
    start_game(app, "trees", [ANNA, "ben@example.org"])
    client = form_client(app)
    sign_in(client, app, ANNA)
    me = svc.db.engine
    with svc.db.transaction() as s:
        anna = s.scalar(select(Player.id).where(Player.email == ANNA))
        ben = s.scalar(select(Player.id).where(Player.email == "ben@example.org"))
    blocks.block(svc, anna, ben)
    hooks.register(svc, "https://hooks.example.org/turnpost", player_id=anna)
    checkouts = []
    listener = lambda *_: checkouts.append(1)   # noqa: E731
    event.listen(me, "checkout", listener)
    try:
        page = client.get("/me")
    finally:
        event.remove(me, "checkout", listener)
    assert page.status_code == 200
    assert "hooks.example.org" in page.text and "ben" in page.text and "Trees #" in page.text
    assert len(checkouts) == 2
