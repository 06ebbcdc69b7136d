"""A broker that accepts connections and never answers (Redis stopped by SIGSTOP, a hung
host) must not hold a web worker: a kick gives up after workers.broker_wait's short socket
timeout (its rows are committed; the sweep sends them), and /healthz says the broker is down
within its own. The bound below only detects a hang: Celery's defaults took 5 s and more."""
from __future__ import annotations

import socket
import threading
import time

import pytest

from service import play
from tests.web.helpers import latest_to, move_links, start_game
from workers import broker_wait

PLAYERS = ["anna@example.org", "ben@example.org"]
HANG = 3.0


@pytest.fixture
def silent_broker():
    """A TCP server on 127.0.0.1 that accepts every connection and never says a word."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def accept():
        while True:
            try:
                held.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    yield f"redis://127.0.0.1:{server.getsockname()[1]}/0", held
    server.close()
    for conn in held:
        conn.close()


def test_a_click_under_a_hung_broker_comes_back_and_its_kick_gives_up(app_factory,
                                                                       silent_broker):
    url, held = silent_broker
    app = app_factory(TURNPOST_BROKER_URL=url)
    svc = app.extensions["turnpost"]
    started = start_game(app, "trees", PLAYERS)
    play.deliver(svc, started.outbox_ids)
    link = next(links[0][1] for addr in PLAYERS
                for links in [move_links(latest_to(app, addr))] if links)
    svc.outages.ok("broker")
    begun = time.monotonic()
    response = app.test_client().post(link)
    assert response.status_code == 200 and "Done" in response.text
    response.close()                        # the server has sent the page: the kick runs
    assert time.monotonic() - begun < HANG
    assert held, "the kick did reach the broker's port"
    assert "Timeout" in svc.outages.down()["broker"]     # it waited, then gave up
    assert sorted(play.sweep(svc).values()) == ["sent"]  # and the sweep sends the email


def test_healthz_says_a_hung_broker_is_down(app_factory, silent_broker):
    url, held = silent_broker
    app = app_factory(TURNPOST_BROKER_URL=url)
    begun = time.monotonic()
    response = app.test_client().get("/healthz")
    assert time.monotonic() - begun < HANG
    assert response.status_code == 503
    assert "Timeout" in response.get_json()["down"]["broker"]
    assert "database" not in response.get_json()["down"]


def test_a_kick_and_the_probe_wait_a_short_while_and_never_retry():
    assert broker_wait.KICK_WAIT_SECONDS <= 0.1 < broker_wait.PROBE_WAIT_SECONDS <= 1
    assert broker_wait.waiting_at_most(0.1) == {
        "socket_connect_timeout": 0.1, "socket_timeout": 0.1, "max_retries": 0}


def test_a_kick_after_the_broker_answers_again_is_queued(app_factory):
    """The publisher drops a connection that failed and connects afresh next time."""
    recorded = []

    class Flaky:
        def apply_async(self, args, countdown=None, connection=None, retry=True):
            recorded.append((connection, retry))
            if len(recorded) == 1:
                raise TimeoutError("no answer")

    app = app_factory(TURNPOST_BROKER_URL="redis://127.0.0.1:9/0")
    publisher = broker_wait.Publisher(app.extensions["celery"])
    with pytest.raises(TimeoutError):
        publisher.publish(Flaky(), ([1],))
    publisher.publish(Flaky(), ([1],))
    (first, retried), (second, _) = recorded
    assert retried is False and first is not second
    assert second.transport_options["socket_timeout"] == broker_wait.KICK_WAIT_SECONDS
