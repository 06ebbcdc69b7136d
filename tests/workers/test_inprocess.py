"""The embedded default's background work (TURNPOST_BACKGROUND=thread): a player's request
returns before its emails are rendered and sent, and sweeps run in the background thread,
never inside a request."""
from __future__ import annotations

import threading
import time

import pytest

from service import play

from ..web.helpers import mails, move_links, start_game


class HeldTransport:
    """The Maildir, but each send waits until the test lets it go."""

    def __init__(self, real):
        self.real, self.go, self.sent_by = real, threading.Event(), set()

    def send(self, msg):
        assert self.go.wait(10), "the test never let the send go"
        self.sent_by.add(threading.get_ident())
        self.real.send(msg)

    def messages(self):
        return self.real.messages()


@pytest.fixture
def threaded(app_factory):
    app = app_factory(TURNPOST_BACKGROUND="thread", TURNPOST_SWEEP_SECONDS=0.2)
    return app, app.extensions["turnpost.background"]


def test_a_move_by_link_returns_before_its_emails_are_sent(threaded):
    app, background = threaded
    client = app.test_client()
    start_game(app, "trees", ["anna@example.org", "ben@example.org"])
    assert background.drain(10)
    first = [m for m in mails(app) if m["To"] == "anna@example.org"][-1]
    held = HeldTransport(app.extensions["turnpost"].transport)
    app.extensions["turnpost"].transport = held
    before = len(mails(app))
    _, path = move_links(first)[0]
    r = client.post(path)                      # returns although no send may happen yet
    assert r.status_code == 200
    assert len(mails(app)) == before           # nothing sent while the player waited
    held.go.set()
    assert background.drain(10)
    assert len(mails(app)) > before
    assert threading.get_ident() not in held.sent_by


def test_sweeps_run_in_the_background_thread_never_in_a_request(threaded, monkeypatch):
    app, background = threaded
    sweeps: list[int] = []
    real = play.sweep

    def sweep(svc):
        sweeps.append(threading.get_ident())
        return real(svc)

    monkeypatch.setattr(play, "sweep", sweep)
    start_game(app, "trees", ["anna@example.org", "ben@example.org"])
    assert threading.get_ident() not in sweeps     # the start swept nothing
    deadline = time.monotonic() + 5
    while not sweeps and time.monotonic() < deadline:
        time.sleep(0.05)
    assert sweeps and threading.get_ident() not in sweeps
    assert background.drain(10)
