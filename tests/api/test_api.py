"""The JSON API (/api/v1): a whole Trees game played through it alone with two players'
tokens, and every kind of bad input answered with a problem document, changing nothing."""
from __future__ import annotations

import random

import pytest

from service import play
from service.play.players import personaltokens

ANNA, BEN = "anna@example.org", "ben@example.org"


@pytest.fixture
def table(app, client):
    svc = app.extensions["turnpost"]
    started = play.start_game(svc, "trees", [ANNA, BEN], {})
    keys = {addr: personaltokens.create(svc, addr, "test")[1] for addr in (ANNA, BEN)}
    return started.game_id, {a: {"Authorization": f"Bearer {t}"} for a, t in keys.items()}


def test_a_whole_trees_game_through_the_api_alone_with_two_tokens(client, table):
    gid, auth = table
    rng = random.Random(5)
    moves = 0
    while True:
        listed = {a: client.get("/api/v1/games", headers=h).json for a, h in auth.items()}
        if listed[ANNA]["finished"]:
            # an ended game is listed apart, never as being played
            assert all(x["nowPlaying"] == [] and x["finished"][0]["gameId"] == gid
                       and x["finished"][0]["status"] == "ended" for x in listed.values())
            break
        mine = {a: x["nowPlaying"] for a, x in listed.items()}
        assert all(len(games) == 1 and games[0]["gameId"] == gid for games in mine.values())
        turn = [a for a, games in mine.items() if games[0]["isMyTurn"]]
        assert len(turn) == 1
        h = auth[turn[0]]
        legal = client.get(f"/api/v1/games/{gid}/moves", headers=h).json
        assert legal["commands"] == [m["command"] for m in legal["moves"]]
        pick = rng.choice(legal["moves"])
        # half the moves as command text, half as the listed object
        body = {"command": pick["command"]} if moves % 2 else {"move": pick["move"]}
        r = client.post(f"/api/v1/games/{gid}/moves", headers=h,
                        json=body | {"seq": legal["seq"], "key": f"m{moves}"})
        assert r.status_code == 200, r.json
        assert r.json["seq"] >= legal["seq"] + 1
        moves += 1
        assert moves < 1000
    seen = client.get(f"/api/v1/games/{gid}", headers=auth[BEN]).json
    assert seen["outcome"] is not None and seen["seat"] == 1 and "hand" in seen["view"]
    assert seen["text"].strip()
    record = client.get(f"/api/v1/games/{gid}/record", headers=auth[ANNA]).json
    assert record["status"] == "ended" and record["outcome"] == seen["outcome"]
    assert "hand" not in record["view"] and record["history"]


def test_a_seat_sees_its_own_hand_and_not_the_other(client, table):
    gid, auth = table
    anna = client.get(f"/api/v1/games/{gid}", headers=auth[ANNA]).json
    ben = client.get(f"/api/v1/games/{gid}", headers=auth[BEN]).json
    assert anna["seat"] == 0 and ben["seat"] == 1
    assert anna["view"]["hand"] != ben["view"]["hand"]


@pytest.mark.parametrize("header", [None, "Bearer", "Bearer nonsense", "Basic abc",
                                    "Bearer tp_unknown0000000000000000000000000000000000"])
def test_missing_or_malformed_tokens_are_401_problems(client, table, header):
    gid, _ = table
    headers = {"Authorization": header} if header else {}
    for r in (client.get("/api/v1/games", headers=headers),
              client.post(f"/api/v1/games/{gid}/moves", headers=headers,
                          json={"command": "x"})):
        assert r.status_code == 401
        assert r.content_type == "application/problem+json"
        assert r.json["status"] == 401 and r.json["title"]
        assert r.headers["WWW-Authenticate"].startswith("Bearer")


def test_a_revoked_token_stops_working(app, client, table):
    svc = app.extensions["turnpost"]
    token_id, token = personaltokens.create(svc, ANNA)
    h = {"Authorization": f"Bearer {token}"}
    assert client.get("/api/v1/games", headers=h).status_code == 200
    assert personaltokens.revoke(svc, ANNA, token_id)
    assert client.get("/api/v1/games", headers=h).status_code == 401
    assert not personaltokens.revoke(svc, BEN, token_id)       # not Ben's to revoke


def test_another_players_game_is_404_not_403(app, client, table):
    gid, auth = table
    svc = app.extensions["turnpost"]
    started = play.start_game(svc, "trees", ["cleo@example.org", "dan@example.org"], {})
    # its record, as its public page's audience reads it
    record = (f"/api/v1/games/{started.game_id}/record", {"publicId": started.public_id})
    other = started.game_id
    before = client.get(record[0], query_string=record[1]).json["seq"]
    for r in (client.get(f"/api/v1/games/{other}", headers=auth[ANNA]),
              client.get(f"/api/v1/games/{other}/moves", headers=auth[ANNA]),
              client.post(f"/api/v1/games/{other}/moves", headers=auth[ANNA],
                          json={"command": "harvest moons"}),
              client.post(f"/api/v1/games/{other}/chat", headers=auth[ANNA],
                          json={"text": "hi"}),
              client.get("/api/v1/games/99999", headers=auth[ANNA])):
        assert r.status_code == 404 and r.content_type == "application/problem+json"
    assert client.get(record[0], query_string=record[1]).json["seq"] == before


def _seq(client, gid, h) -> int:
    """How far the game is, as a player's token reads its record."""
    return client.get(f"/api/v1/games/{gid}/record", headers=h).json["seq"]


def _mover(client, gid, auth):
    for addr, h in auth.items():
        legal = client.get(f"/api/v1/games/{gid}/moves", headers=h).json
        if legal["isMyTurn"]:
            return addr, h, legal
    raise AssertionError("nobody to move")


def test_a_stale_seq_is_409_with_the_current_one_and_nothing_changes(client, table):
    gid, auth = table
    addr, h, legal = _mover(client, gid, auth)
    first = client.post(f"/api/v1/games/{gid}/moves", headers=h,
                        json={"move": legal["moves"][0]["move"], "seq": legal["seq"]})
    assert first.status_code == 200
    # the other player moves; the first now sends a move for the position it saw before
    other, oh, olegal = _mover(client, gid, auth)
    assert other != addr
    assert client.post(f"/api/v1/games/{gid}/moves", headers=oh,
                       json={"command": olegal["commands"][0],
                             "seq": olegal["seq"]}).status_code == 200
    now = _seq(client, gid, auth[ANNA])
    stale = client.post(f"/api/v1/games/{gid}/moves", headers=h,
                        json={"command": legal["commands"][0], "seq": legal["seq"]})
    assert stale.status_code == 409, stale.json
    assert stale.json["seq"] == now and stale.json["mark"]
    assert "hand" in stale.json["view"]      # "here is the position as it is now": it is
    assert stale.content_type == "application/problem+json"
    assert _seq(client, gid, auth[ANNA]) == now


def test_the_same_client_key_twice_gets_the_first_answer_and_applies_once(client, table):
    gid, auth = table
    _, h, legal = _mover(client, gid, auth)
    body = {"command": legal["commands"][0], "seq": legal["seq"]}
    key = {"Idempotency-Key": "abc-1"}
    first = client.post(f"/api/v1/games/{gid}/moves", headers=h | key, json=body)
    again = client.post(f"/api/v1/games/{gid}/moves", headers=h | key, json=body)
    assert first.status_code == again.status_code == 200
    assert first.json == again.json and again.headers["Idempotent-Replayed"] == "true"
    assert _seq(client, gid, auth[ANNA]) == first.json["seq"]


@pytest.mark.parametrize("data, status", [
    (b"[1, 2]", 400), (b"\"sea under mill\"", 400), (b"{not json", 400), (b"", 400),
    (b'{"command": 5}', 400), (b'{"move": "x"}', 400), (b'{"seq": "3", "command": "x"}', 400),
    (b'{"command": "fly to the moon"}', 422), (b'{"move": {"type": "harvest"}}', 422),
    (b'{}', 400), (b'{"seq": 3}', 400), (b'{"commands": []}', 422),
    (b'{"command": "harvest moons", "seq": 0}', 409),
    (b'{"command": "harvest moons", "seq": 9999}', 409), (b"{" + b" " * 70000 + b"}", 413),
])
def test_bad_bodies_are_problems_and_change_nothing(client, table, data, status):
    gid, auth = table
    _, h, _ = _mover(client, gid, auth)
    before = _seq(client, gid, auth[ANNA])
    r = client.post(f"/api/v1/games/{gid}/moves", headers=h, data=data,
                    content_type="application/json")
    assert r.status_code == status, r.json
    assert r.content_type == "application/problem+json" and r.json["status"] == status
    assert _seq(client, gid, auth[ANNA]) == before


def test_a_refused_command_says_why_with_suggestions(client, table):
    gid, auth = table
    _, h, _ = _mover(client, gid, auth)
    r = client.post(f"/api/v1/games/{gid}/moves", headers=h, json={"command": "harvest mons"})
    assert r.status_code == 422 and r.json["detail"] and r.json["line"] == "harvest mons"


def test_chat_mails_the_other_players(app, client, table):
    from tests.web.helpers import latest_to, text_of
    gid, auth = table
    r = client.post(f"/api/v1/games/{gid}/chat", headers=auth[ANNA], json={"text": "good luck!"})
    assert r.status_code == 202 and r.json["emails"] == 1
    assert "good luck!" in text_of(latest_to(app, BEN))
    assert client.post(f"/api/v1/games/{gid}/chat", headers=auth[ANNA],
                       json={"text": 5}).status_code == 400


def test_tokens_page_from_the_game_page_makes_and_revokes_tokens(app, client, table):
    from tests.web.helpers import game_link, latest_to, post_form
    gid, _ = table
    page = game_link(latest_to(app, ANNA))
    assert f"{page}/tokens" in client.get(page).text
    made = post_form(client, f"{page}/tokens", {"label": "my bot"}, page=page).text
    token = made.split('class="token">')[1].split("<")[0]
    h = {"Authorization": f"Bearer {token}"}
    assert client.get("/api/v1/games", headers=h).json["nowPlaying"][0]["gameId"] == gid
    svc = app.extensions["turnpost"]
    token_id = personaltokens.listed(svc, ANNA)[-1].id
    post_form(client, f"{page}/tokens", {"revoke": str(token_id)}, page=page)
    assert client.get("/api/v1/games", headers=h).status_code == 401
    assert client.get("/g/forged/tokens").status_code == 400


def test_the_cli_makes_lists_and_revokes_tokens(app, client, table):
    runner = app.test_cli_runner()
    made = runner.invoke(args=["api-token", "create", ANNA, "--label", "bot"]).output
    token_id, token = int(made.split()[1]), made.split()[-1]
    h = {"Authorization": f"Bearer {token}"}
    assert client.get("/api/v1/games", headers=h).status_code == 200
    assert "\tbot\t" in runner.invoke(args=["api-token", "list", ANNA]).output
    assert runner.invoke(args=["api-token", "revoke", ANNA, str(token_id)]).exit_code == 0
    assert client.get("/api/v1/games", headers=h).status_code == 401
    assert runner.invoke(args=["api-token", "create", "nobody@x.org"]).exit_code != 0


def test_a_signed_in_player_makes_and_revokes_tokens_on_me(app, table):
    from tests.web.helpers import post_form, sign_in
    client = app.test_client()
    assert client.get("/me/tokens").status_code == 302          # sign in first
    sign_in(client, app, ANNA)
    assert "/me/tokens" in client.get("/me").text
    made = post_form(client, "/me/tokens", {"label": "phone"}, page="/me/tokens").text
    token = made.split('class="token">')[1].split("<")[0]
    h = {"Authorization": f"Bearer {token}"}
    assert client.get("/api/v1/games", headers=h).status_code == 200
    token_id = personaltokens.listed(app.extensions["turnpost"], ANNA)[-1].id
    post_form(client, "/me/tokens", {"revoke": str(token_id)}, page="/me/tokens")
    assert client.get("/api/v1/games", headers=h).status_code == 401


def test_the_api_is_rate_limited_per_token_with_a_problem_document(app_factory):
    app = app_factory(TURNPOST_LIMIT_API="2/minute")
    svc = app.extensions["turnpost"]
    client = app.test_client()
    play.start_game(svc, "trees", [ANNA, BEN], {})
    h = {"Authorization": f"Bearer {personaltokens.create(svc, ANNA, 'x')[1]}"}
    assert [client.get("/api/v1/games", headers=h).status_code for _ in range(2)] == [200, 200]
    r = client.get("/api/v1/games", headers=h)
    assert r.status_code == 429 and r.mimetype == "application/problem+json"
    assert int(r.headers["Retry-After"]) > 0 and r.json["status"] == 429
    other = {"Authorization": f"Bearer {personaltokens.create(svc, BEN, 'y')[1]}"}
    assert client.get("/api/v1/games", headers=other).status_code == 200   # its own count


def test_a_resigned_game_is_listed_as_ended_waiting_on_nobody(client, table, app):
    """The service ended it (a resignation): the engine, which knows nothing of that, still
    names a seat to act, and /api/v1/games said it was that seat's move."""
    from service.play.players import seatchanges
    gid, auth = table
    seatchanges.resign(app.extensions["turnpost"], gid, 1)
    for h in auth.values():
        listed = client.get("/api/v1/games", headers=h).json
        (line,) = listed["finished"]
        assert listed["nowPlaying"] == []            # an ended game is not being played
        assert line["status"] == "ended" and line["toAct"] == [] and not line["isMyTurn"]
