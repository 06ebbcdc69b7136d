"""`make run` is the whole service on a laptop: replies are received by the web process (the
dev outbox's Reply, and SMTP on the receiver started beside the pages), and every process
mints links for the port the server was started on."""
from __future__ import annotations

import smtplib
import socket

import pytest

import config
from service import play
from service.play.reads import admin
from service.web import create_app
from tests import conftest
from tests.play.mail.test_replies import ADDRS, deliver, events, mover, reply_to, start
from tests.web.helpers import csrf, latest_to, mails, move_links, text_of


def _key_of(app, msg) -> str:
    """The dev outbox's key of an email (its Maildir file)."""
    for key, raw in app.extensions["turnpost"].transport.messages():
        if msg["Message-ID"] in raw.decode("utf-8", "replace"):
            return key
    raise AssertionError("not in the outbox")


def test_the_dev_outbox_reply_moves_through_the_inbound_path(client, app):
    start(client)
    addr, ours = mover(app)
    other = next(a for a in ADDRS if a != addr)
    key = _key_of(app, ours)
    page = client.get(f"/dev/outbox/{key}").text
    assert f'action="/dev/outbox/{key}/reply"' in page and "Reply as " + addr in page
    before = events(app)
    r = client.post(f"/dev/outbox/{key}/reply",
                    data={"text": move_links(ours)[0][0], "csrf_token": csrf(client, f"/dev/outbox/{key}")})
    assert r.status_code == 302 and "replied=" in r.headers["Location"]
    assert events(app) > before, "the reply's move was applied"
    news = text_of(latest_to(app, other))
    assert "YOUR TURN" in news or "GAME OVER" in news
    # stored as received mail, threaded to the email answered, from the player
    with app.app_context():
        row = admin.inbound(app.extensions["turnpost"], "applied")[-1]
    assert row.via == "dev"
    with app.extensions["turnpost"].db.transaction() as s:
        from service.store.models import InboundMessage
        raw = s.get(InboundMessage, row.id).raw.decode()
    assert f"In-Reply-To: {ours['Message-ID']}" in raw and f"From: {addr}" in raw
    assert "X-Original-To: play+" in raw


def test_an_empty_dev_reply_is_refused_and_stores_nothing(client, app):
    start(client)
    _, ours = mover(app)
    key = _key_of(app, ours)
    before = len(mails(app))
    r = client.post(f"/dev/outbox/{key}/reply",
                    data={"text": "  ", "csrf_token": csrf(client, f"/dev/outbox/{key}")})
    assert r.status_code == 400 and "Nothing to send" in r.text
    with app.app_context():
        assert admin.inbound(app.extensions["turnpost"], "received") == []
    assert len(mails(app)) == before
    assert client.post("/dev/outbox/nosuch/reply",
                       data={"text": "view", "csrf_token": csrf(client, f"/dev/outbox/{key}")}
                       ).status_code == 404


def test_the_dev_outbox_lists_each_received_email_not_applied_and_why(client, app):
    """Issue 49, item 10: mutt's default From (root@localhost) has no seat and gets no answer
    (no backscatter), so the dev outbox says what became of it; so for a stranger's address,
    and never for a reply that moved."""
    start(client)
    addr, ours = mover(app)
    move = move_links(ours)[0][0]
    deliver(app, reply_to(ours, move, sender="root@localhost"))
    deliver(app, reply_to(ours, move, sender="Carla <carla@example.org>"))
    page = client.get("/dev/outbox").text
    unapplied = page.split('id="unapplied"', 1)[1].split("</div>", 1)[0]
    assert "root@localhost" in unapplied and "carla@example.org" in unapplied
    assert "From address is missing or is none we could write to" in unapplied
    assert "is not the address of seat" in unapplied
    assert unapplied.count("<li>") == 2
    before = events(app)
    deliver(app, reply_to(ours, move))
    assert events(app) > before
    page = client.get("/dev/outbox").text
    assert page.split('id="unapplied"', 1)[1].split("</div>", 1)[0].count("<li>") == 2


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def receiving_app(app_factory):
    port = _free_port()
    app = app_factory(TURNPOST_INBOUND_SMTP_IN_WEB=True, TURNPOST_INBOUND_SMTP_PORT=port)
    yield app
    app.extensions["turnpost.receiver"].stop()


def test_the_web_process_receives_replies_by_smtp_from_its_first_request(receiving_app):
    app = receiving_app
    receiver = app.extensions["turnpost.receiver"]
    assert receiver.controller is None            # making the app binds nothing (flask sweep)
    client = app.test_client()
    client.get("/healthz")
    assert receiver.controller is not None
    controller = receiver.controller
    start(client)
    client.get("/healthz")
    assert receiver.controller is controller      # started once per process
    addr, ours = mover(app)
    before = events(app)
    port = app.config["TURNPOST_INBOUND_SMTP_PORT"]
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
        smtp.sendmail(addr, [ours["Reply-To"].addresses[0].addr_spec],
                      reply_to(ours, move_links(ours)[0][0], wire=True))
    assert events(app) > before


def test_without_the_setting_the_web_process_binds_no_port(app, client):
    client.get("/healthz")
    assert "turnpost.receiver" not in app.extensions


def test_a_taken_port_leaves_the_site_up(app_factory):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        app = app_factory(TURNPOST_INBOUND_SMTP_IN_WEB=True,
                          TURNPOST_INBOUND_SMTP_PORT=taken.getsockname()[1])
        assert app.test_client().get("/healthz").status_code == 200
        assert app.extensions["turnpost.receiver"].controller is None


# -- one base URL for every process ------------------------------------------------------------

@pytest.fixture
def recorded_root(tmp_path, monkeypatch):
    """A checkout whose development server was started (make run PORT=5077) and a process
    started beside it without TURNPOST_BASE_URL."""
    monkeypatch.setattr(config, "ROOT", tmp_path)
    monkeypatch.delenv("TURNPOST_BASE_URL", raising=False)
    return tmp_path


def test_an_unset_base_url_is_the_one_the_server_was_started_with(recorded_root, monkeypatch):
    assert config.Settings().BASE_URL == "http://127.0.0.1:5000"   # nothing recorded yet
    config.record_base_url("http://127.0.0.1:5077")
    assert (recorded_root / "var" / "base-url").read_text() == "http://127.0.0.1:5077\n"
    assert config.Settings().BASE_URL == "http://127.0.0.1:5077"
    monkeypatch.setenv("TURNPOST_BASE_URL", "https://play.example.org")   # production
    assert config.Settings().BASE_URL == "https://play.example.org"
    with pytest.raises(config.SettingError):
        config.record_base_url("localhost:5077")


def test_links_minted_by_the_cli_and_by_a_received_reply_use_the_served_base_url(
        recorded_root, db_url, tmp_path):
    config.record_base_url("http://127.0.0.1:5077")
    # the app as `flask sweep` or the receiver makes it: no TURNPOST_BASE_URL given
    settings = conftest.test_settings(db_url, tmp_path)
    del settings["TURNPOST_BASE_URL"]
    app = create_app(settings)
    try:
        assert app.config["TURNPOST_BASE_URL"] == "http://127.0.0.1:5077"
        with app.app_context():     # as `flask start-game` runs it
            out = app.test_cli_runner().invoke(args=["start-game", "trees", *ADDRS])
        assert out.exit_code == 0, out.output
        seat_links = [line for line in out.output.splitlines() if line.startswith("seat ")]
        assert seat_links and all("http://127.0.0.1:5077/g/" in line for line in seat_links)
        # a reply received and processed out of any request: its answer's links too
        ours = latest_to(app, ADDRS[0])
        before = len(mails(app))
        with app.app_context():
            play.accept_mail(app.extensions["turnpost"], reply_to(ours, "view"), "smtp")
        assert len(mails(app)) > before
        answer = text_of(latest_to(app, ADDRS[0]))
        links = [w for w in answer.split() if w.startswith("http")]
        assert links and all(w.startswith("http://127.0.0.1:5077/") for w in links), links
    finally:
        app.extensions["turnpost"].dispose()
