"""The one read policy (service/play/readpolicy.py): who may see what of a game.

The defects this guards against: `GET /api/v1/games/<id>/record` answered 200 to anyone for
every game, private ones included, and a stranger's token was told "no game number 1 of
yours" for a game that exists but "no game number 9" for one that does not."""
from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from service import play
from service.play.players import personaltokens as tokens
from service.play.players import seats as seat_cases
from service.store.models import ChatMessage, GameRow

from .helpers import lobby_game, mails, start_game, text_of

ANNA, BEN, STRANGER = "anna@example.org", "ben@example.org", "sam@example.org"


@pytest.fixture
def private(app):
    """A Trees game Anna made in the lobby with its public page off, Ben at the table, and a
    chat line of Anna's: (game number, public id, chat line id, Anna's signed-in client)."""
    anna, _ = lobby_game(app, ANNA, [BEN])        # "public" not ticked: the page is off
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as session:
        game = session.scalars(select(GameRow)).one()
        assert game.status == "active" and not game.public
        gid, public_id = game.id, game.public_id
    play.say(svc, gid, 0, "good luck, Ben")
    with svc.db.transaction() as session:
        line = session.scalars(select(ChatMessage.id).where(ChatMessage.game_id == gid)).one()
    return gid, public_id, line, anna


def _stranger(app) -> dict[str, str]:
    """The API token of Sam, who plays a game of his own on this server but not the game
    asked about."""
    start_game(app, "trees", [STRANGER, "tom@example.org"])
    return {"Authorization": f"Bearer {tokens.create(app.extensions['turnpost'], STRANGER)[1]}"}


def test_the_record_by_number_is_for_the_games_players_only(app):
    """The record's leak: it answered 200 to anyone signed out, for every game."""
    started = start_game(app, "trees", [ANNA, BEN])      # its public page is on
    client = app.test_client()
    gid = started.game_id
    # a number names nothing to anyone but the game's players, public page or not: numbers are
    # sequential, and a public page's address is listed nowhere but where its players put it
    assert client.get(f"/api/v1/games/{gid}/record").status_code == 404
    sam = _stranger(app)
    assert client.get(f"/api/v1/games/{gid}/record", headers=sam).status_code == 404
    # the public page's audience reads it by naming the page's id, as the page shows it
    shown = client.get(f"/api/v1/games/{gid}/record", query_string={"publicId":
                                                                     started.public_id})
    assert shown.status_code == 200 and shown.json["players"] == ["anna", "ben"]
    assert "hand" not in shown.json["view"]
    # another game's public id opens nothing
    other = start_game(app, "trees", ["cleo@example.org", "dan@example.org"])
    assert client.get(f"/api/v1/games/{gid}/record",
                      query_string={"publicId": other.public_id}).status_code == 404
    # a token that is not one is refused as such, not read as nobody
    bad = client.get(f"/api/v1/games/{gid}/record", headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 401


def test_the_record_of_a_private_game_is_404_even_with_its_public_id(app, private):
    gid, public_id, _, _ = private
    client = app.test_client()
    for query in ({}, {"publicId": public_id}):
        r = client.get(f"/api/v1/games/{gid}/record", query_string=query)
        assert r.status_code == 404 and "anna" not in r.get_data(as_text=True)


def test_a_strangers_token_cannot_tell_a_private_game_from_none(app, private):
    """The existence oracle: "no game number 1 of yours" against "no game number 9"."""
    gid = private[0]
    sam = _stranger(app)
    client = app.test_client()
    there = client.get(f"/api/v1/games/{gid}", headers=sam)
    nothing = client.get(f"/api/v1/games/{gid + 8}", headers=sam)
    assert there.status_code == nothing.status_code == 404
    assert there.json["detail"] == nothing.json["detail"]
    assert there.json["title"] == nothing.json["title"]
    # nor by asking for one of the game's seats
    seat = client.get(f"/api/v1/games/{gid}", headers=sam, query_string={"seat": "1"})
    assert seat.json["detail"] == nothing.json["detail"]


def _three_with_a_handover(app):
    """An Aristocracy game of three in which Ben resigned and Dora took his seat over: (game
    number, the view link Ben's emails carried)."""
    svc = app.extensions["turnpost"]
    gid = start_game(app, "aristocracy", [ANNA, BEN, "carla@example.org"]).game_id
    old_link = svc.urls.game_path(gid, 1, 0)
    seat_cases.resign(svc, gid, 1)
    seat_cases.invite_replacement(svc, gid, 0, 1, "dora@example.org")
    invite = next(m for m in mails(app) if m["To"] == "dora@example.org")
    token = re.search(r"/i/([A-Za-z0-9_.\-]+)", text_of(invite)).group(1)
    seat_cases.accept_replacement(svc, token)
    return gid, old_link


def test_a_previous_holders_link_reads_nothing_of_the_seat(app):
    """Ben's old link showed Dora's hand on every read but the game page: the replay and the
    seat's log download asked nothing of its holder, and a move link's confirm page neither."""
    svc = app.extensions["turnpost"]
    gid, old_link = _three_with_a_handover(app)
    client = app.test_client()
    for path in (old_link, f"{old_link}/replay", f"{old_link}/log.json"):
        r = client.get(path)
        assert r.status_code == 403 and "previous player" in r.get_data(as_text=True), path
    move = svc.urls.move_path(gid, 1, None, {"type": "pass"}, holder=0)
    assert client.get(move).status_code == 403
    # Dora's own link reads the seat
    assert client.get(svc.urls.game_path(gid, 1, 1) + "/replay").status_code == 200
