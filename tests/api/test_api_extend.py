"""`extend 2d` through the API: asked of the other player, who agrees by the emailed link."""
from __future__ import annotations

from service import play
from service.play.players import personaltokens

ANNA, BEN = "anna@example.org", "ben@example.org"


def test_extend_through_the_api_and_agreed_by_link(app, client):
    from tests.web.helpers import latest_to, text_of
    svc = app.extensions["turnpost"]
    gid = play.start_game(svc, "trees", [ANNA, BEN], {"clock": "2d"}).game_id
    auth = {a: {"Authorization": f"Bearer {personaltokens.create(svc, a, 'test')[1]}"}
            for a in (ANNA, BEN)}
    mine = client.get("/api/v1/games", headers=auth[ANNA]).json["nowPlaying"][0]
    asker, other = (ANNA, BEN) if mine["isMyTurn"] else (BEN, ANNA)
    r = client.post(f"/api/v1/games/{gid}/extend", headers=auth[asker], json={"days": "90d"})
    assert r.status_code == 422 and "from 1 to 14 days" in r.json["detail"]
    r = client.post(f"/api/v1/games/{gid}/extend", headers=auth[asker], json={"days": "2d"})
    assert r.status_code == 202 and r.json["emails"] == 1
    mail = text_of(latest_to(app, other))
    assert "asks for 2 days more to move" in mail
    link = next(w for w in mail.split() if "/s/" in w).strip("<>()")
    path = link.split("turnpost.test", 1)[1]
    assert "Agree to the extension asked for" in client.get(path).text   # GET shows
    assert "Everyone agreed" in client.post(path).text                      # POST applies
    assert client.post(f"/api/v1/games/{gid}/extend", headers=auth[asker],
                       json={"days": True}).status_code == 400
