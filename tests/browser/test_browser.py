"""A person's path in a real browser (Playwright driving the system Chromium) against the
service running as a real server process on the embedded default: sign in by the emailed
link, open /me, invite a friend from the lobby, accept the invitation from its email, see the
game on /me, make a move, follow the used move link and be told it was done already, write
to the table.

Skipped on a laptop without Chromium; CI sets TURNPOST_TEST_BROWSER=1, which makes a missing
browser a failure instead."""
from __future__ import annotations

import re
import time

from tests.browser.helpers import click, open_mail


def test_sign_in_open_me_accept_an_invitation_and_move(server, page, addr, tmp_path):
    anna, ben = addr("anna"), addr("ben")
    # sign in: the link comes by email and works in this browser
    page.goto(server + "/me")
    assert "/sign-in" in page.url
    page.fill("input[name=email]", anna)
    click(page, "text=Email me a sign-in link")
    assert "Check your email" in page.content()
    link = open_mail(page, server, anna, "sign-in").locator("a.btn").first
    page.goto(link.get_attribute("href"))
    click(page, "text=Sign me in")
    assert page.url.endswith("/me") and f"Signed in as {anna}" in page.content()
    # invite Ben from the lobby
    page.goto(server + "/")
    page.check("input[name=game][value=trees]")
    page.fill("textarea[name=players]", ben)
    click(page, "text=Send the invitations")
    assert page.url.endswith("/me") and "(invited)" in page.content()
    # Ben accepts from his invitation email
    accept = open_mail(page, server, ben, "invites you").locator("a.btn",
                                                                              has_text="Accept")
    page.goto(accept.get_attribute("href"))
    click(page, "text=Accept the invitation")
    assert "the game has started" in page.content()
    # who plays first is dealt by chance: if it is Ben, he moves by the link in his email
    page.goto(server + "/me")
    if not page.title().startswith("(1)"):
        assert "waiting on ben" in page.content()
        button = open_mail(page, server, ben, "Your move").locator("a.btn").first
        ben_move = button.inner_text()
        page.goto(button.get_attribute("href"))
        click(page, f"button:has-text('{ben_move}')")
        assert "Done" in page.content()
    # Anna's games page: her move first, the title counts it
    page.goto(server + "/me")
    assert page.title().startswith("(1) My games")
    click(page, "a:has-text('Trees #')")
    page.screenshot(path=str(tmp_path / "game.png"))
    move = page.locator(".moves form").first
    move_url = move.get_attribute("action")
    move_text = move.locator("button").inner_text()
    move.locator("button").click()
    page.wait_for_load_state()      # as helpers.click: read mid-navigation, the page is empty
    assert "Done" in page.content()
    page.goto(server + move_url)          # the same link again: its move was made
    assert "already done" in page.content() and "no longer applies" not in page.content()
    assert page.locator(".card button", has_text=move_text).count() == 0
    page.goto(server + "/me")
    assert "Waiting on others" in page.content() and "waiting on ben" in page.content()
    # a word to the table from the game page's chat box (its form carries its CSRF token)
    click(page, "a:has-text('Trees #')")
    page.fill("#chat textarea[name=text]", "good game so far")
    click(page, "#chat button:has-text('Send message')")
    assert "expired" not in page.content() and "good game so far" in page.content()


def test_a_trees_practice_game_against_a_bot_to_the_end_and_its_replay(server, page):
    page.goto(server + "/")
    form = page.locator("form[action='/practice#practice']")
    form.locator("select[name=table]").select_option("trees:2")
    form.locator("text=Play against bots").click()
    page.wait_for_load_state()
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
    # a text selector, not wait_for_function: a string predicate is evaluated as JavaScript,
    # which the page's Content-Security-Policy (no 'unsafe-eval') refuses when it runs
    page.wait_for_selector("text=Step 3 of")
    # the keys work once the page's deferred replay.js has run, not as soon as its text is
    # parsed: a key pressed in between went nowhere (one make test run in four)
    page.wait_for_load_state("load")
    page.keyboard.press("p")
    page.wait_for_selector("text=Step 2 of")
    click(page, "#prev")
    assert "Step 1 of" in page.content()
