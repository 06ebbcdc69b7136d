"""Safe production defaults (issue 17, point 6): no start with a forgeable secret where links
reach real people, key rotation that keeps old links working, the dev outbox only on the
embedded default or when asked for, /healthz that names what is down, and headers that keep
pages out of frames and token URLs out of Referer headers."""
from __future__ import annotations

import pytest

from config import DEV_SECRET
from service.web.safety import UnsafeSettings

from .helpers import game_link, latest_to, move_links, start_game


@pytest.mark.parametrize("secret", [DEV_SECRET, ""])
@pytest.mark.parametrize("production", [{"TURNPOST_BROKER_URL": "redis://127.0.0.1:1/0"},
                                        {"TURNPOST_MAIL_TRANSPORT": "smtp"}])
def test_a_forgeable_secret_refuses_to_start_in_production(app_factory, secret, production):
    with pytest.raises(UnsafeSettings, match="TURNPOST_SECRET_KEY"):
        app_factory(TURNPOST_SECRET_KEY=secret, **production)


def test_the_development_secret_is_fine_on_the_embedded_default(app_factory):
    assert app_factory(TURNPOST_SECRET_KEY=DEV_SECRET).test_client().get("/").status_code == 200


def test_old_links_and_reply_addresses_keep_working_after_a_key_rotation(app_factory):
    old = app_factory(TURNPOST_SECRET_KEY="old-secret")
    start_game(old, "trees", ["anna@example.org", "ben@example.org"])
    mail = latest_to(old, "anna@example.org")
    page, reply_to = game_link(mail), mail["Reply-To"].addresses[0].addr_spec
    new = app_factory(TURNPOST_SECRET_KEY="new-secret", TURNPOST_SECRET_KEY_FALLBACKS="old-secret")
    assert new.test_client().get(page).status_code == 200
    signer = new.extensions["turnpost"].urls.signer
    assert signer.read_reply_token(reply_to.split("+")[1].split("@")[0]) == (1, 0)
    # new links are signed with the new key only
    fresh = new.extensions["turnpost"].urls.game_path(1, 0)
    assert app_factory(TURNPOST_SECRET_KEY="old-secret").test_client().get(fresh).status_code == 400
    assert app_factory(TURNPOST_SECRET_KEY="new-secret").test_client().get(fresh).status_code == 200
    # without the fallback the old link is refused
    assert app_factory(TURNPOST_SECRET_KEY="new-secret").test_client().get(page).status_code == 400


SQLITE = "sqlite:///var/never-opened.db"
PG = "postgresql+psycopg://x@127.0.0.1:1/x"


@pytest.mark.parametrize("settings,served", [
    ({"TURNPOST_DATABASE_URL": SQLITE}, True),                     # the embedded default
    ({"TURNPOST_DATABASE_URL": SQLITE, "TURNPOST_DEV_OUTBOX": "0"}, False),
    ({"TURNPOST_DATABASE_URL": SQLITE, "TURNPOST_BROKER_URL": "redis://127.0.0.1:1/0"}, False),
    ({"TURNPOST_DATABASE_URL": PG}, False),
    ({"TURNPOST_DATABASE_URL": PG, "TURNPOST_DEV_OUTBOX": "1"}, True),
])
def test_the_dev_outbox_only_on_the_embedded_default_or_when_asked(app_factory, settings, served):
    app = app_factory(**{"TURNPOST_DEV_OUTBOX": "auto"} | settings)
    assert ("dev.outbox" in app.view_functions) is served


def test_healthz_answers_503_naming_what_is_down(app_factory):
    assert app_factory().test_client().get("/healthz").status_code == 200
    down = app_factory(TURNPOST_DATABASE_URL="postgresql+psycopg://x@127.0.0.1:1/x",
                       TURNPOST_BROKER_URL="redis://127.0.0.1:1/0")
    r = down.test_client().get("/healthz")
    assert r.status_code == 503
    assert set(r.get_json()["down"]) == {"database", "broker"}


def test_security_headers_on_every_page_and_no_referrer_on_token_pages(client, app):
    started = start_game(app, "trees", ["anna@example.org", "ben@example.org"])
    mail = latest_to(app, "anna@example.org")
    public = app.extensions["turnpost"].urls.public_game_path(started.public_id)
    paths = ["/", public, game_link(mail)] + [p for _, p in move_links(mail)[:1]]
    for path in paths:
        r = client.get(path)
        assert r.status_code == 200, path
        assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]
        assert r.headers["X-Content-Type-Options"] == "nosniff"
        token_page = path.startswith(("/m/", "/g/", "/u/"))
        assert (r.headers["Referrer-Policy"] == "no-referrer") is token_page, path


def test_session_cookies_are_secure_behind_https(app_factory):
    assert app_factory(TURNPOST_BASE_URL="https://turnpost.example").config["SESSION_COOKIE_SECURE"]
    assert not app_factory().config["SESSION_COOKIE_SECURE"]
