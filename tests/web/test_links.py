"""Moves by signed link, and every bad link: a GET never changes anything; a tampered, expired,
wrong-purpose or stale link, a double click and a move out of turn each get a page that says
what happened, and change nothing."""
from __future__ import annotations

import re

import pytest
from itsdangerous import URLSafeTimedSerializer
from sqlalchemy import event, func, select

from service.games import registry
from service.linking.signer import Claims
from service.play.services import run_nothing
from service.store.models import EventRow
from tests.web.helpers import (
    form_client,
    game_link,
    latest_to,
    mails,
    move_links,
    sign_in,
    start_game,
)

PLAYERS = "Anna <anna@example.org>\nben@example.org"


def start(client, app):
    return start_game(client.application, "trees", PLAYERS.splitlines()).game_id


def event_count(app):
    with app.extensions["turnpost"].db.transaction() as s:
        return s.scalar(select(func.count()).select_from(EventRow))


def mover(app):
    """The address whose latest email offers moves, and those moves."""
    for addr in ("anna@example.org", "ben@example.org"):
        links = move_links(latest_to(app, addr))
        if links:
            return addr, links
    raise AssertionError("nobody was offered a move")


def test_starting_a_game_emails_each_player_their_view(client, app):
    start(client, app)
    sent = mails(app)
    assert sorted(m["To"] for m in sent) == ["anna@example.org", "ben@example.org"]
    addr, links = mover(app)
    assert links, "the player to act gets one link per move"


def test_get_and_head_change_nothing_post_applies_once(client, app):
    start(client, app)
    addr, links = mover(app)
    text, path = links[0]
    before = event_count(app)
    for _ in range(3):
        assert client.get(path).status_code == 200
        assert client.head(path).status_code == 200
    assert event_count(app) == before
    page = client.get(path).text
    assert text in page and 'method="post"' in page
    done = client.post(path)
    assert done.status_code == 200 and "Done" in done.text
    after = event_count(app)
    assert after > before
    again = client.post(path)          # the double click
    assert again.status_code == 200 and "Already done" in again.text
    assert event_count(app) == after


def test_a_tampered_link_is_refused(client, app):
    start(client, app)
    _, links = mover(app)
    path = links[0][1]
    forged = path[:-3] + ("AAA" if not path.endswith("AAA") else "BBB")
    before = event_count(app)
    r = client.post(forged)
    assert r.status_code == 400 and "damaged" in r.text
    assert client.get(forged).status_code == 400
    assert event_count(app) == before


def test_a_link_signed_with_another_key_is_refused(client, app):
    gid = start(client, app)
    evil = URLSafeTimedSerializer("not-our-secret", salt="turnpost.move").dumps(
        {"g": gid, "s": 0, "q": 1, "m": {"type": "harvest", "root": "1M"}})
    r = client.post(f"/m/{evil}")
    assert r.status_code == 400 and "Nothing was changed" in r.text


def test_a_link_made_before_tokens_stopped_being_compressed_still_acts(client, app):
    """Tokens are no longer deflated (service.linking.signer._LinkSerializer); a compressed one, as
    itsdangerous made them before and players still hold in old emails, loads the same."""
    start(client, app)
    _, links = mover(app)
    signer = app.extensions["turnpost"].urls.signer
    token = links[0][1].split("/")[-1]
    assert not token.startswith(".")              # new tokens go uncompressed
    claims = signer.loads("move", token)
    payload = {"g": claims.game, "s": claims.seat, "q": claims.mark, "m": claims.move,
               "n": "x" * 40}                     # repetitive: deflate makes it shorter
    old = URLSafeTimedSerializer(app.config["TURNPOST_SECRET_KEY"],
                                 salt="turnpost.move").dumps(payload)
    assert old.startswith(".")                    # itsdangerous's mark of a deflated payload
    assert signer.loads("move", old) == claims
    done = client.post(f"/m/{old}")
    assert done.status_code == 200 and "Done" in done.text


def test_an_expired_link_is_refused(client, app, app_factory):
    start(client, app)
    _, links = mover(app)
    strict = app_factory(TURNPOST_LINK_MAX_AGE_DAYS=-1)
    r = strict.test_client().post(links[0][1])
    assert r.status_code == 400 and "expired" in r.text


def test_a_link_for_another_purpose_is_refused(client, app):
    start(client, app)
    _, links = mover(app)
    view_token = game_link(latest_to(app, "anna@example.org")).split("/")[-1]
    r = client.post(f"/m/{view_token}")
    assert r.status_code == 400 and "something else" in r.text


def test_a_stale_link_is_refused_once_the_game_moved_on(client, app):
    start(client, app)
    addr, links = mover(app)
    assert client.post(links[0][1]).status_code == 200
    r = client.post(links[1][1])       # another move from the same, now old, email
    assert r.status_code in (409, 422)
    assert "moved on" in r.text or "not" in r.text
    assert "Nothing was changed" in r.text


def test_a_move_out_of_turn_is_refused(client, app):
    gid = start(client, app)
    addr, links = mover(app)
    signer = app.extensions["turnpost"].urls.signer
    seat = 0 if addr == "anna@example.org" else 1
    claims = signer.loads("move", links[0][1].split("/")[-1])
    from service.linking import freshness
    from service.play import repository
    with app.extensions["turnpost"].db.transaction() as s:
        pos = repository.load(s, app.extensions["turnpost"].states, gid)
        their_mark = freshness.mark(pos.engine, pos.state, 1 - seat)   # fresh for the other seat
    forged_for_other = signer.dumps("move", Claims(gid, 1 - seat, their_mark, claims.move))
    before = event_count(app)
    r = client.post(f"/m/{forged_for_other}")
    assert r.status_code == 422 and "Nothing was changed" in r.text
    assert event_count(app) == before


@pytest.mark.parametrize("path", ["/m/garbage", "/g/garbage", "/u/garbage"])
def test_garbage_tokens_get_a_page_not_a_crash(client, app, path):
    r = client.get(path)
    assert r.status_code == 400 and "Nothing was changed" in r.text



def test_the_confirm_page_does_not_list_moves(client, app, monkeypatch):
    """The confirm page shows the one move of its link and offers no other, so it does not ask
    the engine for moves (issue 15: listing an Aristocracy seat's moves late in a game cost
    more than the rest of the page)."""
    start(client, app)
    addr, links = mover(app)
    trees, asked = registry.get("trees"), []
    for name in ("legal_moves", "menu"):
        real = getattr(trees, name)
        monkeypatch.setattr(trees, name, lambda *a, _real=real, _name=name, **k: (
            asked.append(_name), _real(*a, **k))[1])
    path = links[0][1]
    read = []
    engine = app.extensions["turnpost"].db.engine
    listen = (engine, "before_cursor_execute", lambda c, cur, statement, *a: read.append(statement))
    event.listen(*listen)
    try:
        assert client.get(path).status_code == 200
    finally:
        event.remove(*listen)
    assert asked == []
    # the position alone: not the table's undo request or the seat's mail from others
    assert not [q for q in read if "undo_requests" in q or "FROM inbound" in q], read
    game_page = client.get(game_link(latest_to(app, addr)))    # the page does offer them
    assert game_page.status_code == 200 and "legal_moves" in asked


def test_a_move_by_link_reads_nothing_after_it_is_written(client, app):
    """The done page is made from what the move itself returned (who acts now, their names):
    the request's statements end with the move's writes, with no second read of the game
    (issue 15: a move by link costs a few inserts, at most 15 statements)."""
    start(client, app)
    addr, links = mover(app)
    seen = []

    def record(conn, cursor, statement, *args):
        verb = statement.lstrip().split()[0].upper()
        # on PostgreSQL the move's writes are one statement of data-modifying WITH queries
        seen.append("INSERT" if verb == "WITH" and "INSERT INTO" in statement else verb)

    svc = app.extensions["turnpost"]
    svc.enqueue = run_nothing      # the emails go out after the response: not this request's
    event.listen(svc.db.engine, "before_cursor_execute", record)
    try:
        done = client.post(links[0][1])
    finally:
        event.remove(svc.db.engine, "before_cursor_execute", record)
    assert done.status_code == 200 and "Done" in done.text
    other = "Anna" if addr == "ben@example.org" else "ben"
    assert "Next to move" in done.text and other in done.text
    assert len(seen) <= 15
    last_write = max(i for i, verb in enumerate(seen) if verb in ("INSERT", "UPDATE"))
    assert "SELECT" not in seen[last_write:], seen


#: tokens that are not signed links but stored codes, refused by their own use cases: a
#: feed's personal secret, a one-time sign-in code, an invitation's code
OTHER_TOKENS = ("/feeds/", "/sign-in/", "/invitations/")


def test_every_page_that_reads_a_token_refuses_a_damaged_one_alike(app):
    """Each link-reading view, GET or POST, answers a damaged token with the same 400 page
    saying what happened and what to do, and changes nothing (one handler for all of them)."""
    client = form_client(app)
    routes = [(rule.rule, method) for rule in app.url_map.iter_rules()
              if "<token>" in rule.rule and not rule.rule.startswith(OTHER_TOKENS)
              for method in sorted(rule.methods & {"GET", "POST"})]
    assert len(routes) >= 15
    before = event_count(app)
    for rule, method in routes:
        path = rule.replace("<token>", "eyJnIjoxfQ.not-a-signature")
        answer = client.get(path) if method == "GET" else client.post(path, data={})
        assert answer.status_code == 400, (method, rule, answer.status_code)
        assert "This link is damaged" in answer.text, (method, rule)
    assert event_count(app) == before


def test_reopening_a_used_link_says_it_was_done(client, app):
    """The link's button was pressed: opening it again says so (its move's idempotency
    record), as pressing it again does, and does not call it stale."""
    start(client, app)
    _, links = mover(app)
    text, path = links[0]
    assert client.post(path).status_code == 200
    page = client.get(path)
    assert page.status_code == 200
    assert "already done" in page.text and "was made already" in page.text
    assert "moved on since this link was sent" not in page.text
    assert f'action="{path}"' not in page.text                 # no button to press again
    assert "Already done" in client.post(path).text


def test_a_stale_link_keeps_its_answer_and_a_used_one_says_it_was_made(client, app):
    start(client, app)         # Trees: one move a turn, so each move hands the turn over
    addr, links = mover(app)
    assert client.post(links[0][1]).status_code == 200
    stale = client.get(links[1][1]).text             # never pressed; the game moved on
    assert "moved on since this link was sent" in stale and "was made" not in stale
    # the other player moves: the used link's position has moved on too
    other = ({"anna@example.org", "ben@example.org"} - {addr}).pop()
    assert client.post(move_links(latest_to(app, other))[0][1]).status_code == 200
    used = client.get(links[0][1]).text
    assert "moved on since this link was sent" in used
    assert "This link's move was made before" in used


def test_pressing_a_stale_link_shows_the_position_as_it_is_now(client, app):
    """The refusal says "Here is the position as it is now": the page shows it (the seat's
    game page), with the refusal on top."""
    gid = start(client, app)
    addr, links = mover(app)
    seat = 0 if addr == "anna@example.org" else 1
    assert client.post(links[0][1]).status_code == 200
    r = client.post(links[1][1])
    assert r.status_code == 409
    assert "position as it is now" in r.text and "Nothing was changed" in r.text
    page = client.get(app.extensions["turnpost"].urls.game_path(gid, seat)).text
    for part in ('id="history"', "Waiting for", "Write to the table"):
        assert part in r.text and part in page
    # its links and forms are the game page's, not the move link's
    assert re.search(r'action="/g/[^"]+/say"', r.text)


def test_an_expired_game_link_offers_signing_in_to_that_game(client, app, app_factory):
    """Not another expired link: signing in (which then opens that game) or a reply `view`."""
    import html

    from tests.web.helpers import sign_in
    gid = start(client, app)
    page = game_link(latest_to(app, "ben@example.org"))
    strict = app_factory(TURNPOST_LINK_MAX_AGE_DAYS=-1)
    r = strict.test_client().get(page)
    assert r.status_code == 400 and "expired" in r.text
    assert "latest email" not in r.text and "view" in r.text
    way_in = html.unescape(re.search(r'href="(/sign-in\?next=[^"]+)"', r.text).group(1))
    browser = app.test_client()
    browser.get(way_in)
    signed_in = sign_in(browser, app, "ben@example.org")
    assert signed_in.headers["Location"] == f"/me/games/{gid}"
    there = browser.get(f"/me/games/{gid}")
    assert there.status_code == 302 and there.headers["Location"].startswith("/g/")
    assert "(you)" in browser.get(there.headers["Location"]).text
    assert browser.get("/me/games/999999").status_code == 404


@pytest.mark.parametrize("ahead, works", [(60, True), (3600, False)])
def test_a_link_signed_ahead_of_this_servers_clock_is_not_called_expired(
        client, app, monkeypatch, ahead, works):
    import time

    from itsdangerous.timed import TimestampSigner
    gid = start(client, app)
    signer = app.extensions["turnpost"].urls.signer
    with monkeypatch.context() as m:       # another server, its clock `ahead` seconds fast
        m.setattr(TimestampSigner, "get_timestamp", lambda self: int(time.time()) + ahead)
        token = signer.dumps("view", Claims(gid, 1))
    r = client.get(f"/g/{token}")
    if works:
        assert r.status_code == 200
    else:
        assert r.status_code == 400 and "not valid yet" in r.text
        assert "expired" not in r.text.lower()


def test_a_seat_link_opened_signed_in_as_another_player_says_whose_seat_it_is(client, app):
    """Issue 49, item 11: a forwarded turn email's links still act for the seat (they are its
    key), but someone signed in as another account is told before the button whose seat it is
    and who they are signed in as; the seat's own player is told nothing."""
    start(client, app)
    addr, links = mover(app)
    owner = addr.split("@")[0]
    page = client.get(links[0][1]).text
    assert 'id="elsewhere"' not in page, "signed out: nobody to tell"
    sign_in(client, app, "dave@example.org")
    page = client.get(links[0][1]).text
    said = f"This is {owner}&#39;s seat; you are signed in as dave (dave@example.org)"
    assert said in page
    assert page.index(said) < page.index(f'action="{links[0][1]}"'), "before the button"
    seat_path = game_link(latest_to(app, addr))
    seat_page = client.get(seat_path).text
    assert said in seat_page and seat_page.index(said) < seat_page.index("Your moves")
    before = event_count(app)
    assert client.post(links[0][1]).status_code == 200, "forwarding still works"
    assert event_count(app) > before
    owners = app.test_client()
    sign_in(owners, app, addr)
    assert 'id="elsewhere"' not in owners.get(seat_path).text
