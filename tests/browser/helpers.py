"""What the browser tests share besides their fixtures (conftest.py): the server process, the
operator's command line against it, and a person's clicks and inbox."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
PHONE = {"width": 390, "height": 844}


def need_browser() -> None:
    if CHROMIUM is None:
        if os.environ.get("TURNPOST_TEST_BROWSER"):
            pytest.fail("Chromium is required here: apt-get install chromium")
        pytest.skip("no Chromium on this machine")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stop(proc: subprocess.Popen) -> None:
    """The server and anything it started: asked to stop, then killed."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
    except ProcessLookupError:
        pass


@contextmanager
def flask_run(folder: Path, port: int, **settings: str):
    """`flask run` on `port` over a fresh SQLite file and Maildir in `folder`, as `make run`
    serves, with `settings` on top; its base URL once it answers, its log in server.log."""
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, TURNPOST_DATABASE_URL=f"sqlite:///{folder / 'b.db'}",
               TURNPOST_MAILDIR=str(folder / "outbox"), TURNPOST_BASE_URL=base,
               TURNPOST_BROKER_URL="", **settings)
    flask = [sys.executable, "-m", "flask", "--app", "service.web"]
    subprocess.run([*flask, "init-db"], cwd=ROOT, env=env, check=True, capture_output=True)
    with (folder / "server.log").open("wb") as log:
        # a session of its own: stopping the group stops whatever the server started too
        proc = subprocess.Popen([*flask, "run", "--port", str(port)], cwd=ROOT, env=env,
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    urllib.request.urlopen(base + "/healthz", timeout=1)
                    break
                except OSError as exc:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError("the server did not start: " + (
                            folder / "server.log").read_text()[-2000:]) from exc
                    time.sleep(0.2)
            yield base
        finally:
            _stop(proc)


class Served:
    """The running service: its base URL, its SMTP port, its files, and the operator's CLI
    against its database and outbox."""

    def __init__(self, base: str, smtp_port: int, folder: Path) -> None:
        self.base, self.smtp_port, self.folder = base, smtp_port, folder
        self.outbox = folder / "outbox"

    def flask(self, *args: str) -> str:
        """A command against the server's database and outbox, as the operator runs one."""
        env = dict(os.environ, TURNPOST_DATABASE_URL=f"sqlite:///{self.folder / 'b.db'}",
                   TURNPOST_MAILDIR=str(self.outbox), TURNPOST_BASE_URL=self.base,
                   TURNPOST_BROKER_URL="")
        return subprocess.run([sys.executable, "-m", "flask", "--app", "service.web", *args],
                              cwd=ROOT, env=env, check=True, capture_output=True,
                              text=True).stdout


def click(page, selector: str) -> None:
    """Click, then let the page that the click opens finish loading before it is read (a
    content() read in the middle of a navigation is empty)."""
    page.click(selector)
    page.wait_for_load_state()


def open_mail(page, server, to: str, subject_part: str):
    """The newest email to `to` whose subject has `subject_part`, opened in the dev outbox;
    returns the frame showing its HTML."""
    # mail goes out just after the response (a background thread on the embedded default):
    # look again for a few seconds, as a person reloading their inbox would
    deadline = time.monotonic() + 15
    while True:
        page.goto(server + "/dev/outbox")
        item = page.locator("li", has_text=to).filter(has_text=subject_part).first
        if item.count() or time.monotonic() > deadline:
            break
        time.sleep(0.3)
    item.locator("a").click()
    return page.frame_locator("iframe")
