"""The MIME fuzzer (issue 17, point 7): hostile and broken messages, built by hypothesis from
headers, charsets, transfer encodings, multipart nesting, NULs, bare CR/LF and undecodable
bytes, go through the whole inbound pipeline (store, process, answer, send). Whatever the
bytes: the message is stored, nothing crashes, nobody but a player is mailed, and no message
gets more than one answer, nor an answer over the cap.

A fixed example budget and a fixed seed keep it to a few seconds and the same in CI. Every
message that once broke it is kept in tests/corpus/ (the failing test writes it there) and
replayed on every run."""
from __future__ import annotations

import base64
import hashlib
import quopri
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st
from sqlalchemy import select

from service import play
from service.play.mail import replies
from service.store.models import InboundMessage, OutboxRow
from tests.budgets import examples
from tests.play.mail.test_replies import ADDRS, start
from tests.web.helpers import latest_to, mails, move_links

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
CHARSETS = ["utf-8", "iso-8859-1", "windows-1252", "utf-16", "koi8-r", "x-unknown", "us-ascii"]
ODD_BYTES = [b"\x00", b"\r", b"\n", b"\r\n", b"\xff", b"\xfe", b"\xc3(", b"\xed\xa0\x80",
             b"\x1b", b"\x7f", b" ", b"\t", b"<", b">", b"@", b"=?", b"?=", b";"]


@st.composite
def noisy(draw, base: bytes) -> bytes:
    """Some bytes with odd ones spliced in (NULs, bare CR or LF, invalid UTF-8, surrogates)."""
    out = base
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(out)))
        out = out[:at] + draw(st.sampled_from(ODD_BYTES)) + out[at:]
    return out


def encoded_word(text: str, charset: str, q: bool) -> bytes:
    data = text.encode("utf-8" if charset in ("x-unknown", "us-ascii") else charset, "replace")
    body = quopri.encodestring(data, header=True) if q else base64.b64encode(data)
    return b"=?" + charset.encode() + (b"?q?" if q else b"?b?") + body.replace(b"\n", b"") + b"?="


@st.composite
def header_value(draw, plain: bytes) -> bytes:
    kind = draw(st.sampled_from(["plain", "noisy", "word", "raw8"]))
    if kind == "plain":
        return plain
    if kind == "noisy":
        return draw(noisy(plain))
    if kind == "word":
        return encoded_word(draw(st.text(max_size=30)), draw(st.sampled_from(CHARSETS)),
                            draw(st.booleans())) + b" " + plain
    return draw(st.text(max_size=20)).encode("utf-8", "surrogatepass") + plain


@st.composite
def body_part(draw, commands: str, depth: int) -> bytes:
    if depth and draw(st.booleans()):
        boundary = draw(st.sampled_from([b"b1", b"==x==", b"", b"\xff"])) + str(depth).encode()
        parts = [draw(body_part(commands, depth - 1)) for _ in range(draw(st.integers(1, 3)))]
        sep = b"\r\n--" + boundary + b"\r\n"
        return (b"Content-Type: multipart/" + draw(st.sampled_from([b"mixed", b"alternative",
                                                                     b"report", b"related"]))
                + b'; boundary="' + boundary + b'"\r\n\r\n' + sep + sep.join(parts)
                + b"\r\n--" + boundary + draw(st.sampled_from([b"--", b""])) + b"\r\n")
    charset = draw(st.sampled_from(CHARSETS))
    ctype = draw(st.sampled_from([b"text/plain", b"text/html", b"application/octet-stream"]))
    text = commands if ctype != b"text/html" else f"<div>{commands}</div><blockquote>x</blockquote>"
    codec = "utf-8" if charset in ("x-unknown", "us-ascii") else charset
    data = text.encode(codec, "surrogatepass" if codec == "utf-8" else "replace")
    cte = draw(st.sampled_from([b"7bit", b"8bit", b"base64", b"quoted-printable", b"x-bogus"]))
    if cte == b"base64":
        data = base64.encodebytes(data)
    elif cte == b"quoted-printable":
        data = quopri.encodestring(data)
    return (b"Content-Type: " + ctype + b"; charset=" + charset.encode() + b"\r\n"
            b"Content-Transfer-Encoding: " + cte + b"\r\n\r\n" + draw(noisy(data)))


COMMAND = st.sampled_from(["help", "view", "say hello", "say", "frobnicate", "keep", "",
                           "MOVE", "help\n" * 30, "\x00", "\ud800", "say \udcff"])


@st.composite
def message(draw, ours, player: str) -> bytes:
    first_move = move_links(ours)[0][0] if move_links(ours) else "help"
    commands = "\n".join(draw(st.lists(st.one_of(COMMAND, st.just(first_move)), max_size=25)))
    sender = draw(st.sampled_from([player, "mallory@evil.example", "noreply@x.example",
                                   '"victim@example.net" <x@evil.test>',
                                   "=?utf-8?q?victim=40example.net?= <x@evil.test>", ""]))
    to = draw(st.sampled_from([ours["Reply-To"], "play+aaaaaaaaaaaaaaaaaaaaaaaaaa@turnpost.test",
                               "turnpost@turnpost.test", ""]))
    headers = [(b"From", draw(header_value(sender.encode()))),
               (b"To", draw(header_value(to.encode()))),
               (b"Subject", draw(header_value(b"Re: your move"))),
               (b"Message-ID", draw(noisy(b"<" + draw(st.binary(min_size=1, max_size=12))
                                          .hex().encode() + b"@fuzz.example>"))),
               (b"In-Reply-To", draw(noisy(ours["Message-ID"].encode()))),
               (b"References", draw(noisy(ours["References"].encode())))]
    for name in draw(st.lists(st.sampled_from([b"Auto-Submitted", b"Precedence", b"List-Id",
                                               b"X-Junk\x00", b"Return-Path"]), max_size=2)):
        headers.append((name, draw(st.sampled_from([b"auto-replied", b"bulk", b"<>", b"no"]))))
    head = b"".join(n + b": " + v + b"\r\n" for n, v in draw(st.permutations(headers)))
    return head + b"MIME-Version: 1.0\r\n" + draw(body_part(commands, draw(st.integers(0, 4))))


def check(app, raw: bytes) -> None:
    """The property: stored, no crash, only players mailed, one answer at most, capped."""
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        last = s.scalar(select(OutboxRow.id).order_by(OutboxRow.id.desc()).limit(1)) or 0
    with app.app_context():
        row_id, new = play.accept_mail(svc, raw, "smtp")
    with svc.db.transaction() as s:
        row = s.get(InboundMessage, row_id)
        assert row is not None
        if new:
            kept = bytes(row.raw)
            assert kept == raw or (row.expires_at is not None and raw.startswith(kept))
            assert row.status not in ("failed", "processing", "received"), row.outcome
        made = s.scalars(select(OutboxRow).where(OutboxRow.id > last)).all()
        assert {r.to_addr for r in made} <= set(ADDRS), "mail to a non-player"
        answers = [r for r in made if r.kind in ("refusal", "answer", "warning")]
        assert len(answers) <= 1
        for r in answers:
            text = (r.payload or {}).get("answer", "")
            assert len(text.splitlines()) <= replies.ANSWER_MAX_LINES + 1
        assert all(r.status in ("sent", "skipped") for r in made), \
            [(r.status, r.last_error) for r in made]


@pytest.fixture
def table(app_factory):
    app = app_factory()
    start(app.test_client())
    return app, latest_to(app, ADDRS[0])


@pytest.mark.deep
def test_fuzzed_mime_is_stored_and_never_amplified(table):
    app, ours = table
    last: list[bytes] = []

    @seed(17)
    @settings(max_examples=examples(80), deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data())
    def fuzz(data):
        last[:] = [data.draw(message(ours, ADDRS[0]))]
        check(app, last[0])

    try:
        fuzz()
    except Exception:
        # hypothesis replays the smallest failing message last: keep it for good
        CORPUS.mkdir(exist_ok=True)
        (CORPUS / f"found-{hashlib.sha256(last[0]).hexdigest()[:16]}.eml").write_bytes(last[0])
        raise


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.eml")), ids=lambda p: p.name)
def test_every_message_that_once_broke_the_pipeline(table, path):
    app, _ = table
    check(app, path.read_bytes())
    assert len(mails(app)) >= 2
