"""The issue's "done means": start a Trees game for two addresses, read both emails, play the
game to its end by clicking links in the emails, and see the final scores."""
from __future__ import annotations

import random
import re

from tests.web.helpers import (
    csrf,
    game_link,
    invitation_links,
    latest_to,
    mails,
    move_links,
    post_form,
    sign_in,
    start_game,
    text_of,
)

ADDRS = ["anna@example.org", "ben@example.org"]


def lobby_game(client, app, invitees=("ben@example.org",), **form):
    """Anna signs in and invites the others; each accepts from its invitation email."""
    sign_in(client, app, ADDRS[0])
    r = post_form(client, "/games", {"game": "trees", "players": "\n".join(invitees), **form},
                  page="/")
    assert r.status_code == 302 and r.headers["Location"] == "/me", r.text
    guest = app.test_client()
    for addr in invitees:
        path = invitation_links(latest_to(app, addr))["accept"]
        assert post_form(guest, path, page=path).status_code == 200


def test_a_whole_game_in_the_default_mail_mode_mails_only_your_move_and_the_end(client, app):
    lobby_game(client, app)
    rng = random.Random(11)
    clicks, seen = 0, len(mails(app))
    assert [m["Subject"].split(" · ")[0] for m in mails(app)[-1:]] == ["Your move"]
    while True:
        newest = mails(app)[-1]       # by default only the seat to move is mailed
        links = move_links(newest)
        if not links:
            break
        _, path = rng.choice(links)
        assert client.get(path).status_code == 200
        r = client.post(path)
        assert r.status_code == 200, r.text
        clicks += 1
        assert clicks < 2000
    game_mails = mails(app)[seen - 1:]
    kinds = [m["Subject"].split(" · ")[0] for m in game_mails]
    assert set(kinds) == {"Your move", "Game over"}, set(kinds)
    assert kinds.count("Game over") == 2 and kinds[-2:] == ["Game over", "Game over"]
    assert kinds.count("Your move") == clicks       # one per move, to the seat now to move
    finals = [latest_to(app, a) for a in ADDRS]
    for msg in finals:
        body = text_of(msg)
        assert "GAME OVER" in body and re.search(r"\d", body)
        assert "Game over · Trees #1 with " in msg["Subject"]
    # the game page shows the result too, and offers a rematch
    page = client.get(game_link(finals[0])).text
    assert "Game over" in page and "Rematch" in page


def test_turn_form_applies_typed_commands_and_explains_mistakes(client, app):
    start_game(app, "trees", ADDRS)
    addr = next(a for a in ADDRS if move_links(latest_to(app, a)))
    msg = latest_to(app, addr)
    page_path = game_link(msg)
    page = client.get(page_path).text
    seen = re.search(r'name="seen" value="([0-9a-f]+)"', page).group(1)
    nonce = re.search(r'name="nonce" value="([^"]+)"', page).group(1)
    token = csrf(client, page_path)
    forged = client.post(page_path + "/play", data={"commands": "x", "seen": seen})
    assert forged.status_code == 400           # no CSRF token: refused before anything
    bad = client.post(page_path + "/play", data={"commands": "play the moon under the sun",
                                                 "seen": seen, "nonce": nonce,
                                                 "csrf_token": token})
    assert bad.status_code == 422 and "Nothing was changed" in bad.text
    text = move_links(msg)[0][0]
    form = {"commands": text, "seen": seen, "nonce": nonce, "csrf_token": token}
    ok = client.post(page_path + "/play", data=form)
    assert ok.status_code == 302
    again = client.post(page_path + "/play", data=form)
    assert again.status_code == 302    # a resubmitted form is answered "already done"
    history = client.get(page_path).text
    assert history.count("<li>") >= 1


def test_lobby_lists_games_and_refuses_bad_starts(client, app):
    lobby = client.get("/")
    assert lobby.status_code == 200 and "Trees" in lobby.text
    sign_in(client, app, ADDRS[0])
    sent = len(mails(app))
    r = post_form(client, "/games", {"game": "trees", "players": ""}, page="/")
    assert r.status_code == 400 and "Nothing was started" in r.text
    r = post_form(client, "/games", {"game": "chess", "players": ADDRS[1]}, page="/")
    assert r.status_code == 400
    assert len(mails(app)) == sent


def test_unsubscribe_mutes_the_game_for_that_seat(client, app):
    start_game(app, "trees", ADDRS)
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
    start_game(app, "trees", ADDRS[:1] + ["bot"])          # one email: "1 email", not "1 emails"
    page = client.get("/dev/outbox")
    assert page.status_code == 200 and "anna@example.org" in page.text
    assert "Dev outbox: 1 email, newest first" in page.text
    key = re.search(r'href="/dev/outbox/([^"]+)"', page.text).group(1)
    assert client.get(f"/dev/outbox/{key}").status_code == 200


def test_game_page_buttons_make_moves_and_come_back(client, app):
    start_game(app, "trees", ADDRS)
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


def test_the_lobby_will_not_let_a_player_fix_the_deal(client, app):
    page = client.get("/").text
    assert 'name="trees.deck"' not in page and 'name="trees.turn_cap"' in page
    sign_in(client, app, ADDRS[0])
    r = post_form(client, "/games", {"game": "trees", "players": ADDRS[1],
                                     "trees.deck": "NM,NS"}, page="/")
    assert r.status_code == 400 and "fixes the deal" in r.text
