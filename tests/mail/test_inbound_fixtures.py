"""Every hand-written client fixture parses to the expected sender, robot verdict, reply
token and command lines (tests/mail/fixtures/expected.json)."""

import json
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest

from service.mailwire.inbound.html import html_to_text
from service.mailwire.inbound.parse import parse_message, rejection, reply_tokens
from service.mailwire.inbound.quotes import command_lines, extract_command_text

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))
OUR_MESSAGE_ID = "game-42.seq-7.seat-1@turnpost.example"


def test_every_fixture_has_expectations():
    on_disk = {p.name for p in FIXTURES.glob("*.eml")}
    assert on_disk == set(EXPECTED)
    assert len(on_disk) >= 22


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture(name):
    raw = (FIXTURES / name).read_bytes()
    want = EXPECTED[name]
    mail = parse_message(raw)
    assert mail.sender == want["sender"]
    assert bool(mail.automated) == bool(want["automated"]), mail.automated
    assert reply_tokens(mail) == want["reply_tokens"]
    assert reply_tokens(mail, "turnpost.example") == want["reply_tokens"]
    assert reply_tokens(mail, "elsewhere.example") == []
    assert mail.command_lines == want["command_lines"]
    assert mail.message_id and "<" not in mail.message_id
    if not want["automated"]:
        # Every human reply answers our turn email and is actionable as it stands.
        assert OUR_MESSAGE_ID in mail.in_reply_to + mail.references
        assert rejection(mail, "turnpost.example") is None
    else:
        assert rejection(mail).reply is False


def _html_alternatives(raw: bytes) -> list[str]:
    msg = BytesParser(policy=policy.default).parsebytes(raw)
    out = []
    for part in msg.walk():
        if part.get_content_type() == "text/html":
            out.append(part.get_content())
    return out


WITH_HTML = sorted(
    n
    for n in EXPECTED
    if not EXPECTED[n]["automated"]
    and n != "malformed_boundary.eml"  # its HTML part is a stub, not a full reply
    and _html_alternatives((FIXTURES / n).read_bytes())
)


def test_several_fixtures_have_html():
    assert len(WITH_HTML) >= 6


@pytest.mark.parametrize("name", WITH_HTML)
def test_html_alternative_gives_same_commands(name):
    """The HTML part of a reply, on its own, yields the same commands as the chosen part:
    the quote stripper works on rendered HTML too (blockquotes, Outlook header blocks)."""
    text = html_to_text(_html_alternatives((FIXTURES / name).read_bytes())[0])
    assert command_lines(extract_command_text(text)) == EXPECTED[name]["command_lines"]


def test_problems_are_reported_for_the_broken_fixtures():
    def problems(name):
        return " | ".join(parse_message((FIXTURES / name).read_bytes()).problems)

    assert "x-unknown" in problems("unknown_charset.eml")
    assert "boundary" in problems("malformed_boundary.eml")
    assert "malformed header" in problems("truncated_mime.eml")
    assert "image/png" in problems("attachment_image.eml")
    assert problems("gmail_web.eml") == ""


def test_decoded_names_and_subjects():
    mail = parse_message((FIXTURES / "iso_8859_1.eml").read_bytes())
    assert mail.sender_name == "Renée Lefèvre"
    assert mail.subject.endswith("à moi")
    mail = parse_message((FIXTURES / "outlook_desktop.eml").read_bytes())
    assert mail.sender_name == "Bernd Müller"
    assert "I’m away" in mail.body_text  # Windows-1252 curly quote decoded


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_fixture_reads_as_policy_default_reads_it(name):
    """Incoming mail is read with policy.default's rules and a header factory that parses a
    (name, value) once (service.mailwire.parsedheaders): every header, every part's type and
    text the same as the stock policy's, and the second message with the same Content-Type
    shares its parsed header rather than parsing it again."""
    from service.mailwire.inbound.body import READING
    raw = (FIXTURES / name).read_bytes()
    ours = BytesParser(policy=READING).parsebytes(raw)
    stock = BytesParser(policy=policy.default).parsebytes(raw)
    for a, b in zip(ours.walk(), stock.walk(), strict=True):
        assert [(k, str(v)) for k, v in a.items()] == [(k, str(v)) for k, v in b.items()]
        assert a.get_content_type() == b.get_content_type()
        assert [type(d) for d in a.defects] == [type(d) for d in b.defects]
        if not a.is_multipart():
            assert a.get_payload(decode=True) == b.get_payload(decode=True)
    assert parse_message(raw) == parse_message(raw)
    again = BytesParser(policy=READING).parsebytes(raw)
    if ours["Content-Type"] is not None:
        assert again["Content-Type"] is ours["Content-Type"]
