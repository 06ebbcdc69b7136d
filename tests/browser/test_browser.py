"""A person's path in a real browser (Playwright driving the system Chromium) against the
service running as a real server process on the embedded default: sign in by the emailed
link, open /me, invite a friend from the lobby, accept the invitation from its email, see the
game on /me, make a move, follow the used move link and be told it was done already, write
to the table.

Skipped on a laptop without Chromium; CI sets TURNPOST_TEST_BROWSER=1, which makes a missing
browser a failure instead."""
from __future__ import annotations

import os
import re
import shutil
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


def _need_browser():
    if CHROMIUM is None:
        if os.environ.get("TURNPOST_TEST_BROWSER"):
            pytest.fail("Chromium is required here: apt-get install chromium")
        pytest.skip("no Chromium on this machine")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def flask_run(tmp_path: Path, port: int, **settings: str):
    """`flask run` on `port` over a fresh SQLite file and Maildir in `tmp_path`, as `make run`
    serves, with `settings` on top; its base URL once it answers, its log in server.log."""
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, TURNPOST_DATABASE_URL=f"sqlite:///{tmp_path / 'b.db'}",
               TURNPOST_MAILDIR=str(tmp_path / "outbox"), TURNPOST_BASE_URL=base,
               TURNPOST_BROKER_URL="", **settings)
    flask = [sys.executable, "-m", "flask", "--app", "service.web"]
    subprocess.run([*flask, "init-db"], cwd=ROOT, env=env, check=True, capture_output=True)
    with (tmp_path / "server.log").open("wb") as log:
        proc = subprocess.Popen([*flask, "run", "--port", str(port)], cwd=ROOT, env=env,
                                stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(base + "/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        try:
            yield base
        finally:
            proc.terminate()
            proc.wait(10)


@pytest.fixture
def server(tmp_path):
    _need_browser()
    with flask_run(tmp_path, free_port()) as base:
        yield base


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


def test_sign_in_open_me_accept_an_invitation_and_move(server, page, tmp_path):
    # sign in: the link comes by email and works in this browser
    page.goto(server + "/me")
    assert "/sign-in" in page.url
    page.fill("input[name=email]", "anna@example.org")
    click(page, "text=Email me a sign-in link")
    assert "Check your email" in page.content()
    link = open_mail(page, server, "anna@example.org", "sign-in").locator("a.btn").first
    page.goto(link.get_attribute("href"))
    click(page, "text=Sign me in")
    assert page.url.endswith("/me") and "Signed in as anna@example.org" in page.content()
    # invite Ben from the lobby
    page.goto(server + "/")
    page.check("input[name=game][value=trees]")
    page.fill("textarea[name=players]", "ben@example.org")
    click(page, "text=Send the invitations")
    assert page.url.endswith("/me") and "(invited)" in page.content()
    # Ben accepts from his invitation email
    accept = open_mail(page, server, "ben@example.org", "invites you").locator("a.btn",
                                                                              has_text="Accept")
    page.goto(accept.get_attribute("href"))
    click(page, "text=Accept the invitation")
    assert "the game has started" in page.content()
    # who plays first is dealt by chance: if it is Ben, he moves by the link in his email
    page.goto(server + "/me")
    if not page.title().startswith("(1)"):
        assert "waiting on ben" in page.content()
        button = open_mail(page, server, "ben@example.org", "Your move").locator("a.btn").first
        ben_move = button.inner_text()
        page.goto(button.get_attribute("href"))
        click(page, f"button:has-text('{ben_move}')")
        assert "Done" in page.content()
    # Anna's games page: her move first, the title counts it
    page.goto(server + "/me")
    assert page.title().startswith("(1) My games")
    click(page, "text=Trees #1")
    page.screenshot(path=str(tmp_path / "game.png"))
    move = page.locator(".moves form").first
    move_url = move.get_attribute("action")
    move_text = move.locator("button").inner_text()
    move.locator("button").click()
    assert "Done" in page.content()
    page.goto(server + move_url)          # the same link again: its move was made
    assert "already done" in page.content() and "no longer applies" not in page.content()
    assert page.locator(".card button", has_text=move_text).count() == 0
    page.goto(server + "/me")
    assert "Waiting on others" in page.content() and "waiting on ben" in page.content()
    # a word to the table from the game page's chat box (its form carries its CSRF token)
    click(page, "text=Trees #1")
    page.fill("#chat textarea[name=text]", "good game so far")
    click(page, "#chat button:has-text('Send message')")
    assert "expired" not in page.content() and "good game so far" in page.content()


def test_a_trees_practice_game_against_a_bot_to_the_end_and_its_replay(server, page):
    page.goto(server + "/")
    form = page.locator("form[action='/practice#practice']")
    form.locator("select[name=table]").select_option("trees:2")
    form.locator("text=Play against bots").click()
    seat_url = page.url.split("#")[0]     # looked at again below: a load, not a jump
    assert "/g/" in seat_url and "Normal bot" in page.content()
    # the history's times, rewritten in the browser's zone, say which zone that is
    shown = page.locator("#history time").first.inner_text()
    assert re.search(r"(UTC|GMT|[A-Z]{3,4})", shown), shown
    for _ in range(400):
        # the bot moves in the background just after each of my moves: look again until it
        # is my turn (or the game is over), as a person reloading the page would
        deadline = time.monotonic() + 15
        while True:
            if "Game over" in page.content():
                break
            move = page.locator(".moves form button").first
            if move.count() or time.monotonic() > deadline:
                break
            time.sleep(0.2)
            page.goto(seat_url)
        if "Game over" in page.content():
            break
        assert move.count(), "no move to click on my turn"
        move.click()                        # the move, then the done page
        page.wait_for_load_state()
        page.goto(seat_url)
    # the result line: "You won", "Normal bot won", or on a tie "Shared win: you, Normal bot"
    result = page.content().lower()
    assert "game over" in result and ("won" in result or "shared win:" in result)
    click(page, "#replay")
    assert "Step 1 of" in page.content()
    page.keyboard.press("n")
    page.wait_for_url("**/replay?at=*")
    assert "Step 2 of" in page.content()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.body.innerText.includes('Step 3 of')")
    page.keyboard.press("p")
    page.wait_for_function("document.body.innerText.includes('Step 2 of')")
    click(page, "#prev")
    assert "Step 1 of" in page.content()
