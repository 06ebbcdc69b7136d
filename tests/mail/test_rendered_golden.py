"""The emails the service sends, byte for byte (but the table pictures' pixels, drawn with the
machine's fonts: their size is compared): turn emails of the four games (at the start
and after a few moves, each seat's), a chat line in each, and a sign-in letter, compared with their digests
recorded in tests/mail/golden/emails.json. Rendering is made faster by caches and work done
once (issue 39); none of that may change a byte of what a player receives.

What varies from run to run is pinned: the clock, the deal, the bots' choices, the outbox
rows' Message-IDs, the move links' nonces and timestamps, and the MIME boundaries. On a
mismatch (or with TURNPOST_KEEP_EMAILS=1) the emails are written to the test's temporary
directory, to be compared with those of an earlier commit.

To record the digests again after a change that is meant to change the emails:
    TURNPOST_WRITE_GOLDEN=1 .venv/bin/python -m pytest tests/mail/test_rendered_golden.py
"""
from __future__ import annotations

import base64
import hashlib
import itertools
import json
import os
import random
import re
import struct
from datetime import datetime, timezone
from email import policy
from email.parser import BytesParser
from pathlib import Path
from types import SimpleNamespace

from itsdangerous.timed import TimestampSigner

from service.linking import freshness, signer
from service.linking.signer import Claims
from service.mailwire.outbound import compose
from service.play import notify, repository
from service.play.clock import ManualClock
from service.play.moves import chat
from tests.web.helpers import post_form, start_game

GOLDEN = Path(__file__).with_name("golden") / "emails.json"
T0 = datetime(2026, 11, 24, 9, 0, tzinfo=timezone.utc)
PEOPLE = ["anna@example.org", "ben@example.org", "cleo@example.org"]
#: (lobby entry, seats): the four games; Magnate's second ruleset, three seats
GAMES = [("trees", 2), ("magnate-roller", 3), ("suzerain", 2), ("aristocracy", 3)]
MOVES = 6           # bot moves played in each game after its start, each mailing its seats


def pinned(monkeypatch) -> None:
    """Everything random in an email, made the same each run."""
    counter = itertools.count(1)
    monkeypatch.setattr(notify, "secrets",
                        SimpleNamespace(token_hex=lambda n: f"{next(counter):0{2 * n}x}"))
    nonces = itertools.count(1)
    monkeypatch.setattr(signer, "secrets",
                        SimpleNamespace(token_urlsafe=lambda n: f"n{next(nonces):07d}"))
    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: int(T0.timestamp()))
    # the process's MIME boundaries, innermost first (compose keeps one per place)
    monkeypatch.setattr(compose, "_KEPT", [f"{'=' * 15}{k:019d}==" for k in range(1, 5)])


def bot_move(client, svc, game_id: int, rng: random.Random) -> bool:
    """The easy bot's move for the lowest seat to act, by its link; False when the game is over."""
    with svc.db.transaction() as s:
        pos = repository.load(s, svc.states, game_id)
    if pos.engine.outcome(pos.state) is not None:
        return False
    seat = min(pos.engine.to_act(pos.state))
    move = pos.engine.bots["easy"](pos.state, seat, rng)
    token = svc.urls.signer.dumps("move", Claims(game_id, seat,
                                                 freshness.mark(pos.engine, pos.state, seat), move))
    assert client.post(f"/m/{token}").status_code == 200
    return True


def play_the_games(app) -> None:
    """Each game started, played a few moves by the bots and chatted in; a sign-in asked for.
    Each email is sent (to the Maildir) as it is made."""
    svc = app.extensions["turnpost"]
    client = app.test_client()
    rng = random.Random(39)
    for entry, seats in GAMES:
        game_id = start_game(app, entry, PEOPLE[:seats]).game_id
        for _ in range(MOVES):
            if not bot_move(client, svc, game_id, rng):
                break
        chat.say(svc, game_id, 0, f"Well played, all of {entry}!")
    assert post_form(app.test_client(), "/sign-in", {"email": PEOPLE[0]}).status_code == 200


#: a picture's part: its headers, then its base64 body up to the next boundary
PICTURE = re.compile(rb"(Content-Type: image/png\r?\n(?:[^\r\n]+\r?\n)*\r?\n)"
                     rb"([A-Za-z0-9+/=\r\n]+?)(?=\r?\n--)")


def without_pictures(raw: bytes) -> bytes:
    """The email with each table picture's bytes replaced by its size: its pixels are drawn
    with the machine's fonts (resvg takes Arial's metric twin where Liberation is installed,
    DejaVu elsewhere), so they are the same only on the same machine. The rest of the email,
    the picture's part headers and its place included, must not change by a byte."""
    def size(match: re.Match) -> bytes:
        png = base64.b64decode(match.group(2))
        width, height = struct.unpack(">II", png[16:24])     # the IHDR chunk
        return match.group(1) + f"<a PNG of {width}x{height}>".encode()
    return PICTURE.sub(size, raw)


def sent_emails(app) -> dict[str, bytes]:
    """Every email in the Maildir, by its Message-ID."""
    out = {}
    for _, raw in app.extensions["turnpost"].transport.messages():
        msg = BytesParser(policy=policy.default).parsebytes(raw, headersonly=True)
        out[str(msg["Message-ID"])] = raw
    return out


def test_the_emails_sent_are_byte_for_byte_those_recorded(app_factory, monkeypatch, tmp_path):
    pinned(monkeypatch)
    app = app_factory(TURNPOST_CLOCK=ManualClock(T0))
    play_the_games(app)
    emails = sent_emails(app)
    digests = {mid: hashlib.sha256(without_pictures(raw)).hexdigest()
               for mid, raw in sorted(emails.items())}
    if os.environ.get("TURNPOST_WRITE_GOLDEN"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(digests, indent=1) + "\n")
    kinds = {BytesParser(policy=policy.default).parsebytes(raw, headersonly=True)["Subject"]
             for raw in emails.values()}
    assert len(emails) >= 4 * (1 + MOVES) and len(kinds) > 4, kinds
    same = digests == json.loads(GOLDEN.read_text())
    if not same or os.environ.get("TURNPOST_KEEP_EMAILS"):
        for mid, raw in emails.items():
            (tmp_path / f"{mid.strip('<>')}.eml").write_bytes(raw)
    assert same, f"the emails differ from those recorded; they are in {tmp_path}"
