"""A cap on games at once for new players (issue 50, item 6): TURNPOST_NEW_PLAYER_GAME_CAP
games at once plus one per finished game; past it, making a game, accepting an invitation and
taking an open seat are refused with why and when it lifts, and nothing changes."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select

from service import play
from service.play.players import gamecap, invitations
from service.store.models import GameRow, Invitation, Player
from tests.web.helpers import invitation_links, mails, post_form, sign_in, start_game

ME, BEN, CLEO = "me@example.org", "ben@example.org", "cleo@example.org"


@pytest.fixture
def capped(app_factory):
    return app_factory(TURNPOST_NEW_PLAYER_GAME_CAP=2)


def _id(app, addr) -> int:
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        return s.scalars(select(Player.id).where(Player.email == addr)).one()


def _games(app) -> int:
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        return s.scalar(select(func.count()).select_from(GameRow))


def _two_running(app) -> list[int]:
    """Two games of mine, started by the operator (who is not held to the cap)."""
    return [start_game(app, "trees", [ME, other]).game_id for other in (BEN, CLEO)]


def test_the_default_cap_is_twenty():
    from config import Settings
    assert Settings().NEW_PLAYER_GAME_CAP == 20


def test_making_a_game_past_the_cap_is_refused_saying_when_it_lifts(capped):
    svc = capped.extensions["turnpost"]
    _two_running(capped)
    before = _games(capped)
    with pytest.raises(gamecap.GameCapReached) as refused:
        invitations.create_game(svc, _id(capped, ME), "trees", [BEN])
    words = refused.value.detail
    assert "in 2 games at once" in words and "plus one for each game finished" in words
    assert "lifts as soon as one of those games ends" in words
    assert _games(capped) == before
    # the lobby says the same on its page, and makes nothing
    client = capped.test_client()
    sign_in(client, capped, ME)
    page = post_form(client, "/games", {"game": "trees", "players": BEN}, page="/")
    assert "2 games at once" in page.text and _games(capped) == before


def test_a_finished_game_lifts_the_cap_for_good(capped):
    svc = capped.extensions["turnpost"]
    first, _ = _two_running(capped)
    play.runner.run_line(svc, first, 0, "resign")      # two players: the game ends
    me = _id(capped, ME)
    with svc.db.transaction() as s:
        assert s.get(GameRow, first).status == "ended"
        assert gamecap.finished(s, me) == 1
        assert gamecap.at_once(s, me) == 1
    # cap 2 + 1 finished: two more, the forming ones counted
    invitations.create_game(svc, _id(capped, ME), "trees", [BEN])
    invitations.create_game(svc, _id(capped, ME), "trees", [CLEO])
    with pytest.raises(gamecap.GameCapReached, match=r"finished 1"):
        invitations.create_game(svc, _id(capped, ME), "trees", [BEN])


def test_accepting_an_invitation_past_the_cap_is_refused_and_it_stays_open(capped):
    start_game(capped, "trees", [BEN, "dan@example.org"])
    start_game(capped, "trees", [BEN, "eve@example.org"])
    invitations.create_game(capped.extensions["turnpost"], _id(capped, "dan@example.org"),
                            "trees", [BEN])
    invite = [m for m in mails(capped) if m["To"] == BEN and "invites you" in m["Subject"]][-1]
    path = invitation_links(invite)["accept"]
    answer = post_form(capped.test_client(), path, page=path)
    assert answer.status_code == 409 and "2 games at once" in answer.text
    svc = capped.extensions["turnpost"]
    with svc.db.transaction() as s:
        assert s.scalars(select(Invitation.status).where(
            Invitation.email == BEN, Invitation.seat == 1)).all() == ["pending"]


def test_taking_an_open_seat_past_the_cap_is_refused(capped):
    svc = capped.extensions["turnpost"]
    formed = invitations.create_game(svc, _maker(capped), "trees", [], open_seats=1)
    _two_running(capped)
    with pytest.raises(gamecap.GameCapReached):
        invitations.join_open_seat(svc, _id(capped, ME), formed.game_id)
    with svc.db.transaction() as s:
        assert s.scalars(select(Invitation.status).where(
            Invitation.game_id == formed.game_id, Invitation.seat == 1)).all() == ["open"]


def _maker(app) -> int:
    start_game(app, "trees", ["maker@example.org", "other@example.org"])
    return _id(app, "maker@example.org")


def test_no_cap_when_the_setting_is_zero(app_factory):
    app = app_factory(TURNPOST_NEW_PLAYER_GAME_CAP=0)
    _two_running(app)
    invitations.create_game(app.extensions["turnpost"], _id(app, ME), "trees", [BEN])
