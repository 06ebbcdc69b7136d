"""The embedded default's background work (TURNPOST_BACKGROUND=thread): a player's request
returns before its emails are rendered and sent, and sweeps run in the background thread,
never inside a request."""
from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest

from service import play
from service.play.clock import ManualClock
from tests.conftest import T0
from tests.play.time.helpers import outbox, start, to_act
from tests.web.helpers import mails, move_links, start_game
from workers.inprocess import InProcessWorker

ROOT = Path(__file__).resolve().parents[2]


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


def test_a_job_queued_in_a_request_waits_until_the_request_is_answered(threaded):
    """Even when the request lets go of the interpreter lock (here a sleep; on a real server,
    writing its log line or its response), the job does not start before the answer."""
    app, background = threaded
    started, answered = [], []
    background.run = lambda job, *args: started.append(time.monotonic())

    @app.get("/test-hold")     # GET: a POST would need a CSRF token
    def hold():
        background.enqueue("sweep")
        time.sleep(0.3)
        answered.append(time.monotonic())
        return "ok"

    assert app.test_client().get("/test-hold").status_code == 200
    assert background.drain(10)
    assert started and answered and started[0] >= answered[0]


def test_a_request_that_never_ends_holds_the_jobs_only_a_while(threaded, monkeypatch):
    from workers import inprocess
    monkeypatch.setattr(inprocess, "MAX_WAIT_SECONDS", 0.2)
    _, background = threaded
    ran = []
    background.run = lambda job, *args: ran.append(job)
    background.request_started()                # and never finished
    background.enqueue("sweep")
    assert background.drain(5)
    assert ran == ["sweep"]


def test_the_idle_thread_runs_the_clocks_from_the_first_request(app_factory):
    """No beat on the embedded default: the background thread, once the app has answered a
    request, plays a timeout whose deadline passed (issue 11's sweep), never in the request."""
    app = app_factory(TURNPOST_BACKGROUND="thread", TURNPOST_SWEEP_SECONDS=0.2,
                      TURNPOST_CLOCK=ManualClock(T0))
    background, svc = app.extensions["turnpost.background"], app.extensions["turnpost"]
    game_id = start(svc, clock="1h").game_id
    seat = to_act(svc, game_id)[0]
    svc.clock.advance(timedelta(hours=1, minutes=1))
    assert app.test_client().get("/").status_code == 200
    deadline = time.monotonic() + 5
    while to_act(svc, game_id) == [seat] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert to_act(svc, game_id) != [seat]
    assert background.drain(10)
    assert any("ran out of time" in row["payload"].get("timeout", {}).get("text", "")
               for row in outbox(svc, game_id))


EXITING = textwrap.dedent("""
    import concurrent.futures, time
    from workers.inprocess import InProcessWorker

    def run(job, *args):
        time.sleep(0.2)
        with concurrent.futures.ThreadPoolExecutor(1) as pool:   # as the relay marks sent
            print(job, pool.submit(lambda: "marked").result(), flush=True)

    worker = InProcessWorker(run, sweep_seconds=3600)
    worker.enqueue("deliver", [1])
    worker.enqueue("bots", 1)
    print("main is done", flush=True)
""")


def test_a_process_exits_after_its_background_jobs_not_in_the_middle_of_them():
    """Issue 49, item 1: `flask start-game` returned while its email was being sent, and the
    relay's marking thread was refused (`cannot schedule new futures after interpreter
    shutdown`): the row stayed `sending` and was sent again a minute later. The jobs now end
    before the interpreter stops its threads."""
    run = subprocess.run([sys.executable, "-c", EXITING], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    assert run.stdout.splitlines() == ["main is done", "deliver marked", "bots marked"]


def test_an_exiting_process_runs_its_jobs_and_those_they_queue_then_says_goodbye():
    """The exit waits for the queued jobs and for the jobs they queue (a bot's move queues its
    emails), then closes the relay's connection, once."""
    ran: list[str] = []

    def run(job, *args):
        time.sleep(0.05)
        ran.append(job)
        if job == "bots":
            worker.enqueue("tournament", 1)

    worker = InProcessWorker(run, sweep_seconds=3600, on_stop=lambda: ran.append("goodbye"))
    worker.enqueue("process_inbound", 7)
    worker.enqueue("bots", 1)
    worker._exit()
    assert ran == ["process_inbound", "bots", "tournament", "goodbye"]
    worker._exit()                          # a second hook (a forked child's) does nothing
    assert ran[-1] == "goodbye" and ran.count("goodbye") == 1


def test_an_exiting_process_waits_for_the_idle_pass_running_and_begins_no_other():
    """The idle passes (the clocks, the outbox sweep) run outside the queue: one running as
    the process exits is finished (it may be sending), and none begins after."""
    began, calls = threading.Event(), []

    def run(job, *args):
        calls.append(job)
        if job == "sweep":
            began.set()
            time.sleep(0.3)
            calls.append("sweep done")

    worker = InProcessWorker(run, sweep_seconds=0.05)
    worker.enqueue("bots", 1)
    assert began.wait(5)
    worker._exit()
    assert calls[-1] == "sweep done"
    time.sleep(0.3)                         # several sweep intervals
    assert calls[-1] == "sweep done" and calls.count("sweep") == 1
