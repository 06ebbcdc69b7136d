"""Safe production defaults (issue 17, point 6): no start with a forgeable secret where links
reach real people, key rotation that keeps old links working, the dev outbox only on the
embedded default or when asked for, /healthz that names what is down, and headers that keep
pages out of frames and token URLs out of Referer headers."""
from __future__ import annotations

import secrets
from urllib.parse import urlsplit

import pytest

from config import DEV_SECRET, gunicorn
from config.production import SECRET_MIN_LENGTH
from service.web import create_app
from service.web.safety import MAX_URL_BYTES, UnsafeSettings
from tests import conftest
from tests.web.helpers import game_link, latest_to, move_links, sign_in, start_game


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


@pytest.mark.parametrize("secret", ["x", "a" * (SECRET_MIN_LENGTH - 1)])
def test_a_short_secret_refuses_to_start_in_production(app_factory, secret):
    with pytest.raises(UnsafeSettings, match="characters long") as refused:
        app_factory(TURNPOST_SECRET_KEY=secret, TURNPOST_BROKER_URL="redis://127.0.0.1:1/0")
    assert "secrets.token_urlsafe(48)" in str(refused.value)


@pytest.mark.parametrize("production", [{"TURNPOST_BROKER_URL": "redis://127.0.0.1:1/0"},
                                        {"TURNPOST_MAIL_TRANSPORT": "smtp"}])
def test_production_without_a_base_url_refuses_to_start(db_url, tmp_path, monkeypatch,
                                                        production):
    """Issue 49, item 2: every process started, and every link of every email pointed at
    the development default. Given in the environment or by the process, it starts."""
    monkeypatch.delenv("TURNPOST_BASE_URL", raising=False)
    settings = conftest.test_settings(db_url, tmp_path, **production)
    del settings["TURNPOST_BASE_URL"]
    with pytest.raises(UnsafeSettings, match="TURNPOST_BASE_URL is not set") as refused:
        create_app(settings)
    assert str(refused.value).startswith("turnpost: ") and "\n" not in str(refused.value)
    monkeypatch.setenv("TURNPOST_BASE_URL", "https://play.example.org")
    app = create_app(settings)
    assert app.extensions["turnpost"].urls.absolute("/x") == "https://play.example.org/x"
    app.extensions["turnpost"].dispose()


def test_a_long_random_secret_starts_in_production(app_factory):
    app = app_factory(TURNPOST_SECRET_KEY=secrets.token_urlsafe(24),   # 32 characters
                      TURNPOST_BROKER_URL="redis://127.0.0.1:1/0")
    assert app.test_client().get("/").status_code == 200


def test_pages_whose_url_carries_a_token_are_never_stored(client, app):
    """Sign-in, move, seat, unsubscribe and invitation links are bearer tokens: neither the
    browser's cache nor a proxy may keep their pages. A broken token's page is no less one."""
    start_game(app, "trees", ["anna@example.org", "ben@example.org"])
    mail = latest_to(app, "anna@example.org")
    unsubscribe = urlsplit(mail["List-Unsubscribe"].strip("<>")).path
    token_pages = [game_link(mail), move_links(mail)[0][1], unsubscribe, "/sign-in/abc",
                   "/i/abc", "/s/abc", "/invitations/abc/yes", "/feeds/abc/moves.atom"]
    for path in token_pages:
        r = client.get(path)
        assert r.headers.get("Cache-Control") == "no-store", (path, r.status_code)
        assert r.headers["Referrer-Policy"] == "no-referrer", path
    for path in ["/", "/sign-in", "/games/open"]:
        assert "no-store" not in client.get(path).headers.get("Cache-Control", ""), path


def test_pages_drawn_for_a_signed_in_account_are_never_stored(client, app):
    """Issue 49, item 3: /me and the signed-in lobby show the address and the seat links,
    and were sent without `Cache-Control: no-store` (a shared computer's back button, or a
    proxy, kept them). Every page answered to a signed-in session is `no-store`; a card
    face, the same for everyone, keeps its own long caching."""
    started = start_game(app, "trees", ["anna@example.org", "ben@example.org"])
    public = app.extensions["turnpost"].urls.public_game_path(started.public_id)
    pages = ["/", "/me", "/games/open", "/tournaments", "/ratings", public]
    for path in pages:       # signed out: nothing personal, nothing to forbid
        assert "no-store" not in client.get(path).headers.get("Cache-Control", ""), path
    sign_in(client, app, "anna@example.org")
    for path in pages:
        r = client.get(path)
        assert r.status_code == 200, path
        assert r.headers.get("Cache-Control") == "no-store", path
    assert "anna@example.org" in client.get("/me").get_data(as_text=True)
    face = client.get("/cards/8VL.svg")
    assert face.headers["Cache-Control"] == "public, max-age=31536000, immutable"


def test_an_overlong_url_is_refused_with_the_security_headers(client):
    r = client.get("/?q=" + "x" * MAX_URL_BYTES)
    assert r.status_code == 414
    assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]
    assert r.headers["X-Frame-Options"] == "DENY"


def test_gunicorn_lets_every_url_the_app_refuses_itself_reach_it():
    """gunicorn answers a request line over its limit with a bare 414 of its own; ours lets
    through every URL up to MAX_URL_BYTES and beyond, so the app's 414 (with headers) comes
    first. 8190 is gunicorn's most: a larger value is cut to it."""
    longest_line = len("OPTIONS ") + MAX_URL_BYTES + len(" HTTP/1.1")
    assert longest_line < gunicorn.limit_request_line <= 8190
