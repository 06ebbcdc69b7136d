"""Whatever goes wrong under /api/v1, a client gets a problem document (RFC 9457) with the
status and words that say what to do, never an HTML page: a query parameter it cannot read,
an address or method the API does not have, a bug, a database restart. A parameter that
cannot be read is refused, not ignored (acting for the wrong seat is worse than an error),
and nothing changes. Found by running schemathesis against /api/v1/openapi.json."""
from __future__ import annotations

import pytest
from sqlalchemy.exc import OperationalError

from service import play
from service.play.moves import apiwrites
from service.play.players import personaltokens
from service.play.reads import apireads

ANNA, BEN = "anna@example.org", "ben@example.org"
PROBLEM = "application/problem+json"


@pytest.fixture
def table(app):
    svc = app.extensions["turnpost"]
    gid = play.start_game(svc, "trees", [ANNA, BEN], {}).game_id
    return gid, {"Authorization": f"Bearer {personaltokens.create(svc, ANNA, 'test')[1]}"}


def _is_problem(r, status: int) -> dict:
    assert r.status_code == status, r.get_data(as_text=True)[:300]
    assert r.mimetype == PROBLEM and r.json["status"] == status and r.json["detail"]
    return r.json


@pytest.mark.parametrize("seat", ["null", "-1", "1.0", "one", "", "١"])
def test_a_seat_that_is_not_one_seat_number_is_400_and_changes_nothing(client, table, seat):
    gid, h = table
    before = client.get(f"/api/v1/games/{gid}/record", headers=h).json["seq"]
    q = {"seat": seat}
    for r in (client.get(f"/api/v1/games/{gid}", headers=h, query_string=q),
              client.get(f"/api/v1/games/{gid}/moves", headers=h, query_string=q),
              client.post(f"/api/v1/games/{gid}/chat", headers=h, query_string=q,
                          json={"text": "hello"}),
              client.post(f"/api/v1/games/{gid}/moves", headers=h, query_string=q,
                          json={"command": "harvest moons"})):
        assert "seat is one seat number" in _is_problem(r, 400)["detail"]
    assert client.get(f"/api/v1/games/{gid}/record", headers=h).json["seq"] == before


def test_two_seats_at_once_are_400_and_one_good_seat_reads(client, table):
    gid, h = table
    r = client.get(f"/api/v1/games/{gid}?seat=0&seat=1", headers=h)
    _is_problem(r, 400)
    assert client.get(f"/api/v1/games/{gid}?seat=0", headers=h).json["seat"] == 0


@pytest.mark.parametrize("query", ["status=null", "status=Active", "status=active&status=ended"])
def test_a_status_filter_it_cannot_read_is_400_naming_the_good_ones(client, table, query):
    _, h = table
    detail = _is_problem(client.get(f"/api/v1/games?{query}", headers=h), 400)["detail"]
    assert "forming, active, ended" in detail


def test_each_status_filter_lists_the_games_in_it(client, table):
    gid, h = table
    assert [g["gameId"] for g in client.get("/api/v1/games?status=active", headers=h)
            .json["nowPlaying"]] == [gid]
    for status in ("forming", "ended"):
        r = client.get(f"/api/v1/games?status={status}", headers=h)
        assert r.status_code == 200 and r.json["nowPlaying"] == []


@pytest.mark.parametrize("path", ["/api/v1/games/null,null/moves", "/api/v1/games/abc",
                                  "/api/v1/nothing", "/api/v2/games"])
def test_an_address_the_api_does_not_have_is_a_404_problem(client, table, path):
    _, h = table
    assert "openapi.json" in _is_problem(client.get(path, headers=h), 404)["detail"]


def test_a_method_the_address_does_not_take_is_a_405_problem_with_allow(client, table):
    gid, h = table
    r = client.delete(f"/api/v1/games/{gid}/moves", headers=h)
    _is_problem(r, 405)
    assert set(r.headers["Allow"].split(", ")) >= {"GET", "POST"}


def test_a_page_address_with_nothing_at_it_is_a_page_saying_where_to_go(client):
    r = client.get("/no/such/page")
    assert r.status_code == 404 and r.mimetype == "text/html"
    assert "Nothing here" in r.get_data(as_text=True)


def test_a_bug_in_an_api_call_is_a_500_problem_with_the_logged_incident_id(
        app_factory, monkeypatch, caplog):
    app = app_factory(PROPAGATE_EXCEPTIONS=False)
    svc = app.extensions["turnpost"]
    play.start_game(svc, "trees", [ANNA, BEN], {})
    h = {"Authorization": f"Bearer {personaltokens.create(svc, ANNA, 'test')[1]}"}
    monkeypatch.setattr(apireads, "my_games", lambda *a, **k: 1 / 0)
    problem = _is_problem(app.test_client().get("/api/v1/games", headers=h), 500)
    assert "ZeroDivisionError" not in str(problem)
    assert any(problem["incident"] in rec.getMessage() for rec in caplog.records)


def test_a_database_restart_during_an_api_call_is_a_503_problem_with_retry_after(
        app, client, table, monkeypatch):
    gid, h = table

    def down(*a, **k):
        raise OperationalError("SELECT 1", {}, Exception("server closed the connection"))

    monkeypatch.setattr(apiwrites, "move", down)
    r = client.post(f"/api/v1/games/{gid}/moves", headers=h, json={"command": "harvest moons"})
    assert "Idempotency-Key" in _is_problem(r, 503)["detail"]
    # its own wait, not the rate limit window's reset (the limiter's headers outbid it)
    assert r.headers["Retry-After"] == "5"
