"""Operators' eyes: /metrics counters move during a game (and only loopback may read them),
and with TURNPOST_LOG_FORMAT=json every log line is a JSON object naming the request, the game
and the seat."""
from __future__ import annotations

import io
import json
import logging

from prometheus_client.parser import text_string_to_metric_families

from service import play
from service.play.players import personaltokens
from service.telemetry import logcontext
from service.web import logs
from tests.web.helpers import start_game

ANNA, BEN = "anna@example.org", "ben@example.org"


def scrape(client) -> dict[tuple, float]:
    r = client.get("/metrics")
    assert r.status_code == 200 and r.mimetype == "text/plain"
    out = {}
    for family in text_string_to_metric_families(r.text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def value(metrics, name, **labels):
    return metrics.get((name, tuple(sorted(labels.items()))), 0.0)


def _api_move(client, gid, auth, command=None):
    for h in auth:
        legal = client.get(f"/api/v1/games/{gid}/moves", headers=h).json
        if legal["isMyTurn"]:
            return client.post(f"/api/v1/games/{gid}/moves", headers=h,
                               json={"command": command or legal["commands"][0]})
    raise AssertionError("nobody to move")


def test_counters_move_during_a_game(app, client):
    svc = app.extensions["turnpost"]
    before = scrape(client)
    gid = start_game(app, "trees", [ANNA, BEN]).game_id      # players mailed every move
    auth = [{"Authorization": f"Bearer {personaltokens.create(svc, a)[1]}"} for a in (ANNA, BEN)]
    for _ in range(3):
        assert _api_move(client, gid, auth).status_code == 200
    assert _api_move(client, gid, auth, "fly to the moon").status_code == 422
    after = scrape(client)

    def moved(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("turnpost_moves_total", outcome="applied", source="api") == 3
    assert moved("turnpost_moves_total", outcome="refused", source="api") == 1
    assert moved("turnpost_emails_total", event="queued") >= 5
    assert moved("turnpost_emails_total", event="sent") >= 5
    assert ("turnpost_outbox_oldest_unsent_seconds", ()) in after
    assert ("turnpost_outbox_due_lag_seconds", ()) in after
    assert moved("turnpost_request_seconds_count", method="POST", endpoint="api.make_move",
                 status="200") == 3


def test_inbound_and_sweep_are_counted(app, client):
    svc = app.extensions["turnpost"]
    before = scrape(client)
    raw = b"From: x@example.org\r\nTo: play@turnpost.test\r\nMessage-ID: <a1@x>\r\n\r\nhello\r\n"
    play.accept_mail(svc, raw, "webhook")
    play.accept_mail(svc, raw, "webhook")
    play.sweep(svc)
    after = scrape(client)
    assert value(after, "turnpost_inbound_total", event="stored") - \
        value(before, "turnpost_inbound_total", event="stored") == 1
    assert value(after, "turnpost_inbound_total", event="duplicate") - \
        value(before, "turnpost_inbound_total", event="duplicate") == 1
    assert value(after, "turnpost_sweep_last_run_timestamp_seconds") > 0


def test_the_relays_refusals_are_counted_by_whose_trouble_they_were(app, client):
    svc = app.extensions["turnpost"]
    before = scrape(client)
    svc.note("relay_refusal", about="relay")
    svc.note("relay_refusal", about="relay")
    svc.note("relay_refusal", about="address")
    after = scrape(client)
    for about, n in (("relay", 2), ("address", 1)):
        assert value(after, "turnpost_relay_refusals_total", about=about) - \
            value(before, "turnpost_relay_refusals_total", about=about) == n


def test_metrics_are_only_for_the_allowed_networks(app_factory):
    client = app_factory().test_client()
    assert client.get("/metrics", environ_base={"REMOTE_ADDR": "10.1.2.3"}).status_code == 404
    assert client.get("/metrics", headers={"X-Forwarded-For": "1.2.3.4"}).status_code == 404
    wider = app_factory(TURNPOST_METRICS_ALLOW="10.0.0.0/8").test_client()
    assert wider.get("/metrics", environ_base={"REMOTE_ADDR": "10.1.2.3"}).status_code == 200
    assert wider.get("/metrics").status_code == 404      # loopback is no longer listed


def test_json_log_lines_parse_and_name_request_game_and_seat(app, client):
    svc = app.extensions["turnpost"]
    gid = play.start_game(svc, "trees", [ANNA, BEN], {}).game_id
    auth = [{"Authorization": f"Bearer {personaltokens.create(svc, a)[1]}"} for a in (ANNA, BEN)]
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(logcontext.ContextFilter())
    handler.setFormatter(logcontext.JsonFormatter())
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        r = _api_move(client, gid, auth)
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
    assert r.status_code == 200
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert lines
    ours = [x for x in lines if x["request_id"] == r.headers["X-Request-ID"]]
    assert ours and all(x["game_id"] == gid and x["seat"] in (0, 1) for x in ours)
    assert {"time", "level", "logger", "message"} <= set(ours[0])


def test_a_request_id_from_the_proxy_is_kept(client):
    r = client.get("/api/v1/openapi.json", headers={"X-Request-ID": "abc123"})
    assert r.headers["X-Request-ID"] == "abc123"


def test_sentry_is_off_without_a_dsn_and_harmless_without_the_package():
    assert logs.init_sentry("") is False
