"""A newcomer's first game, as the README's tour has it, in a real browser against the service
started as `make run` starts it (one process: pages, background work, and the SMTP receiver):
sign in, make a game with an invitation in the lobby, the friend accepts in a second browser,
then a short Trees game (turn_cap 4) to its end with a move of every kind: by an email's
link, by a reply from the dev outbox's Reply form, on the game page, by a reply over SMTP.

It fails on a dead link (every link of every email and of every page visited must answer
below 400) and on a mail to a player about their own move."""
from __future__ import annotations

import http.client
import re
import smtplib
import time
import urllib.error
import urllib.request
from email import policy
from email.parser import BytesParser
from pathlib import Path
from urllib.parse import urldefrag, urljoin

import pytest

from tests.browser.helpers import click
from tests.play.mail.test_replies import reply_to

TURNS = 4                         # Trees ends right after the turn cap: a short game
HREF = re.compile(r'href="([^"]+)"')
URL = re.compile(r"https?://[^\s<>\"')\]]+")
WAIT_SECONDS = 20                 # mail goes out just after each response (background thread)


@pytest.fixture
def whole_service(served, addr):
    """`make run`: the shared `flask run` process (its base URL from its port, replies received
    by SMTP), read for this test's two people only."""
    return Service(served.base, served.smtp_port, served.outbox, {addr("anna"), addr("ben")})


class Service:
    """The running service, its Maildir, and the links checked so far."""

    def __init__(self, base: str, smtp_port: int, maildir: Path, people: set[str]) -> None:
        self.base, self.smtp_port, self.maildir = base, smtp_port, maildir
        self.people = people
        self.seen_files: set[str] = set()
        self.checked: dict[str, int] = {}
        self.read: list = []              # every email, oldest first

    # -- mail ---------------------------------------------------------------------------
    def new_mail(self) -> list:
        """Mail written since the last call, oldest first; each one's links are checked."""
        fresh = []
        for sub in ("new", "cur"):
            folder = self.maildir / sub
            for path in folder.iterdir() if folder.exists() else ():
                if path.name not in self.seen_files:
                    self.seen_files.add(path.name)
                    fresh.append((path.stat().st_mtime_ns, path))
        mails = [BytesParser(policy=policy.default).parsebytes(p.read_bytes())
                 for _, p in sorted(fresh)]
        mails = [m for m in mails if m["To"] in self.people]     # the other tests' are theirs
        for msg in mails:
            self.check_links(_links_of(msg), f"the email {msg['Subject']!r} to {msg['To']}")
        self.read += mails
        return mails

    def wait_for_mail(self, to: str | None, subject_start: str) -> tuple[object, list]:
        """The first new email to `to` (anyone: None) whose subject starts so, and every email
        new since this call began."""
        got: list = []
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            got += self.new_mail()
            found = [m for m in got if to in (None, m["To"])
                     and m["Subject"].startswith(subject_start)]
            if found:
                return found[0], got
            assert time.monotonic() < deadline, (
                f"no {subject_start!r} email to {to}; new: {[(m['To'], m['Subject']) for m in got]}")
            time.sleep(0.3)

    # -- links --------------------------------------------------------------------------
    def check_links(self, urls, where: str) -> None:
        for url in urls:
            url = urldefrag(urljoin(self.base + "/", url)).url
            if not url.startswith(("http://", "https://")) or url in self.checked:
                continue
            self.checked[url] = status = _status(url)
            assert status < 400, f"dead link in {where}: {url} answers {status}"

    def check_page(self, page) -> None:
        hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)")
        self.check_links(hrefs, f"the page {page.url}")


def _links_of(msg) -> list[str]:
    links = []
    for kind in ("html", "plain"):
        part = msg.get_body((kind,))
        if part is not None:
            content = part.get_content()
            links += HREF.findall(content) if kind == "html" else URL.findall(content)
    return [u.replace("&amp;", "&") for u in links if not u.startswith(("mailto:", "cid:"))]


def _status(url: str) -> int:
    """A GET without cookies (never a POST: a move or an unsubscribe is a POST); a link to a
    port nothing serves counts as dead."""
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status
    except urllib.error.HTTPError as exc:
        return exc.code
    except (OSError, http.client.HTTPException):
        return 599


def _move_lines(msg, base: str) -> list[tuple[str, str]]:
    """(move text, link) of each one-click move in a turn email's plain text."""
    lines = msg.get_body(("plain",)).get_content().splitlines()
    return [(line[2:].strip(), lines[n + 1].strip()) for n, line in enumerate(lines[:-1])
            if line.startswith("* ") and lines[n + 1].strip().startswith(base + "/m/")]


def _game_link(msg, base: str) -> str:
    return next(u for u in _links_of(msg) if u.startswith(base + "/g/"))


@pytest.fixture
def two_browsers(page, second_page):
    return page, second_page


def test_a_newcomers_first_game_from_sign_in_to_the_end(whole_service, two_browsers):
    svc, (anna, ben) = whole_service, two_browsers
    base = svc.base
    ANNA, BEN = sorted(svc.people)       # noqa: N806 - anna.t<n>@, ben.t<n>@

    def visit(page, url: str) -> None:
        page.goto(url)
        page.wait_for_load_state()
        svc.check_page(page)

    # Anna signs in by the link the dev outbox shows her
    visit(anna, base + "/me")
    assert "/sign-in" in anna.url
    anna.fill("input[name=email]", ANNA)
    click(anna, "text=Email me a sign-in link")
    sign_in, _ = svc.wait_for_mail(ANNA, "")
    visit(anna, base + "/dev/outbox")
    visit(anna, next(u for u in _links_of(sign_in) if "/sign-in/" in u))
    click(anna, "text=Sign me in")
    assert anna.url.endswith("/me")
    svc.check_page(anna)

    # a short Trees game from the lobby, Ben invited
    visit(anna, base + "/")
    anna.check("input[name=game][value=trees]")
    anna.click("text=Options for Trees")
    anna.fill("input[name='trees.turn_cap']", str(TURNS))
    anna.fill("textarea[name=players]", BEN)
    click(anna, "text=Send the invitations")
    assert anna.url.endswith("/me") and "(invited)" in anna.content()
    svc.check_page(anna)

    # Ben accepts in his own browser, from his invitation email
    invitation, _ = svc.wait_for_mail(BEN, "")
    visit(ben, next(u for u in _links_of(invitation) if u.endswith("/accept")))
    click(ben, "text=Accept the invitation")
    assert "the game has started" in ben.content()
    svc.check_page(ben)

    browsers = {ANNA: anna, BEN: ben}
    turn_mail, _ = svc.wait_for_mail(None, "Your move")      # who moves first is dealt
    mover = str(turn_mail["To"])
    for turn, way in enumerate(["link", "dev reply", "page", "smtp reply"][:TURNS], 1):
        page, other = browsers[mover], BEN if mover == ANNA else ANNA
        moves = _move_lines(turn_mail, base)
        assert moves, f"turn {turn}: no move in {mover}'s turn email"
        text, link = moves[0]
        if way == "link":                       # the button in the email, then its page's
            visit(page, link)
            click(page, "form button[type=submit]")
            assert "Done" in page.content(), page.content()
        elif way == "dev reply":                # the dev outbox's Reply, as the newcomer would
            visit(page, base + "/dev/outbox")
            page.locator("li", has_text=mover).filter(has_text="Your move").first.locator(
                "a").click()
            page.wait_for_load_state()
            svc.check_page(page)
            page.fill("#reply-text", text)
            click(page, "text=Send the reply")
            assert "was received like real mail" in page.content()
        elif way == "page":                     # on the game page, from the email's game link
            visit(page, _game_link(turn_mail, base))
            page.locator(".moves form button").first.click()
            page.wait_for_load_state()
            assert "Done" in page.content(), page.content()
        else:                                   # a mail client's reply, over SMTP
            to = turn_mail["Reply-To"].addresses[0].addr_spec
            with smtplib.SMTP("127.0.0.1", svc.smtp_port, timeout=30) as smtp:
                assert smtp.sendmail(mover, [to], reply_to(turn_mail, text, wire=True)) == {}
        svc.check_page(page)
        expected = "Game over" if turn == TURNS else "Your move"
        turn_mail, new = svc.wait_for_mail(other, expected)
        own = [m["Subject"] for m in new if m["To"] == mover and m["Subject"].startswith(
            "Your move")]
        assert not own, f"turn {turn} ({way}): {mover} was mailed about their own move: {own}"
        mover = other

    # the end, on both players' pages, from their "Game over" emails
    for who, page in browsers.items():
        ended = [m for m in svc.read if m["To"] == who and m["Subject"].startswith("Game over")]
        final = ended[-1] if ended else svc.wait_for_mail(who, "Game over")[0]
        visit(page, _game_link(final, base))
        assert "Game over" in page.content()
    # nobody was ever mailed "Your move" right after their own move (checked per turn above)
    svc.new_mail()
    assert len(svc.checked) > 10
