"""Accessibility in a real browser: axe-core (vendored, tests/browser/vendor/axe-core) finds no
serious or critical violation on the lobby (signed out and in), a rules page, the sign-in page,
/me, every game's page, a confirm page, a done page, every game's turn email and the leagues'
pages, in light and in dark mode.

Skipped without Chromium unless TURNPOST_TEST_BROWSER=1 (as test_browser.py)."""
from __future__ import annotations

import mailbox
import re
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest

from service.games import registry
from tests.browser.helpers import click, open_mail

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
# entry, seats, switches to tick in the lobby
GAMES = [("trees", 2, ()), ("magnate", 2, ()), ("magnate-roller", 3, ("three",)),
         ("suzerain", 2, ()), ("aristocracy", 3, ())]
SCHEMES = ("light", "dark")

RUN = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3)
      .map(n => n.target.join(' ') + ' — ' + (n.failureSummary || '').replace(/\\s+/g, ' '))
      .join(' | '));
}"""


@pytest.fixture
def page(checkable_page):
    """Every page here is checked by axe-core, which the page's own policy would refuse."""
    return checkable_page


def violations(page) -> list[str]:
    found = []
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        page.add_script_tag(path=str(AXE))
        found += [f"[{scheme}] {v}" for v in page.evaluate(RUN)]
    return found


def check(page, what: str) -> None:
    found = violations(page)
    assert not found, f"{what}: " + "\n".join(found)


def _emails(outbox: Path) -> list:
    box = mailbox.Maildir(str(outbox), create=False)
    return [BytesParser(policy=policy.default).parsebytes(box.get_bytes(k))
            for k in sorted(box.keys(), key=lambda k: box.get_file(k)._file.name)]


def _start(served, entry: str, seats: int, switches) -> None:
    """The operator's start (`flask start-game`, against the server's database and outbox):
    every seat a person, so every seat gets turn emails without a round of invitations."""
    _, _, game, preset = next(e for e in registry.lobby() if e[0] == entry)
    options = [f"{k}={v}" for k, v in {**preset, **dict.fromkeys(switches, "true")}.items()]
    served.flask("start-game", game.id,
                 *(f"P{n} <p{n}.{entry}@example.org>" for n in range(seats)),
                 *(a for o in options for a in ("-o", o)))


def test_lobby_rules_sign_in_and_me_pages(server, page, addr):
    anna = addr("anna")
    page.goto(server + "/")
    check(page, "lobby")
    click(page, "text=Rules of Suzerain")
    check(page, "rules page")
    page.goto(server + "/sign-in")
    check(page, "sign-in page")
    page.fill("input[name=email]", anna)
    click(page, "text=Email me a sign-in link")
    link = open_mail(page, server, anna, "sign-in").locator("a.btn").first
    page.goto(link.get_attribute("href"))
    click(page, "text=Sign me in")
    assert page.url.endswith("/me")
    check(page, "/me")
    page.goto(server + "/")
    check(page, "lobby, signed in")


@pytest.mark.parametrize("entry, seats, switches", GAMES, ids=[g[0] for g in GAMES])
def test_every_games_email_page_confirm_and_done(served, page, entry, seats, switches):
    _start(served, entry, seats, switches)
    mails = [m for m in _emails(served.outbox) if f".{entry}@" in m["To"]]
    assert mails
    mover = None
    for msg in mails:
        html = msg.get_body(("html",)).get_content()
        page.set_content(html)
        check(page, f"{entry} turn email to {msg['To']}")
        links = re.findall(r'href="(http[^"]*/m/[^"]+)"', html)
        if links and mover is None:
            mover = (msg, links[0])
    game = re.search(r'href="(http[^"]*/g/[^"]+)"', mover[0].get_body(("html",)).get_content())
    page.goto(game.group(1))
    check(page, f"{entry} game page")
    page.goto(mover[1])
    check(page, f"{entry} confirm page")
    click(page, "main form button")
    page.wait_for_selector("text=Done")
    check(page, f"{entry} done page")
    page.goto(mover[1])                   # the same link again: stale
    check(page, f"{entry} stale confirm page")


def test_the_lobby_can_be_used_with_the_keyboard_alone(server, page):
    page.goto(server + "/")
    reached = set()
    for _ in range(80):
        page.keyboard.press("Tab")
        reached.add(page.evaluate("document.activeElement.outerHTML.slice(0, 60)"))
    text = " ".join(reached)
    assert 'type="radio" name="game"' in text
    assert 'href="/rules/' in text
    assert "<summary>" in text
    assert 'name="players"' in text
    assert 'type="submit"' in text


def test_the_leagues_pages(served, server, page):
    """The lobby of leagues, a league's page and its join link's page."""
    made = served.flask("leagues", "create", "trees", "--divisions", "2", "--size", "2",
                        "--season-days", "10", "bot:easy", "bot:normal")
    number = re.search(r"league (\d+):", made).group(1)
    join = re.search(r"join link: (\S+)", made).group(1)
    page.goto(server + "/leagues")
    check(page, "/leagues")
    page.goto(server + f"/leagues/{number}")
    check(page, "a league's page")
    page.goto(join)
    check(page, "a league's join link")
