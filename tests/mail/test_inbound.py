"""parse_message: headers, robots, bodies, limits, rejections; and it never raises."""

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.mailwire.inbound import parse
from service.mailwire.inbound.body import unflow
from service.mailwire.inbound.html import html_to_text
from service.mailwire.inbound.parse import (
    Automated,
    NoCommands,
    NoGameAddress,
    Rejection,
    Unreadable,
    parse_message,
    rejection,
    reply_tokens,
)
from tests.budgets import examples

FIXTURES = Path(__file__).parent / "fixtures"
TO = "play+abcd2345efgh6789@turnpost.example"


def mail(headers: str = "", body: str = "sell sailor\n", *, to: str = TO) -> bytes:
    base = f"From: Alice <Alice@Example.org>\nTo: {to}\nSubject: Re: turn\n"
    base += "Message-ID: <abc@example.org>\n"
    return (base + headers + "\n" + body).replace("\n", "\r\n").encode("utf-8")


# -- headers ----------------------------------------------------------------------------------


def test_basic_fields():
    m = parse_message(mail("In-Reply-To: <t1@x>\nReferences: <t0@x>\n <t1@x>\n"))
    assert m.sender == "alice@example.org" and m.sender_name == "Alice"
    assert m.message_id == "abc@example.org"
    assert m.in_reply_to == ["t1@x"] and m.references == ["t0@x", "t1@x"]
    assert m.command_lines == ["sell sailor"] and m.problems == []
    assert rejection(m) is None


def test_missing_message_id_is_a_stable_hash():
    raw = b"From: a@b.c\r\nTo: " + TO.encode() + b"\r\n\r\nsell sailor\r\n"
    one, two = parse_message(raw), parse_message(raw)
    assert one.message_id == two.message_id and one.message_id.startswith("sha256-")
    assert one.message_id != parse_message(raw + b"x").message_id
    assert one.message_id != parse_message(raw.replace(b"a@b.c", b"d@b.c")).message_id
    assert any("Message-ID" in p for p in one.problems)


def test_missing_message_id_hash_ignores_what_relays_add_on_the_way():
    """A second delivery of the same message has the same stand-in id: the trace headers a
    hop adds (Received, X-Original-To, Delivered-To, Return-Path) and its line ends do not
    count."""
    raw = (b"From: a@b.c\r\nTo: " + TO.encode() + b"\r\nSubject: Re: turn\r\n"
           b"Date: Thu, 26 Nov 2026 09:00:00 +0000\r\n\r\nsell sailor\r\n")
    relayed = (b"Return-Path: <a@b.c>\r\nDelivered-To: " + TO.encode() + b"\r\n"
               b"X-Original-To: " + TO.encode() + b"\r\nReceived: from mx2 by mx; "
               b"Thu, 26 Nov 2026 09:00:05 +0000\r\n" + raw)
    assert parse_message(raw).message_id == parse_message(relayed).message_id \
        == parse_message(raw.replace(b"\r\n", b"\n")).message_id


def test_message_id_without_brackets_is_kept():
    raw = b"Message-ID: bare-id@host\r\nFrom: a@b.c\r\n\r\nx"
    assert parse_message(raw).message_id == "bare-id@host"


def test_no_from():
    m = parse_message(f"To: {TO}\r\n\r\nsell sailor".encode())
    assert m.sender == "" and m.sender_name == ""
    assert "no From address" in m.problems
    assert m.command_lines == ["sell sailor"]


def test_recipients_from_every_delivery_header_in_order():
    raw = mail(
        "Cc: Bob <BOB@x.org>, play+cc1@turnpost.example\n"
        "Delivered-To: play+dt1@turnpost.example\nX-Original-To: play+xo1@turnpost.example\n"
        "Envelope-To: play+env1@turnpost.example\nX-Forwarded-To: play+fw1@turnpost.example\n"
        "Resent-To: play+rs1@turnpost.example\nDelivered-To: play+ABCD2345EFGH6789@TurnPost.Example\n",
        to="Turnpost <Play+ABCD2345efgh6789@turnpost.example>, carol@x.org",
    )
    m = parse_message(raw)
    assert m.recipients[:3] == [TO, "carol@x.org", "bob@x.org"]
    assert reply_tokens(m) == ["abcd2345efgh6789", "cc1", "dt1", "xo1", "env1", "fw1", "rs1"]
    assert reply_tokens(m, "TurnPost.example") == reply_tokens(m)
    assert reply_tokens(m, "other.example") == []


def test_lookalike_addresses_are_not_tokens():
    m = parse_message(mail(to="play@turnpost.example, xplay+abc@turnpost.example, play+@t.e"))
    assert reply_tokens(m) == []
    assert isinstance(rejection(m), NoGameAddress)


def test_encoded_words_with_bogus_charset_do_not_break_headers():
    m = parse_message(mail().replace(b"Subject: Re: turn", b"Subject: =?x-bogus?Q?caf=E9?= ok"))
    assert "ok" in m.subject


def test_raw_utf8_headers():
    raw = mail().replace(b"From: Alice", "From: Jürgen".encode())
    assert parse_message(raw).sender_name == "Jürgen"


# -- robots -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        "Auto-Submitted: auto-replied\n",
        "Auto-Submitted: auto-generated\n",
        "X-Autoreply: yes\n",
        "X-Autorespond: Vacation\n",
        "Precedence: bulk\n",
        "Precedence: junk\n",
        "Precedence: list\n",
        "Precedence: auto_reply\n",
        "List-Id: <games.lists.example.org>\n",
        "List-Unsubscribe: <mailto:leave@lists.example.org>\n",
        "Return-Path: <>\n",
        "X-Auto-Response-Suppress: All\n",
        "X-Auto-Response-Suppress: DR, OOF, AutoReply\n",
    ],
)
def test_automated_headers(headers):
    m = parse_message(mail(headers))
    assert m.automated
    rej = rejection(m)
    assert isinstance(rej, Automated) and rej.reply is False and m.automated in rej.explain()


@pytest.mark.parametrize(
    "subject",
    [
        "Out of Office: Re: turn",
        "Automatic reply: turn",
        "Abwesenheitsnotiz: Re: turn",
        "Réponse automatique : turn",
        "AutoReply: turn",
    ],
)
def test_automated_subjects(subject):
    raw = mail().replace(b"Subject: Re: turn", b"Subject: " + subject.encode())
    assert parse_message(raw).automated


@pytest.mark.parametrize("sender", ["MAILER-DAEMON@mx.example.org", "postmaster@example.org"])
def test_automated_senders(sender):
    assert parse_message(mail().replace(b"Alice <Alice@Example.org>", sender.encode())).automated


@pytest.mark.parametrize(
    "headers",
    ["Auto-Submitted: no\n", "Precedence: normal\n", "X-Auto-Response-Suppress: DR\n", ""],
)
def test_human_mail_is_not_automated(headers):
    assert parse_message(mail(headers)).automated is None


def test_out_of_office_subject_in_the_middle_is_human():
    raw = mail().replace(b"Subject: Re: turn", b"Subject: Re: my out of office plans")
    assert parse_message(raw).automated is None


# -- bodies -----------------------------------------------------------------------------------


def test_html_only_body_is_converted():
    raw = mail(
        "Content-Type: text/html; charset=utf-8\n",
        "<style>p{color:red}</style><p>sell&nbsp;sailor</p><div>play the Sea<br>pass</div>",
    )
    m = parse_message(raw)
    assert m.command_lines == ["sell sailor", "play the Sea", "pass"]
    assert "color" not in m.body_text


def test_blank_plain_part_falls_back_to_html():
    body = (
        "--b\nContent-Type: text/plain\n\n \n--b\nContent-Type: text/html\n\n"
        "<div>sell sailor</div>\n--b--\n"
    )
    m = parse_message(mail('Content-Type: multipart/alternative; boundary="b"\n', body))
    assert m.command_lines == ["sell sailor"]


def test_text_after_an_inline_image_is_kept():
    body = (
        "--b\nContent-Type: text/plain\n\nsell sailor\n--b\nContent-Type: image/gif\n"
        "Content-Transfer-Encoding: base64\n\nR0lGODlhAQABAAAAACw=\n--b\n"
        "Content-Type: text/plain\n\nsell wyrm\n--b--\n"
    )
    m = parse_message(mail('Content-Type: multipart/mixed; boundary="b"\n', body))
    assert m.command_lines == ["sell sailor", "sell wyrm"]
    assert any("image/gif" in p for p in m.problems)


def test_attached_text_file_and_forwarded_mail_are_ignored():
    body = (
        "--b\nContent-Type: text/plain\n\nsell sailor\n--b\nContent-Type: text/plain\n"
        'Content-Disposition: attachment; filename="notes.txt"\n\nsell everything\n--b\n'
        "Content-Type: message/rfc822\n\nFrom: x@y\n\nsell wyrm\n--b--\n"
    )
    m = parse_message(mail('Content-Type: multipart/mixed; boundary="b"\n', body))
    assert m.command_lines == ["sell sailor"]


def test_only_an_attachment_is_unreadable():
    body = "--b\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\niVBORw0K\n--b--\n"
    m = parse_message(mail('Content-Type: multipart/mixed; boundary="b"\n', body))
    assert not m.readable and isinstance(rejection(m), Unreadable)


def test_binary_garbage_is_unreadable():
    raw = mail("Content-Type: text/plain; charset=utf-8\n", "") + bytes(range(1, 9)) * 200
    m = parse_message(raw)
    assert not m.readable and isinstance(rejection(m), Unreadable)


@pytest.mark.parametrize("charset", ["x-unknown", "zlib", "base64", "", "utf-8"])
def test_charsets_fall_back(charset):
    raw = mail(f'Content-Type: text/plain; charset="{charset}"\n', "sell süßes\n")
    assert parse_message(raw).command_lines == ["sell süßes"]


def test_latin1_bytes_labelled_utf8_are_recovered():
    raw = mail("Content-Type: text/plain; charset=utf-8\n", "") + "sell café\r\n".encode("latin-1")
    m = parse_message(raw)
    assert m.command_lines == ["sell café"] and m.problems


@pytest.mark.parametrize("label", ["iso-8859-1", "ISO-8859-1", "latin1"])
def test_windows_1252_labelled_iso_8859_1_reads_as_written(label):
    """Outlook's curly quotes and dashes in a part labelled ISO-8859-1 are Windows-1252's
    (WHATWG Encoding reads the label so), not C1 control characters; Latin-1's own letters
    are the same in both, and the five bytes Windows-1252 lacks still decode as Latin-1."""
    raw = mail(f"Content-Type: text/plain; charset={label}\n", "")
    m = parse_message(raw + "say That\u2019s a \u201cgreat\u201d move \u2013 café\r\n"
                      .encode("cp1252"))
    assert m.command_lines == ["say That\u2019s a \u201cgreat\u201d move \u2013 café"]
    assert not m.problems
    odd = parse_message(raw + b"say caf\xe9 \x81\r\n")
    assert odd.command_lines == ["say café \x81"]


def test_huge_message_is_capped_and_fast():
    body = "sell sailor\n" + ("# filler line to make the message big\n" * 200_000)
    m = parse_message(mail("", body))
    assert m.command_lines == ["sell sailor"]
    assert len(m.body_text) <= parse.MAX_TEXT_CHARS
    assert any("truncated" in p for p in m.problems)


def test_huge_attachment_beyond_the_raw_cap():
    attachment = "QUFB" * (parse.MAX_RAW_BYTES // 3)
    body = (
        "--b\nContent-Type: text/plain\n\nsell sailor\n--b\nContent-Type: application/zip\n"
        f"Content-Transfer-Encoding: base64\n\n{attachment}\n--b--\n"
    )
    m = parse_message(mail('Content-Type: multipart/mixed; boundary="b"\n', body))
    assert m.command_lines == ["sell sailor"]
    assert any("truncated" in p for p in m.problems)


def test_unflow():
    assert unflow("one \ntwo\n> a \n> b\n-- \nsig", False) == "one two\n> a b\n-- \nsig"
    assert unflow("long wo \nrd", True) == "long word"
    assert unflow(" From me\n>>deep", False) == "From me\n>> deep"


# -- HTML -------------------------------------------------------------------------------------


def test_html_to_text_structure():
    html = (
        "<html><head><title>T</title><style>.x{}</style></head><body>"
        "<div>one</div><p>two&amp;three</p><ul><li>four</li><li>five</li></ul>"
        "<script>alert(1)</script>six<br>seven"
        "<blockquote><div>quoted</div><blockquote>deeper</blockquote></blockquote>"
        "after<hr>rule<pre>a  b\nc</pre></body></html>"
    )
    text = html_to_text(html)
    assert text.split("\n") == [
        "one",
        "two&three",
        "",
        "four",
        "five",
        "six",
        "seven",
        "> quoted",
        "> > deeper",
        "after",
        "_" * 32,
        "rule",
        "a  b",
        "c",
    ]


def test_html_to_text_survives_broken_markup():
    assert html_to_text("<div>sell <b>sailor</div><p unclosed='>'>x") == "sell sailor\nx"
    assert html_to_text("<style>never closed") == ""


# -- rejections -------------------------------------------------------------------------------


def test_rejection_order_and_explanations():
    assert isinstance(rejection(parse_message(mail(body="> quoted only\n"))), NoCommands)
    no_addr = parse_message(mail(to="someone@else.example", body="sell sailor"))
    assert isinstance(rejection(no_addr), NoGameAddress)
    robot = parse_message(mail("Auto-Submitted: auto-replied\n", "", to="x@y.z"))
    assert isinstance(rejection(robot), Automated)  # robots first: never answered
    for rej in (NoCommands(), NoGameAddress(), Unreadable(), Automated("bounce")):
        assert isinstance(rej, Rejection) and len(rej.explain()) > 40
        assert rej.code and str(rej) == rej.explain()
        assert rej.reply is not isinstance(rej, Automated)


# -- never raises -----------------------------------------------------------------------------


@pytest.mark.deep
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2000))
def test_never_raises_on_random_bytes(raw):
    assert isinstance(parse_message(raw), parse.InboundMail)


def _fixture_bytes():
    return [p.read_bytes() for p in sorted(FIXTURES.glob("*.eml"))]


@pytest.mark.deep
@settings(max_examples=examples(300), deadline=None)
@given(st.data())
def test_never_raises_on_mutated_fixtures(data):
    raw = bytearray(data.draw(st.sampled_from(_fixture_bytes())))
    for _ in range(data.draw(st.integers(1, 8))):
        op = data.draw(st.sampled_from(["flip", "cut", "dup", "insert"]))
        pos = data.draw(st.integers(0, max(0, len(raw) - 1)))
        if op == "flip" and raw:
            raw[pos] = data.draw(st.integers(0, 255))
        elif op == "cut":
            del raw[pos : pos + data.draw(st.integers(1, 400))]
        elif op == "dup":
            raw[pos:pos] = raw[pos : pos + data.draw(st.integers(1, 400))]
        else:
            raw[pos:pos] = data.draw(
                st.sampled_from([b"--", b"\r\n\r\n", b"=?", b"boundary=", b"<", b";charset=x"])
            )
    m = parse_message(bytes(raw))
    assert isinstance(m.command_lines, list)
    assert all(not re.match(r"\s*>", line) for line in m.command_lines)


def test_a_header_with_raw_bytes_beside_decoded_characters_is_read():
    """Found by the test above: a NUL in the German client's email leaves its From header
    with a real "ü" beside undecodable raw bytes."""
    raw = bytearray((FIXTURES / "german_client.eml").read_bytes())
    raw[459] = 0
    m = parse_message(bytes(raw))
    assert m.command_lines == ["sell sailor"]


def test_thousands_of_parts_are_cut_short():
    part = b"--a\r\nContent-Type: text/plain\r\n\r\nsell sailor\r\n"
    raw = b"Content-Type: multipart/mixed; boundary=a\r\n\r\n" + part * 5000 + b"--a--\r\n"
    m = parse_message(raw)
    assert m.command_lines[0] == "sell sailor"
    assert len(m.command_lines) < 300
    assert any("MIME parts" in p for p in m.problems)


def test_deep_nesting_is_survived():
    level = b"--a\r\nContent-Type: multipart/mixed; boundary=a\r\n\r\n"
    raw = b"Content-Type: multipart/mixed; boundary=a\r\n\r\n" + level * 1000 + b"sell\r\n"
    assert isinstance(parse_message(raw), parse.InboundMail)


def test_mbox_from_line_and_header_junk_are_dropped():
    raw = b"From alice@example.org Sun Nov 22 15:00:00 2026\r\n" + mail("garbage line\n")
    m = parse_message(raw)
    assert m.sender == "alice@example.org" and m.command_lines == ["sell sailor"]
    assert any("malformed header" in p for p in m.problems)


def test_body_without_headers_or_separator_is_still_read():
    assert parse_message(b"sell sailor\r\nplay the Sea").command_lines == [
        "sell sailor",
        "play the Sea",
    ]
    m = parse_message(b"From: a@b.c\r\nsell sailor\r\n")
    assert m.sender == "a@b.c" and m.command_lines == ["sell sailor"]
