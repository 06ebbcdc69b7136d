"""Reading what the service sent: emails from the Maildir, links out of them."""
from __future__ import annotations

import re
from email import policy
from email.parser import BytesParser
from functools import lru_cache

from flask.testing import FlaskClient

LINK = re.compile(r"http://turnpost\.test(/[mgu]/[A-Za-z0-9_.\-]+)")


def mails(app) -> list:
    """Every email sent so far, oldest first. Parsed once each: a test reads the outbox again
    after every step, and parsing the same emails over and over was a tenth of the web tests'
    time. They are shared between calls, so a test reads them and never changes one."""
    transport = app.extensions["turnpost"].transport
    return [parsed(raw) for _, raw in transport.messages()]


@lru_cache(maxsize=4096)
def parsed(raw: bytes):
    return BytesParser(policy=policy.default).parsebytes(raw)


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


# -- accounts and forms ----------------------------------------------------------------------

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
SIGN_IN = re.compile(r"http://turnpost\.test(/sign-in/[A-Za-z0-9_.\-]+)")
INVITE = re.compile(r"http://turnpost\.test(/invitations/[A-Za-z0-9_.\-]+/(accept|decline|never))")


def csrf(client, path: str = "/sign-in") -> str:
    """The CSRF token of this client's session, read from a page's form as a browser would."""
    return CSRF.search(client.get(path).text).group(1)


def post_form(client, path: str, data: dict | None = None, page: str = "/sign-in"):
    return client.post(path, data={**(data or {}), "csrf_token": csrf(client, page)})


def sign_in(client, app, addr: str):
    """Ask for a sign-in link, read it from the mail, open it and press its button."""
    assert post_form(client, "/sign-in", {"email": addr}).status_code == 200
    path = SIGN_IN.search(text_of(latest_to(app, addr))).group(1)
    return post_form(client, path, page=path)


def invitation_links(msg) -> dict[str, str]:
    return {m.group(2): m.group(1) for m in INVITE.finditer(text_of(msg))}


def start_game(app, kind: str, players: list[str], options: dict | None = None,
               mail_mode: str = "every"):
    """The operator's start (`flask start-game`): no invitations. The players mail mode is
    "every move" unless told (the tests of what a seat's emails show read every change)."""
    from sqlalchemy import select

    from service import play
    from service.games import registry
    from service.store.models import Player
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as session:
        for addr in players:
            if addr.strip().lower().startswith("bot"):
                continue                      # a bot seat: its player is made at the start
            addr = addr.split("<")[-1].strip(" >").lower()
            if session.scalars(select(Player).where(Player.email == addr)).first() is None:
                session.add(Player(email=addr, name=addr.split("@")[0], mail_mode=mail_mode,
                                   created_at=svc.clock.now()))
    entry = next((e for e in registry.lobby() if e[0] == kind), None)   # "magnate-roller"...
    engine, preset = (entry[2].id, entry[3]) if entry else (kind, {})
    return play.start_game(app.extensions["turnpost"], engine, players,
                           {**(options or {}), **preset})


def lobby_game(app, creator: str, invitees: list[str], game: str = "trees", **form):
    """A game made in the lobby as a player makes one: the creator signs in, invites, and
    every invitee accepts by the emailed link. Returns the creator's (signed-in) client and
    the lobby's answer."""
    client = app.test_client()
    sign_in(client, app, creator)
    made = post_form(client, "/games", {"game": game, "players": "\n".join(invitees), **form},
                     page="/")
    for addr in invitees:
        invitation = [m for m in mails(app) if m["To"] == addr and "invites you" in m["Subject"]]
        if invitation:
            path = invitation_links(invitation[-1])["accept"]
            other = app.test_client()
            post_form(other, path, page=path)
    return client, made


class FormClient(FlaskClient):
    """A test client that sends the session's CSRF token with every form it posts, as the
    pages' forms do, for tests about what the forms do (not about CSRF itself). That the
    pages' forms really carry it is test_page_forms.py's to check."""

    def post(self, path, *args, **kwargs):
        data = kwargs.get("data")
        if isinstance(data, dict) and "csrf_token" not in data:
            kwargs["data"] = {**data, "csrf_token": csrf(self, "/")}
        return super().post(path, *args, **kwargs)


def form_client(app) -> FormClient:
    app.test_client_class = FormClient
    return app.test_client()


def table_game(app, entry: str, players: list[str], form: dict | None = None) -> int:
    """A game started as the operator starts one (seats in the order given, bots included),
    with options written as the lobby names them (`"aristocracy.round_cap": "1"`)."""
    options = {k.split(".", 1)[1]: v for k, v in (form or {}).items() if "." in k}
    return start_game(app, entry, list(players), options).game_id
