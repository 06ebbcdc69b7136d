"""The issue's "done means": start a Trees game for two addresses, read both emails, play the
game to its end by clicking links in the emails, and see the final scores."""
from __future__ import annotations

import random
import re

from .helpers import game_link, latest_to, mails, move_links, text_of

ADDRS = ["anna@example.org", "ben@example.org"]


def test_a_whole_game_played_by_clicking_email_links(client, app):
    r = client.post("/games", data={"game": "trees", "players": "\n".join(ADDRS)})
    gid = int(r.headers["Location"].rsplit("/", 1)[1])
    rng = random.Random(11)
    clicks = 0
    while True:
        offers = {a: move_links(latest_to(app, a)) for a in ADDRS}
        offers = {a: links for a, links in offers.items() if links}
        if not offers:
            break
        addr, links = next(iter(offers.items()))
        _, path = rng.choice(links)
        assert client.get(path).status_code == 200
        r = client.post(path)
        assert r.status_code == 200, r.text
        clicks += 1
        assert clicks < 2000
    finals = [latest_to(app, a) for a in ADDRS]
    for msg in finals:
        body = text_of(msg)
        assert "GAME OVER" in body and re.search(r"\d", body)
    # the game page shows the result too
    page = client.get(game_link(finals[0])).text
    assert "Game over" in page
    spectator = client.get(f"/games/{gid}").text
    assert "Game over" in spectator
    assert len(mails(app)) > clicks


def test_turn_form_applies_typed_commands_and_explains_mistakes(client, app):
    client.post("/games", data={"game": "trees", "players": "\n".join(ADDRS)})
    addr = next(a for a in ADDRS if move_links(latest_to(app, a)))
    msg = latest_to(app, addr)
    page_path = game_link(msg)
    page = client.get(page_path).text
    seen = re.search(r'name="seen" value="([0-9a-f]+)"', page).group(1)
    nonce = re.search(r'name="nonce" value="([^"]+)"', page).group(1)
    bad = client.post(page_path + "/play", data={"commands": "play the moon under the sun",
                                                 "seen": seen, "nonce": nonce})
    assert bad.status_code == 422 and "Nothing was changed" in bad.text
    text = move_links(msg)[0][0]
    ok = client.post(page_path + "/play", data={"commands": text, "seen": seen, "nonce": nonce})
    assert ok.status_code == 302
    again = client.post(page_path + "/play", data={"commands": text, "seen": seen, "nonce": nonce})
    assert again.status_code == 302    # a resubmitted form is answered "already done"
    history = client.get(page_path).text
    assert history.count("<li>") >= 1


def test_lobby_lists_games_and_refuses_bad_starts(client):
    lobby = client.get("/")
    assert lobby.status_code == 200 and "Trees" in lobby.text
    r = client.post("/games", data={"game": "trees", "players": "only@example.org"})
    assert r.status_code == 400 and "Nothing was started" in r.text
    r = client.post("/games", data={"game": "chess", "players": "\n".join(ADDRS)})
    assert r.status_code == 400


def test_unsubscribe_mutes_the_game_for_that_seat(client, app):
    client.post("/games", data={"game": "trees", "players": "\n".join(ADDRS)})
    msg = latest_to(app, ADDRS[0])
    unsub = msg["List-Unsubscribe"].strip("<>").replace("http://turnpost.test", "")
    assert client.get(unsub).status_code == 200
    assert client.post(unsub).status_code == 200     # RFC 8058 one-click POST
    before = len([m for m in mails(app) if m["To"] == ADDRS[0]])
    # play on: the muted seat gets no more mail
    for _ in range(4):
        addr = next((a for a in ADDRS if move_links(latest_to(app, a))), None)
        if addr is None:
            break
        client.post(move_links(latest_to(app, addr))[0][1])
    assert len([m for m in mails(app) if m["To"] == ADDRS[0]]) == before


def test_dev_outbox_shows_the_mail(client, app):
    client.post("/games", data={"game": "trees", "players": "\n".join(ADDRS)})
    page = client.get("/dev/outbox")
    assert page.status_code == 200 and "anna@example.org" in page.text
    key = re.search(r'href="/dev/outbox/([^"]+)"', page.text).group(1)
    assert client.get(f"/dev/outbox/{key}").status_code == 200


def test_game_page_buttons_make_moves_and_come_back(client, app):
    client.post("/games", data={"game": "trees", "players": "\n".join(ADDRS)})
    addr = next(a for a in ADDRS if move_links(latest_to(app, a)))
    page_path = game_link(latest_to(app, addr))
    page = client.get(page_path).text
    assert "Every move you can make now" in page
    action = re.search(r'<form method="post" action="(/m/[^"]+)"><input type="hidden" '
                       r'name="then" value="game">', page).group(1)
    r = client.post(action, data={"then": "game"})
    assert r.status_code == 302
    signer = app.extensions["turnpost"].urls.signer
    back = r.headers["Location"].rsplit("/", 1)[1]       # a fresh token for the same page
    assert signer.loads("view", back) == signer.loads("view", page_path.rsplit("/", 1)[1])
    assert "Done:" in client.get(r.headers["Location"]).text


def test_the_lobby_will_not_let_a_player_fix_the_deal(client):
    page = client.get("/").text
    assert 'name="trees.deck"' not in page and 'name="trees.turn_cap"' in page
    r = client.post("/games", data={"game": "trees", "players": "\n".join(ADDRS),
                                    "trees.deck": "NM,NS"})
    assert r.status_code == 400 and "fixes the deal" in r.text
