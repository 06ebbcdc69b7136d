"""A person's path in a real browser (Playwright driving the system Chromium) against the
service running as a real server process on the embedded default: start a game in the lobby,
read the email in the dev outbox, follow a move link, press the button, see the result.

Skipped on a laptop without Chromium; CI sets TURNPOST_TEST_BROWSER=1, which makes a missing
browser a failure instead."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _need_browser():
    if CHROMIUM is None:
        if os.environ.get("TURNPOST_TEST_BROWSER"):
            pytest.fail("Chromium is required here: apt-get install chromium")
        pytest.skip("no Chromium on this machine")


@pytest.fixture
def server(tmp_path):
    _need_browser()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, TURNPOST_DATABASE_URL=f"sqlite:///{tmp_path / 'b.db'}",
               TURNPOST_MAILDIR=str(tmp_path / "outbox"), TURNPOST_BASE_URL=base,
               TURNPOST_BROKER_URL="")
    flask = [sys.executable, "-m", "flask", "--app", "service.web"]
    subprocess.run([*flask, "init-db"], cwd=ROOT, env=env, check=True, capture_output=True)
    proc = subprocess.Popen([*flask, "run", "--port", str(port)], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(base + "/healthz", timeout=1)
            break
        except OSError:
            time.sleep(0.2)
    yield base
    proc.terminate()
    proc.wait(10)


@pytest.fixture
def page(server):
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        context = browser.new_context(viewport={"width": 390, "height": 844})
        yield context.new_page()
        browser.close()


def test_start_a_game_read_the_mail_and_move_by_link(server, page, tmp_path):
    page.goto(server + "/")
    page.check("input[name=game][value=trees]")
    page.fill("textarea[name=players]", "Anna <anna@example.org>\nben@example.org")
    page.click("text=Start the game")
    assert "Trees #1" in page.content()
    page.click("text=read them in the dev outbox")
    assert page.locator("li").count() >= 2
    # open each email until one offers a move; follow its first move link
    links = page.locator("a[href^='/dev/outbox/']")
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    move_url = None
    for href in hrefs:
        page.goto(server + href)
        frame = page.frame_locator("iframe")
        buttons = frame.locator("a.btn")
        if buttons.count():
            move_text = buttons.first.inner_text()
            move_url = buttons.first.get_attribute("href")
            break
    assert move_url, "no email offered a move"
    page.goto(move_url)
    page.screenshot(path=str(tmp_path / "confirm.png"))
    assert page.locator("button", has_text=move_text).count() == 1
    page.click(f"button:has-text('{move_text}')")
    assert "Done" in page.content()
    assert "email" in page.content()   # the done page says what comes next
    page.goto(move_url)          # the same link again: the game moved on
    body = page.content()
    assert "no longer applies" in body
    assert page.locator("button", has_text=move_text).count() == 0
    page.click("text=See the game as it is now")
    assert "History" in page.content()
