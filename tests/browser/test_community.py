"""The community's pages in a real browser: a tournament made at /tournaments/new and entered
by the emailed link (the journey), and axe-core on every community page met on the way and
after: the form, the tournament page forming and running, the invitation email and its page,
the profile, the leaderboards, the ladders and the open seats page with a standing challenge.

Skipped without Chromium unless TURNPOST_TEST_BROWSER=1 (as test_browser.py)."""
from __future__ import annotations

import re

import pytest

from tests.browser.helpers import click, open_mail
from tests.browser.test_axe import _emails, check


@pytest.fixture
def page(checkable_page):
    """A page axe-core may be injected into (test_axe.py's)."""
    return checkable_page


def sign_in(page, server, addr: str) -> None:
    page.goto(server + "/sign-in")
    page.fill("input[name=email]", addr)
    click(page, "text=Email me a sign-in link")
    link = open_mail(page, server, addr, "sign-in").locator("a.btn").first
    page.goto(link.get_attribute("href"))
    click(page, "text=Sign me in")
    assert page.url.endswith("/me")


def test_a_tournament_made_in_the_lobby_and_entered_by_link(served, page, addr):
    server, anna, ben = served.base, addr("anna"), addr("ben")
    sign_in(page, server, anna)
    page.goto(server + "/")
    click(page, "text=Make a tournament")
    assert page.url.endswith("/tournaments/new")
    check(page, "the new tournament form")
    page.select_option("select[name=game]", "trees")
    page.check("input[name=format][value=swiss]")
    page.fill("input[name=rounds]", "2")
    page.fill("textarea[name=entrants]", f"{ben}\nbot:easy\nbot:normal")
    click(page, "text=Send the invitations")
    made = re.search(r"/tournaments/\d+", page.url)
    assert made, page.url
    tournament = server + made.group(0)
    content = page.content()
    assert "Waiting for its entrants to accept" in content
    assert f"{ben}: waiting" in content
    check(page, "a forming tournament, as its maker sees it")
    # Ben's invitation: the email, its link's page, its button
    accept = open_mail(page, server, ben, "tournament").locator(
        "a.btn", has_text="Accept").get_attribute("href")
    letter = next(m for m in _emails(served.outbox)
                  if m["To"] == ben and "tournament" in m["Subject"])
    page.set_content(letter.get_body(("html",)).get_content())
    check(page, "the tournament invitation email")
    page.goto(accept)
    check(page, "the tournament invitation's page")
    click(page, "text=Enter the tournament")
    assert "the tournament has started" in page.content()
    check(page, "the accepted invitation")
    page.goto(tournament)
    assert "Round 1 is being played" in page.content()
    check(page, "a running tournament")
    page.goto(server + "/tournaments")
    check(page, "the tournaments")


def test_profiles_leaderboards_ladders_and_challenges_pass_axe(served, page, addr):
    server = served.base
    # a tournament of bots, run to its end by the command: ratings to show
    made = served.flask("tournaments", "create", "trees", "--format", "swiss",
                        "--rounds", "1", "bot:easy", "bot:normal")
    page.goto(server + "/ratings")
    check(page, "the leaderboards")
    click(page, "text=Trees")
    assert "Normal bot" in page.content()
    check(page, "the Trees leaderboard")
    page.goto(server + re.search(r"/tournaments/\d+", made).group(0))
    check(page, "an ended tournament")
    sign_in(page, server, addr("anna"))
    page.goto(server + "/ladders")
    check(page, "the ladders")
    click(page, "text=Trees")
    click(page, "text=Join this ladder")
    assert "Leave this ladder" in page.content()
    check(page, "a ladder, joined")
    page.goto(server + "/games/open")
    page.locator("form[action='/challenges'] select[name=game]").select_option("trees")
    click(page, "form[action='/challenges'] button")
    assert "Your challenge stands" in page.content()
    check(page, "the open seats with a standing challenge")
    page.goto(server + "/me")
    click(page, "a[href^='/players/']")
    check(page, "a player's own profile")
