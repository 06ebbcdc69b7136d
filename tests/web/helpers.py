"""Reading what the service sent: emails from the Maildir, links out of them."""
from __future__ import annotations

import re
from email import policy
from email.parser import BytesParser

LINK = re.compile(r"http://turnpost\.test(/[mgu]/[A-Za-z0-9_.\-]+)")


def mails(app) -> list:
    transport = app.extensions["turnpost"].transport
    return [BytesParser(policy=policy.default).parsebytes(raw) for _, raw in transport.messages()]


def text_of(msg) -> str:
    return msg.get_body(("plain",)).get_content()


def html_of(msg) -> str:
    return msg.get_body(("html",)).get_content()


def latest_to(app, addr: str):
    found = [m for m in mails(app) if m["To"] == addr]
    return found[-1] if found else None


def move_links(msg) -> list[tuple[str, str]]:
    """(move text, path) for each one-click move in a turn email's plain text."""
    lines = text_of(msg).splitlines()
    out = []
    for n, line in enumerate(lines):
        if line.startswith("* ") and n + 1 < len(lines):
            m = LINK.search(lines[n + 1])
            if m and m.group(1).startswith("/m/"):
                out.append((line[2:].strip(), m.group(1)))
    return out


def game_link(msg) -> str:
    return next(m.group(1) for m in LINK.finditer(text_of(msg)) if m.group(1).startswith("/g/"))


class MailWatcher:
    """Hands out each email once, parsing only files not seen before (cheap in long games)."""

    def __init__(self, app):
        self.root = app.extensions["turnpost"].transport.path
        self.seen: set[str] = set()

    def new(self) -> list:
        fresh = []
        for sub in ("new", "cur"):
            folder = self.root / sub
            if not folder.exists():
                continue
            for path in folder.iterdir():
                if path.name not in self.seen:
                    self.seen.add(path.name)
                    fresh.append((path.stat().st_mtime_ns, path))
        return [BytesParser(policy=policy.default).parsebytes(p.read_bytes())
                for _, p in sorted(fresh)]
