"""Following a game (issue 50, item 4): a signed-in player follows a public game from its page
(which shows "Follow" and how many follow), gets one digest email a day of the moves made as
spectators see them (never a hand, never a chat line), and stops with one click. A private
game is refused as reading it is."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from service import play
from service.display.seatview import history
from service.play import community, repository
from service.play.clock import ManualClock
from service.play.readpolicy import UNSEEN
from service.store import eventstore
from service.store.models import Follow, GameRow, Player
from tests.conftest import T0
from tests.web.helpers import form_client, mails, sign_in, start_game, text_of

ANNA, BEN, CLEO = "anna@example.org", "ben@example.org", "cleo@example.org"
SAID = "my secret table talk"


def _app(app_factory):
    clock = ManualClock(T0)
    return app_factory(TURNPOST_CLOCK=clock), clock


def _public_game(app, public=True) -> tuple[int, str]:
    svc = app.extensions["turnpost"]
    gid = start_game(app, "trees", [ANNA, BEN]).game_id
    start_game(app, "trees", [CLEO, "dan@example.org"])      # Cleo is a player somewhere
    with svc.db.transaction() as s:
        game = s.get(GameRow, gid)
        game.public = public
        return gid, game.public_id


def _moves(app, gid, n):
    svc = app.extensions["turnpost"]
    for _ in range(n):
        with svc.db.transaction() as s:
            pos = repository.load(s, svc.states, gid)
        (seat,) = pos.engine.to_act(pos.state)
        play.submit(svc, play.Intent(gid, seat, moves=[pos.engine.legal_moves(pos.state, seat)[0]],
                                     source="web"))


def _follower(app):
    client = form_client(app)
    sign_in(client, app, CLEO)
    return client


def _digests(app):
    return [m for m in mails(app) if m["To"] == CLEO and m["Subject"].startswith("Today in")]


def test_following_a_public_game_from_its_page(app_factory):
    app, _ = _app(app_factory)
    gid, public_id = _public_game(app)
    page = app.test_client().get(f"/games/{public_id}").text
    assert 'id="follow"' in page and "0 followers" in page
    client = _follower(app)
    answer = client.post(f"/games/{public_id}/follow", data={}, follow_redirects=True).text
    assert "Followed: a digest of its moves" in answer and "1 follower" in answer
    again = client.post(f"/games/{public_id}/follow", data={}, follow_redirects=True).text
    assert "You follow it already" in again and "1 follower" in again


def test_signed_out_is_asked_to_sign_in(app_factory):
    app, _ = _app(app_factory)
    _, public_id = _public_game(app)
    r = form_client(app).post(f"/games/{public_id}/follow", data={})
    assert r.status_code == 302 and "/sign-in" in r.headers["Location"]


def test_a_private_game_is_refused_as_reading_it_is(app_factory):
    app, _ = _app(app_factory)
    gid, public_id = _public_game(app, public=False)
    client = _follower(app)
    assert client.get(f"/games/{public_id}").status_code == 404
    assert client.post(f"/games/{public_id}/follow", data={}).status_code == 404
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        cleo = s.scalars(select(Player.id).where(Player.email == CLEO)).one()
    with pytest.raises(play.NoSuchGame) as refused:
        community.follows.follow_game(svc, cleo, gid)
    assert refused.value.detail == UNSEEN
    with svc.db.transaction() as s:
        assert s.scalars(select(Follow)).all() == []


def test_one_digest_a_day_of_the_public_moves_and_a_one_click_stop(app_factory):
    app, clock = _app(app_factory)
    svc = app.extensions["turnpost"]
    gid, public_id = _public_game(app)
    _follower(app).post(f"/games/{public_id}/follow", data={})
    clock.advance(hours=1)
    _moves(app, gid, 3)
    play.runner.run_line(svc, gid, 0, "say " + SAID)
    play.sweep(svc)
    assert _digests(app) == []                        # not a day yet
    clock.advance(days=1)
    play.sweep(svc)
    (digest,) = _digests(app)
    text = text_of(digest)
    with svc.db.transaction() as s:
        pos = repository.load(s, svc.states, gid)
        names = [x.player.name for x in pos.row.seats]
        public = [h["text"] for h in history(pos.engine, [
            (r.seq, r.event) for r in eventstore.load(s, pos.row)
            if r.at > T0], None, names)]
        hands = [c for hand in pos.state["hands"] for c in hand]
    assert public and all(line in text for line in public)
    assert SAID not in text and f"/games/{public_id}" in text
    assert not any(f"({card})" in text for card in hands)
    # nothing new: no digest the next day
    clock.advance(days=1)
    play.sweep(svc)
    assert len(_digests(app)) == 1
    # the one-click stop: a page with a button, then no more
    link = next(line.strip() for line in text.splitlines() if "/follows/" in line)
    path = link.split("http://turnpost.test", 1)[1]
    assert "Stop following" in app.test_client().get(path).text
    assert "Unfollowed" in app.test_client().post(path).text
    _moves(app, gid, 1)
    clock.advance(days=1)
    play.sweep(svc)
    assert len(_digests(app)) == 1


def test_a_tournament_that_is_none_is_refused(app_factory):
    app, _ = _app(app_factory)
    _public_game(app)
    client = _follower(app)
    r = client.post("/tournaments/999/follow", data={})
    assert r.status_code == 422 and "no such tournament" in r.text
