"""Tournaments through the API: made as the lobby's form makes them (addresses invited by
email, bots entered at once), started with those who accepted or called off by their maker
alone; a malformed body or a stranger's hand changes nothing."""
from __future__ import annotations

from sqlalchemy import select

from service.play.players import personaltokens, start
from service.store.models import OutboxRow

ANNA, BEN, CY = "anna@example.org", "ben@example.org", "cy@example.org"


def auth(svc, addr):
    with svc.db.transaction() as s:      # a player as an account makes one
        start.find_player(s, addr, addr.split("@")[0].title(), svc.clock.now())
    return {"Authorization": f"Bearer {personaltokens.create(svc, addr, 'test')[1]}"}


def invitations(svc):
    with svc.db.transaction() as s:
        return sorted(s.scalars(select(OutboxRow.to_addr).where(
            OutboxRow.kind == "tournament_invite")))


def test_a_tournament_made_by_the_api_invites_its_entrants_and_its_maker_starts_it(app, client):
    svc = app.extensions["turnpost"]
    anna, ben = auth(svc, ANNA), auth(svc, BEN)
    r = client.post("/api/v1/tournaments", headers=anna, json={
        "game": "trees", "format": "swiss", "rounds": 2, "entrants": [BEN, CY, "bot:easy"],
        "clock": "3d"})
    assert r.status_code == 201, r.json
    tid = r.json["tournamentId"]
    assert r.json["started"] is False and r.json["url"].endswith(f"/api/v1/tournaments/{tid}")
    assert invitations(svc) == [BEN, CY]
    shown = client.get(f"/api/v1/tournaments/{tid}").json
    assert shown["status"] == "forming" and shown["rounds"] == 2 and shown["clock"] == "3d"
    # only its maker starts it or calls it off
    for act in ("start", "cancel"):
        r = client.post(f"/api/v1/tournaments/{tid}/{act}", headers=ben)
        assert r.status_code == 409 and "made this tournament" in r.json["detail"]
    # the maker and the bot have entered: a table of two, so the maker may start without
    # waiting for the invitations (those still open close)
    r = client.post(f"/api/v1/tournaments/{tid}/start", headers=anna)
    assert r.status_code == 200 and r.json == {"tournamentId": tid, "games": 1}
    assert client.get(f"/api/v1/tournaments/{tid}").json["status"] == "running"
    r = client.post(f"/api/v1/tournaments/{tid}/cancel", headers=anna)
    assert r.status_code == 409 and "started already" in r.json["detail"]


def test_its_maker_calls_it_off_and_a_missing_one_is_404(app, client):
    svc = app.extensions["turnpost"]
    anna = auth(svc, ANNA)
    tid = client.post("/api/v1/tournaments", headers=anna, json={
        "game": "trees", "format": "round-robin", "entrants": [BEN, CY]}).json["tournamentId"]
    r = client.post(f"/api/v1/tournaments/{tid}/cancel", headers=anna)
    assert r.status_code == 200 and r.json == {"tournamentId": tid, "status": "cancelled"}
    assert client.get(f"/api/v1/tournaments/{tid}").json["status"] == "cancelled"
    for act in ("start", "cancel"):
        r = client.post(f"/api/v1/tournaments/{tid + 1}/{act}", headers=anna)
        assert r.status_code == 404 and r.content_type == "application/problem+json"


def test_a_malformed_or_refused_tournament_makes_nothing_and_sends_nothing(app, client):
    svc = app.extensions["turnpost"]
    anna = auth(svc, ANNA)
    for body, status, says in (
            ({"game": "trees", "format": "swiss"}, 400, "entrants"),
            ({"game": "trees", "format": "swiss", "entrants": [BEN, 7]}, 400, "entrants"),
            ({"game": "trees", "format": "swiss", "rounds": "3", "entrants": [BEN]}, 400,
             "whole number"),
            ({"game": "chess", "format": "swiss", "entrants": [BEN]}, 409, ""),
            ({"game": "trees", "format": "knockout", "entrants": [BEN]}, 409, "")):
        r = client.post("/api/v1/tournaments", headers=anna, json=body)
        assert r.status_code == status, (body, r.json)
        assert says in r.json["detail"]
    assert client.post("/api/v1/tournaments", json={}).status_code == 401
    assert invitations(svc) == []
    assert client.get("/api/v1/tournaments/1").status_code == 404
