"""The ways a player keeps their webhooks (issue 51): `/api/v1/me/webhooks` with their API
token (list, add with the secret in the answer alone, delete), the /me card (CSRF-protected
forms: add, Test, delete), and their data: the export lists them without their secrets, an
erasure deletes them. Invitations reach a hook that asked for them; quiet hours hold a
delivery as they hold an email."""
from __future__ import annotations

import json
import re

import pytest
from sqlalchemy import select

from service import play
from service.play.players import erasure, hooks, personaltokens, seatchanges
from service.play.reads import mydata
from service.play.time import calendar
from service.play.time.calendar import quiet
from service.store.models import OutboxRow, Webhook
from tests.hooks.receiver import Receiver
from tests.play.players.helpers import play_moves, player_id
from tests.web.helpers import lobby_game, post_form, sign_in, start_game

ANNA, BEN, CARL = "anna@example.org", "ben@example.org", "carl@example.org"


@pytest.fixture
def app(app_factory):
    return app_factory(TURNPOST_WEBHOOK_ALLOW_PRIVATE="1")


@pytest.fixture
def auth(app):
    svc = app.extensions["turnpost"]
    start_game(app, "trees", [ANNA, BEN])
    return {"Authorization": f"Bearer {personaltokens.create(svc, ANNA, 'test')[1]}"}


def test_the_api_lists_adds_and_deletes_the_token_holders_webhooks(app, client, auth):
    assert client.get("/api/v1/me/webhooks", headers=auth).json == {"webhooks": []}
    made = client.post("/api/v1/me/webhooks", headers=auth, json={
        "url": "https://chat.example.org/hooks/1", "kind": "discord",
        "events": ["turn", "game_over"], "webhookOnly": True})
    assert made.status_code == 201
    assert re.fullmatch(r"[0-9a-f]{64}", made.json["secret"])
    assert made.json["events"] == ["turn", "game_over"] and made.json["webhookOnly"] is True
    listed = client.get("/api/v1/me/webhooks", headers=auth).json["webhooks"]
    assert [h["id"] for h in listed] == [made.json["id"]]
    assert "secret" not in listed[0] and listed[0]["kind"] == "discord"
    gone = client.delete(f"/api/v1/me/webhooks/{made.json['id']}", headers=auth)
    assert gone.status_code == 200 and gone.json["status"] == "deleted"
    again = client.delete(f"/api/v1/me/webhooks/{made.json['id']}", headers=auth)
    assert again.status_code == 404
    assert again.headers["Content-Type"].startswith("application/problem+json")
    assert client.get("/api/v1/me/webhooks", headers=auth).json == {"webhooks": []}


def test_the_api_refuses_bad_webhooks_and_stores_nothing(app_factory):
    app = app_factory()        # private addresses refused, as in production
    client = app.test_client()
    start_game(app, "trees", [ANNA, BEN])
    svc = app.extensions["turnpost"]
    auth = {"Authorization": f"Bearer {personaltokens.create(svc, ANNA, 'test')[1]}"}
    for body in ({"url": "http://127.0.0.1:8000/x"}, {"url": "gopher://example.org/"},
                 {"url": "https://example.org/", "kind": "teams"},
                 {"url": "https://example.org/", "events": ["moves"]}, {"kind": "json"},
                 ["https://example.org/"]):
        answer = client.post("/api/v1/me/webhooks", headers=auth, json=body)
        assert answer.status_code == 400, body
        assert answer.json["detail"]
    assert client.get("/api/v1/me/webhooks", headers=auth).json == {"webhooks": []}
    assert client.get("/api/v1/me/webhooks").status_code == 401
    other = {"Authorization": f"Bearer {personaltokens.create(svc, BEN, 'test')[1]}"}
    mine = client.post("/api/v1/me/webhooks", headers=auth,
                       json={"url": "https://example.org/"}).json["id"]
    assert client.delete(f"/api/v1/me/webhooks/{mine}", headers=other).status_code == 404
    assert len(client.get("/api/v1/me/webhooks", headers=auth).json["webhooks"]) == 1


def test_the_me_card_adds_tests_and_deletes_a_webhook(app):
    start_game(app, "trees", [ANNA, BEN])
    client = app.test_client()
    sign_in(client, app, ANNA)
    with Receiver() as endpoint:
        page = post_form(client, "/me/webhooks", {"url": endpoint.url, "kind": "json",
                                                  "events": ["turn", "invitation"]}, page="/me")
        assert page.status_code == 200
        secret = re.search(r"<code[^>]*>([0-9a-f]{64})</code>", page.text).group(1)
        hook = hooks.listed(app.extensions["turnpost"], player_id(app.extensions["turnpost"],
                                                                  ANNA))[0]
        assert hook.events == ("turn", "invitation")
        assert f'action="/me/webhooks/{hook.id}/test"' in client.get("/me").text
        assert secret not in client.get("/me").text          # shown once
        tested = post_form(client, f"/me/webhooks/{hook.id}/test", page="/me")
        assert tested.status_code == 302
        assert len(endpoint.got) == 1
        assert endpoint.verifies(secret, endpoint.got[0])
        assert json.loads(endpoint.got[0].raw)["event"] == "test"
    # without the CSRF token nothing happens
    assert client.post(f"/me/webhooks/{hook.id}/delete").status_code == 400
    assert hooks.listed(app.extensions["turnpost"], hook_owner(app))
    assert post_form(client, f"/me/webhooks/{hook.id}/delete", page="/me").status_code == 302
    assert hooks.listed(app.extensions["turnpost"], hook_owner(app)) == []


def hook_owner(app) -> int:
    return player_id(app.extensions["turnpost"], ANNA)


def test_the_me_card_says_why_a_webhook_is_refused_and_keeps_what_was_typed(app_factory):
    app = app_factory()
    start_game(app, "trees", [ANNA, BEN])
    client = app.test_client()
    sign_in(client, app, ANNA)
    page = post_form(client, "/me/webhooks", {"url": "http://192.168.1.10/hook",
                                              "kind": "slack"}, page="/me")
    assert page.status_code == 400
    assert "public addresses only" in page.text
    assert 'value="http://192.168.1.10/hook"' in page.text
    assert hooks.listed(app.extensions["turnpost"], hook_owner(app)) == []
    # another player's webhook is not one's own to test
    other = hooks.register(app.extensions["turnpost"], "https://example.org/",
                           email=BEN).hook.id
    refused = post_form(client, f"/me/webhooks/{other}/test", page="/me")
    assert refused.status_code == 400 and "You have no webhook" in refused.text


def test_the_export_lists_webhooks_without_their_secrets_and_erasure_deletes_them(app):
    svc = app.extensions["turnpost"]
    start_game(app, "trees", [ANNA, BEN])
    made = hooks.register(svc, "https://example.org/anna", email=ANNA)
    doc = mydata.export(svc, player_id(svc, ANNA))
    rows = doc["records"]["webhooks"]
    assert [r["url"] for r in rows] == ["https://example.org/anna"]
    assert made.secret not in json.dumps(doc)
    erasure.erase(svc, ANNA)
    with svc.db.transaction() as session:
        assert session.scalars(select(Webhook)).all() == []


def test_an_invitation_reaches_a_hook_that_asked_for_invitations(app):
    svc = app.extensions["turnpost"]
    start_game(app, "trees", [BEN, CARL])           # Ben is a player already
    with Receiver() as endpoint:
        hooks.register(svc, endpoint.url, events="invitation", email=BEN)
        hooks.register(svc, endpoint.url, events="turn", email=CARL)
        lobby_game(app, ANNA, [BEN, CARL])
        invited = [json.loads(d.raw) for d in endpoint.got
                   if json.loads(d.raw)["event"] == "invitation"]
    assert len(invited) == 1
    assert invited[0]["title"].startswith("Trees game ")
    assert invited[0]["url"] == "http://turnpost.test/me"


def test_quiet_hours_hold_a_delivery_as_they_hold_an_email(services):
    svc = services
    svc.settings.WEBHOOK_ALLOW_PRIVATE = True
    game = play.start_game(svc, "trees", [ANNA, BEN], {}).game_id
    calendar.save_preferences(svc, {"quiet_hours": "08-20"}, email=BEN)   # T0 is 09:00 UTC
    hooks.register(svc, "http://127.0.0.1:9/quiet", email=BEN)
    hooks.register(svc, "http://127.0.0.1:9/quiet", email=ANNA)
    play_moves(svc, game, 6)
    with svc.db.transaction() as session:
        rows = session.scalars(select(OutboxRow).where(OutboxRow.kind == "webhook")).all()
        held = {r.id for r in rows if r.to_addr == BEN and r.status == "quiet"}
        assert len(held) >= 2 and len(held) == len([r for r in rows if r.to_addr == BEN])
        assert {r.status for r in rows if r.to_addr == ANNA} == {"pending"}
    # at their end, one "your turn" goes to the hook (the latest), beside the merged email
    svc.clock.advance(hours=11, minutes=1)
    assert set(quiet.release_due(svc)) & held == {max(held)}


def test_an_invitation_to_take_over_a_seat_reaches_a_hook_that_asked_for_invitations(services):
    svc = services
    game = play.start_game(svc, "aristocracy", [ANNA, BEN, CARL], {}).game_id
    play.start_game(svc, "trees", ["dora@example.org", ANNA], {})     # Dora is a player
    hooks.register(svc, "https://example.org/dora", events="invitation",
                   email="dora@example.org")
    seatchanges.resign(svc, game, 1)
    seatchanges.invite_replacement(svc, game, 0, 1, "dora@example.org")
    with svc.db.transaction() as session:
        told = session.scalars(select(OutboxRow).where(OutboxRow.kind == "webhook")).all()
        assert [(r.to_addr, r.payload["event"], r.game_id) for r in told] == [
            ("dora@example.org", "invitation", game)]
