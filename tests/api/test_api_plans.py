"""POST /api/v1/games/<id>/plans: plan lines through the API, all kept or none."""
from __future__ import annotations

import random

import pytest

from service import play
from service.games.suzerain.rules import playable
from service.play import repository
from service.play.players import personaltokens

ANNA, BEN = "anna@example.org", "ben@example.org"


@pytest.fixture
def table(app):
    svc = app.extensions["turnpost"]
    svc.chance = random.Random(5)
    started = play.start_game(svc, "suzerain", [ANNA, BEN], {})
    keys = {addr: personaltokens.create(svc, addr, "test")[1] for addr in (ANNA, BEN)}
    with svc.db.transaction() as s:
        pos = repository.load(s, svc.states, started.game_id)
    follower = [ANNA, BEN][1 - pos.state.leader]
    return started.game_id, {"Authorization": f"Bearer {keys[follower]}"}, pos


def test_plans_are_kept_and_listed_through_the_api(client, table):
    game, auth, pos = table
    card = pos.state.hands[pos.state.leader][0]
    led = pos.engine.describe({"type": "lead", "card": card})
    follow = playable(pos.state.hands[1 - pos.state.leader], card)[0]
    mine = pos.engine.describe({"type": "play", "card": follow})
    got = client.post(f"/api/v1/games/{game}/plans", headers=auth,
                      json={"lines": [f"if they {led} then {mine}"]})
    assert got.status_code == 200, got.json
    assert got.json["answers"][0].startswith("Plan kept")
    assert mine in got.json["plans"]


def test_more_than_fifty_lines_are_refused_and_nothing_is_kept(client, table):
    game, auth, pos = table
    led = pos.engine.describe({"type": "lead", "card": pos.state.hands[pos.state.leader][0]})
    mine = pos.engine.describe({"type": "play", "card": pos.state.hands[1 - pos.state.leader][0]})
    got = client.post(f"/api/v1/games/{game}/plans", headers=auth,
                      json={"lines": [f"if they {led} then {mine}"] * 51})
    assert got.status_code == 422 and "at most 50" in got.json["detail"]
    listed = client.post(f"/api/v1/games/{game}/moves", headers=auth,
                         json={"command": "plans"})
    assert "no plans" in listed.json["answers"][0]
