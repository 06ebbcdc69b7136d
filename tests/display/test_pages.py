"""The confirm and done pages say what happens next: a stale link says plainly that its move no
longer applies and links to the game as it is now; the done page names who moves next."""
from __future__ import annotations

from tests.web.helpers import latest_to, move_links, start_game

PLAYERS = ["Anna <anna@example.org>", "Ben <ben@example.org>"]


def _start_and_find_mover(client, app):
    start_game(app, "suzerain", PLAYERS)
    # display names are the players' own (the start helper names them from their address)
    for addr, other in (("anna@example.org", "ben"), ("ben@example.org", "anna")):
        links = move_links(latest_to(app, addr))
        if links:
            return links, other
    raise AssertionError("nobody was offered a move")


def test_done_page_names_who_moves_next(client, app):
    links, other = _start_and_find_mover(client, app)
    _text, path = links[0]
    done = client.post(path).text
    assert "Next to move" in done and other in done
    assert "you will get one when it is your turn again" in done


def test_a_stale_link_says_its_move_no_longer_applies(client, app):
    links, _ = _start_and_find_mover(client, app)
    (_, first), (_, second) = links[0], links[1]
    client.post(first)
    page = client.get(second).text
    assert "no longer applies" in page
    assert "<form" not in page          # no button that would only refuse
    assert "See the game as it is now" in page
    assert "If your move is still possible" not in page


def test_the_game_page_shows_the_hand_as_card_pictures(client, app):
    from tests.web.helpers import game_link
    start_game(app, "aristocracy", PLAYERS)
    page = client.get(game_link(latest_to(app, "anna@example.org"))).text
    assert page.count('<img src="/cards/') >= 5
    assert 'alt="' in page


def test_the_dev_outbox_shows_the_inline_picture(client, app):
    import re
    start_game(app, "trees", PLAYERS)
    key = re.findall(r'href="/dev/outbox/([^"]+)"', client.get("/dev/outbox").text)[0]
    shown = client.get(f"/dev/outbox/{key}").text
    assert "data:image/png;base64," in shown and "cid:" not in shown


def test_the_game_page_draws_the_table(client, app):
    from tests.web.helpers import game_link
    start_game(app, "trees", PLAYERS)
    page = client.get(game_link(latest_to(app, "anna@example.org"))).text
    assert 'class="table-picture" role="img" aria-label="The table: Your hand:' in page
    assert "<svg" in page
