"""/api/v1/openapi.json is built from the code: every route under /api/v1 is described, every
description is a route, and every operation's example is answered by the server with the
status it documents first."""
from __future__ import annotations

import pytest

from service import play
from service.play.players import personaltokens
from service.web.openapi import openapi_path

ANNA, BEN = "anna@example.org", "ben@example.org"


@pytest.fixture
def spec(client):
    r = client.get("/api/v1/openapi.json")
    assert r.status_code == 200
    return r.json


def test_it_is_openapi_3_1_with_a_problem_schema(spec):
    assert spec["openapi"] == "3.1.0"
    assert spec["components"]["securitySchemes"]["token"]["scheme"] == "bearer"
    assert "Problem" in spec["components"]["schemas"]


def test_every_api_route_is_described_and_every_description_is_a_route(app, spec):
    routes = {(openapi_path(r.rule), m.lower()) for r in app.url_map.iter_rules()
              if r.rule.startswith("/api/v1/") for m in r.methods - {"HEAD", "OPTIONS"}}
    described = {(path, method) for path, ops in spec["paths"].items() for method in ops}
    assert routes == described
    for ops in spec["paths"].values():
        for op in ops.values():
            assert op["summary"] and op["responses"]


def _example_request(op, path):
    for p in op.get("parameters", []):
        if p["in"] == "path":
            path = path.replace("{" + p["name"] + "}", str(p["example"]))
    query = {p["name"]: p["example"] for p in op.get("parameters", [])
             if p["in"] == "query" and "example" in p}
    body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
    return path, query, body.get("example")


def test_every_example_is_answered_with_its_documented_status(app, client, spec):
    svc = app.extensions["turnpost"]
    started = play.start_game(svc, "trees", [ANNA, BEN], {})
    assert started.game_id == 1        # the examples name game 1
    # the example move is for whoever is to move: both players answer it, as documented
    auth = {a: {"Authorization": f"Bearer {personaltokens.create(svc, a)[1]}"} for a in (ANNA, BEN)}
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            url, query, example = _example_request(op, path)
            for h in auth.values():
                r = client.open(url, method=method.upper(), headers=h, query_string=query,
                                json=example)
                assert str(r.status_code) in op["responses"], (method, path, r.status_code)
                wanted = "application/problem+json" if r.status_code >= 400 \
                    else "application/json"
                assert r.content_type == wanted
                ok = min(op["responses"])
                if r.status_code < 400:
                    assert r.status_code == int(ok)
                    assert set(r.json) == set(op["responses"][ok]["content"][
                        "application/json"]["example"]), (method, path)
