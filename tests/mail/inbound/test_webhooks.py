"""The inbound webhooks: each stores the posted message once and says so; bad credentials,
missing bodies and oversize posts change nothing; an endpoint without its secret is off."""
from __future__ import annotations

import hashlib
import hmac
import io
import time

import pytest

from service.web import inbound
from tests.mail.inbound.conftest import message, stored

SECRET = "s3cret-for-webhooks"
MAILGUN_KEY = "key-mailgun-signing"
LIMIT = 64 * 1024


@pytest.fixture
def make(app_factory):
    def make(**overrides):
        cfg = {"TURNPOST_INBOUND_SECRET": SECRET, "TURNPOST_MAILGUN_SIGNING_KEY": MAILGUN_KEY,
               "TURNPOST_INBOUND_MAX_BYTES": LIMIT} | overrides
        app = app_factory(**cfg)
        if "inbound" not in app.blueprints:    # until create_app registers it
            app.register_blueprint(inbound.bp)
        return app
    return make


@pytest.fixture
def app(make):
    return make()


def bearer(secret=SECRET):
    return {"Authorization": f"Bearer {secret}", "Content-Type": "message/rfc822"}


# -- generic raw POST -------------------------------------------------------------------------


def test_raw_post_is_stored_once(app, kicked):
    client, raw = app.test_client(), message("<raw-1@example.org>")
    first = client.post("/inbound/raw", data=raw, headers=bearer())
    assert first.status_code == 200
    row = stored(app)[0]
    assert first.json == {"stored": row.id, "duplicate": False}
    assert (row.message_id, row.via, row.raw) == ("raw-1@example.org", "webhook", raw)
    again = client.post("/inbound/raw", data=raw, headers=bearer())
    assert again.json == {"stored": row.id, "duplicate": True}
    assert len(stored(app)) == 1 and kicked == [row.id]


@pytest.mark.parametrize("headers, status", [
    ({}, 401),
    ({"Authorization": "Basic dXNlcjpwYXNz"}, 401),
    ({"Authorization": "Bearer "}, 401),
    ({"Authorization": "Bearer not-the-secret"}, 403),
    ({"Authorization": f"Bearer {SECRET}x"}, 403),
])
def test_raw_post_with_bad_auth_changes_nothing(app, kicked, headers, status):
    r = app.test_client().post("/inbound/raw", data=message(), headers=headers)
    assert r.status_code == status
    assert stored(app) == [] and kicked == []


def test_raw_post_is_off_without_a_secret(make, kicked):
    app = make(TURNPOST_INBOUND_SECRET="")
    r = app.test_client().post("/inbound/raw", data=message(), headers=bearer(""))
    assert r.status_code == 404 and stored(app) == []


def test_raw_post_without_a_body_is_a_bad_request(app, kicked):
    assert app.test_client().post("/inbound/raw", headers=bearer()).status_code == 400
    assert stored(app) == []


def test_raw_post_over_the_limit_is_refused(app, kicked):
    r = app.test_client().post("/inbound/raw", data=message(size=2 * LIMIT), headers=bearer())
    assert r.status_code == 413 and stored(app) == []


# -- Mailgun ----------------------------------------------------------------------------------


def mailgun_form(raw: bytes | None, key=MAILGUN_KEY, timestamp=None, **extra):
    timestamp = str(int(time.time())) if timestamp is None else str(timestamp)
    token = "50-random-characters-from-mailgun-" + timestamp
    signature = hmac.new(key.encode(), (timestamp + token).encode(), hashlib.sha256).hexdigest()
    form = {"timestamp": timestamp, "token": token, "signature": signature,
            "recipient": "play+abc234xyz@turnpost.test", "sender": "anna@example.org"}
    if raw is not None:
        form["body-mime"] = raw.decode("utf-8")
    return form | extra


def test_mailgun_post_is_stored_once(app, kicked):
    client, raw = app.test_client(), message("<mg-1@example.org>", body="Bien sûr: sell sailor\n")
    r = client.post("/inbound/mailgun", data=mailgun_form(raw))
    assert r.status_code == 200 and r.json["duplicate"] is False
    assert client.post("/inbound/mailgun", data=mailgun_form(raw)).json["duplicate"] is True
    rows = stored(app)
    assert [(x.message_id, x.raw) for x in rows] == [("mg-1@example.org", raw)]
    assert kicked == [rows[0].id]


def test_mailgun_message_may_come_as_a_file_part(app, kicked):
    raw = message("<mg-file@example.org>")
    form = mailgun_form(None) | {"body-mime": (io.BytesIO(raw), "message.eml")}
    r = app.test_client().post("/inbound/mailgun", data=form,
                               content_type="multipart/form-data")
    assert r.status_code == 200 and stored(app)[0].raw == raw


@pytest.mark.parametrize("form, status", [
    (mailgun_form(message(), key="somebody-elses-key"), 403),
    (mailgun_form(message(), timestamp=int(time.time()) - 16 * 60), 403),     # a replay
    (mailgun_form(message(), signature="0" * 64), 403),
    (mailgun_form(message(), timestamp="nan"), 403),
    ({"body-mime": message().decode()}, 401),
])
def test_mailgun_post_with_a_bad_signature_changes_nothing(app, kicked, form, status):
    assert app.test_client().post("/inbound/mailgun", data=form).status_code == status
    assert stored(app) == [] and kicked == []


def test_mailgun_post_without_the_message_is_a_bad_request(app, kicked):
    assert app.test_client().post("/inbound/mailgun", data=mailgun_form(None)).status_code == 400


def test_mailgun_post_over_the_limit_is_refused(app, kicked):
    form = mailgun_form(message(size=2 * LIMIT))
    assert app.test_client().post("/inbound/mailgun", data=form).status_code == 413
    assert stored(app) == []


def test_mailgun_is_off_without_a_signing_key(make, kicked):
    app = make(TURNPOST_MAILGUN_SIGNING_KEY="")
    r = app.test_client().post("/inbound/mailgun", data=mailgun_form(message(), key=""))
    assert r.status_code == 404 and stored(app) == []


# -- SendGrid ---------------------------------------------------------------------------------


def sendgrid_form(raw: bytes | None):
    form = {"to": "play+abc234xyz@turnpost.test", "from": "anna@example.org",
            "envelope": '{"to":["play+abc234xyz@turnpost.test"],"from":"anna@example.org"}',
            "charsets": '{"to":"UTF-8","from":"UTF-8","subject":"UTF-8"}'}
    if raw is not None:
        form["email"] = raw.decode("utf-8")
    return form


def test_sendgrid_post_is_stored_once(app, kicked):
    client, raw = app.test_client(), message("<sg-1@example.org>")
    url = f"/inbound/sendgrid?key={SECRET}"
    # SendGrid posts multipart/form-data
    r = client.post(url, data=sendgrid_form(raw), content_type="multipart/form-data")
    assert r.status_code == 200 and r.json["duplicate"] is False
    r = client.post(url, data=sendgrid_form(raw), content_type="multipart/form-data")
    assert r.json["duplicate"] is True
    rows = stored(app)
    assert [(x.message_id, x.via, x.raw) for x in rows] == [("sg-1@example.org", "webhook", raw)]
    assert kicked == [rows[0].id]


@pytest.mark.parametrize("query, status", [("", 401), ("?key=", 401), ("?key=wrong", 403)])
def test_sendgrid_post_without_the_key_changes_nothing(app, kicked, query, status):
    r = app.test_client().post(f"/inbound/sendgrid{query}", data=sendgrid_form(message()))
    assert r.status_code == status and stored(app) == []


def test_sendgrid_post_without_the_message_is_a_bad_request(app, kicked):
    r = app.test_client().post(f"/inbound/sendgrid?key={SECRET}", data=sendgrid_form(None))
    assert r.status_code == 400 and stored(app) == []


def test_sendgrid_post_over_the_limit_is_refused(app, kicked):
    r = app.test_client().post(f"/inbound/sendgrid?key={SECRET}",
                               data=sendgrid_form(message(size=2 * LIMIT)),
                               content_type="multipart/form-data")
    assert r.status_code == 413 and stored(app) == []


def test_sendgrid_is_off_without_a_secret(make, kicked):
    app = make(TURNPOST_INBOUND_SECRET="")
    r = app.test_client().post("/inbound/sendgrid?key=", data=sendgrid_form(message()))
    assert r.status_code == 404 and stored(app) == []
