"""SMTP PIPELINING (RFC 2920, mailwire.outbound.pipelining): to a relay that offers it, a message's
MAIL FROM, RCPT TO and DATA go in one write and its data in a second, two round trips instead
of smtplib's four; the relay receives the same bytes either way; each refusal means what it
means without pipelining, and the line stays usable (or is dropped) as it would. A message
may be handed over before the relay answers its data (`hand_over`): the answer is read before
the line carries anything else, and means for that message what it would have meant at once."""
from __future__ import annotations

import email.generator
import io
import re
import socketserver
import threading
from contextlib import contextmanager
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller
from hypothesis import given, settings
from hypothesis import strategies as st

from service.mailwire.outbound.pipelining import flatten
from service.mailwire.outbound.transports import SendFailed, SendRefused, SMTPTransport
from service.play.mail.relay import render
from service.store.models import OutboxRow
from tests.mail.test_relay import free_port
from tests.mail.test_relay_fanout import Holding, Sink, queued, relay_at


class Relay(Sink):
    """The fan-out tests' relay (PIPELINING offered or not, connections counted), answering
    MAIL and the data as told."""

    def __init__(self, pipelining: bool = True):
        super().__init__(pipelining)
        self.mail_answer = self.data_answer = None

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        if self.mail_answer:
            return self.mail_answer
        envelope.mail_from, envelope.mail_options = address, list(mail_options)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.data_answer:
            answer, self.data_answer = self.data_answer, None
            return answer
        self.messages.append(envelope)
        return f"250 2.0.0 Ok: queued as Q{len(self.messages):04d}"


@contextmanager
def relay(pipelining: bool = True):
    handler = Relay(pipelining)
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    transport = SMTPTransport("127.0.0.1", controller.port)
    try:
        yield transport, handler
    finally:
        transport.close()
        controller.stop()


def message(n: int = 1, body: str = "Your move.\n") -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "Turnpost <turns@turnpost.test>"
    msg["To"] = f"player{n}@example.org"
    msg["Subject"] = f"Game #{n}"
    msg["Message-ID"] = f"<m{n}@turnpost.test>"
    msg["Return-Path"] = f"<bounce+m{n}@turnpost.test>"
    msg.set_content(body)
    return msg


def test_a_message_goes_in_two_writes_to_a_relay_that_offers_pipelining(writes):
    with relay() as (transport, handler):
        transport.send(message(1))
        writes.clear()                                  # the greeting and EHLO aside
        assert transport.send(message(2)) == "2.0.0 Ok: queued as Q0002"
        assert len(writes) == 2
        commands = writes[0].decode().split("\r\n")
        size = re.fullmatch(r"MAIL FROM:<bounce\+m2@turnpost\.test> SIZE=(\d+) BODY=8BITMIME",
                            commands[0])
        assert size and commands[1:] == ["RCPT TO:<player2@example.org>", "DATA", ""]
        assert writes[1].endswith(b"\r\n.\r\n")
        assert handler.connections == 1
        assert handler.messages[1].mail_from == "bounce+m2@turnpost.test"
        assert handler.messages[1].rcpt_tos == ["player2@example.org"]
        assert int(size[1]) == len(handler.messages[1].content)


def test_without_the_offer_each_command_waits_for_its_answer(writes):
    with relay(pipelining=False) as (transport, _):
        transport.send(message(1))
        writes.clear()
        transport.send(message(2))
        assert [w.split()[0] for w in writes] == [b"mail", b"rcpt", b"data", b"From:"]


def test_the_relay_receives_the_same_bytes_pipelined_or_not():
    """A line that starts with a dot keeps it (the dot is doubled on the wire, RFC 5321
    4.5.2), a line that starts "From " is not escaped as ">From " (that is for mbox files:
    smtplib's send_message did it, and a player's chat line reached the table so), and a body
    without a final line break is still ended properly."""
    body = ("Round 2.\n.hidden line starting with a dot\n..two dots\nFrom now on I bid low\n"
            "no final break")
    got = []
    for pipelining in (True, False):
        with relay(pipelining) as (transport, handler):
            transport.send(message(7, body))
            got.append(handler.messages[0].content)
    assert got[0] == got[1]
    assert b"\r\n.hidden line" in got[0] and b"\r\n..two dots" in got[0]
    assert b"\r\nFrom now on I bid low\r\n" in got[0] and b">From" not in got[0]


def test_a_sender_refused_for_now_may_pass_later_and_the_line_goes_on():
    with relay() as (transport, handler):
        handler.mail_answer = "451 4.3.0 try again later"
        with pytest.raises(SendFailed, match="451") as refused:
            transport.send(message(1))
        assert not isinstance(refused.value, SendRefused)
        handler.mail_answer = None
        transport.send(message(2))
        assert handler.connections == 1 and len(handler.messages) == 1


@pytest.mark.parametrize("answer, kind", [("554 5.7.1 message content rejected", SendRefused),
                                          ("452 4.3.1 insufficient storage", SendFailed)])
def test_data_refused_after_it_went_over_is_that_messages_alone(answer, kind):
    with relay() as (transport, handler):
        handler.data_answer = answer
        with pytest.raises(kind, match=answer[:3]) as refused:
            transport.send(message(1))
        assert isinstance(refused.value, SendRefused) == (kind is SendRefused)
        transport.send(message(2))                      # reset, then the same line
        assert handler.connections == 1
        assert [m.rcpt_tos for m in handler.messages] == [["player2@example.org"]]


def test_a_421_to_the_data_drops_the_line_and_the_next_message_opens_a_new_one():
    with relay() as (transport, handler):
        handler.data_answer = "421 4.3.2 shutting down"
        with pytest.raises(SendFailed, match="421"):
            transport.send(message(1))
        transport.send(message(2))
        assert handler.connections == 2 and len(handler.messages) == 1


class Scripted(socketserver.StreamRequestHandler):
    """A relay that offers PIPELINING yet answers 354 to DATA after refusing every recipient
    (RFC 2920 says it must not): the client ends the empty message and resets the line."""

    heard: list[str] = []

    def handle(self):
        self.wfile.write(b"220 scripted ESMTP\r\n")
        answers = {"EHLO": b"250-scripted\r\n250-PIPELINING\r\n250 8BITMIME\r\n",
                   "MAIL": b"250 OK\r\n", "RCPT": b"550 5.1.1 no such user\r\n",
                   "DATA": b"354 go ahead\r\n", ".": b"554 5.5.1 no valid recipients\r\n",
                   "RSET": b"250 OK\r\n", "QUIT": b"221 Bye\r\n"}
        for raw in self.rfile:
            line = raw.decode().rstrip("\r\n")
            verb = line.split(" ")[0].split(":")[0].upper()
            self.heard.append(verb)
            self.wfile.write(answers.get(verb, b"500 what\r\n"))
            if verb == "QUIT":
                return


def test_a_relay_that_takes_data_for_no_recipient_gets_an_empty_message_and_a_reset():
    Scripted.heard = []
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Scripted)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    transport = SMTPTransport("127.0.0.1", server.server_address[1])
    try:
        with pytest.raises(SendRefused, match="550"):
            transport.send(message(1))
        transport.close()
    finally:
        server.shutdown()
        server.server_close()
    assert Scripted.heard == ["EHLO", "MAIL", "RCPT", "DATA", ".", "RSET", "QUIT"]


def test_an_address_beyond_ascii_goes_smtplibs_own_way_with_smtputf8():
    """smtplib knows SMTPUTF8 (RFC 6531); the pipelined path leaves such a message to it."""
    handler = Relay()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port(),
                            enable_SMTPUTF8=True)
    controller.start()
    transport = SMTPTransport("127.0.0.1", controller.port)
    msg = message(1, "From Paris with love\n")
    msg.replace_header("To", "josé@example.org")
    try:
        transport.send(msg)
    finally:
        transport.close()
        controller.stop()
    assert handler.messages[0].rcpt_tos == ["josé@example.org"]
    assert "SMTPUTF8" in handler.messages[0].mail_options
    assert b"\r\nFrom Paris with love" in handler.messages[0].content       # not ">From"


# -- the answer to the data read later (SMTPTransport.hand_over) ---------------------------------

def test_a_message_is_handed_over_before_the_relay_has_answered_its_data():
    """The sender may compose its next message meanwhile: the relay here answers only once the
    sender has gone on (else 451), and the answer is that message's own."""
    handler = Holding()
    with relay_at(handler) as controller:
        transport = SMTPTransport("127.0.0.1", controller.port)
        try:
            first = transport.hand_over(message(1))
            assert not first.done
            handler.go.set()                            # "the next message is composed"
            assert first.answer() == "2.0.0 Ok: queued as Q0001"
            second = transport.hand_over(message(2))
            assert second.answer() == "2.0.0 Ok: queued as Q0002"
        finally:
            transport.close()
    assert handler.connections == 1


def test_an_owed_answer_is_read_before_the_line_carries_the_next_message():
    with relay() as (transport, handler):
        first = transport.hand_over(message(1))
        second = transport.hand_over(message(2))
        assert first.done and not second.done           # read on the way, not waited for
        assert (first.answer(), second.answer()) == ("2.0.0 Ok: queued as Q0001",
                                                     "2.0.0 Ok: queued as Q0002")


@pytest.mark.parametrize("answer, kind", [("554 5.7.1 message content rejected", SendRefused),
                                          ("452 4.3.1 insufficient storage", SendFailed)])
def test_a_refusal_read_late_is_the_refused_messages_alone(answer, kind):
    with relay() as (transport, handler):
        handler.data_answer = answer
        first = transport.hand_over(message(1))
        second = transport.hand_over(message(2))        # after a reset, on the same line
        with pytest.raises(kind, match=answer[:3]) as refused:
            first.answer()
        assert isinstance(refused.value, SendRefused) == (kind is SendRefused)
        assert second.answer() == "2.0.0 Ok: queued as Q0001"
        assert handler.connections == 1
        assert [m.rcpt_tos for m in handler.messages] == [["player2@example.org"]]


def test_closing_the_line_reads_the_owed_answer_first():
    """A worker stopping right after a message still learns whether the relay took it."""
    with relay() as (transport, handler):
        handed = transport.hand_over(message(1))
        transport.close()
        assert handed.answer() == "2.0.0 Ok: queued as Q0001"
        assert handler.quits == 1


def test_a_line_that_drops_before_the_answer_fails_that_message_for_a_later_try():
    handler = Sink(pipelining=True)
    handler.hang_up_in_data = {1}
    with relay_at(handler) as controller:
        transport = SMTPTransport("127.0.0.1", controller.port)
        try:
            lost = transport.hand_over(message(1))
            with pytest.raises(SendFailed) as failed:
                lost.answer()
            assert not isinstance(failed.value, SendRefused)
            assert transport.send(message(2)) == "2.0.0 Ok: queued as Q0001"
        finally:
            transport.close()
    assert handler.connections == 2


def stdlib_bytes(msg: EmailMessage) -> bytes:
    flat = io.BytesIO()
    email.generator.BytesGenerator(flat, mangle_from_=False).flatten(msg, linesep="\r\n")
    return flat.getvalue()


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(["Your move.", "", "é ♣ 🐉", ".dot", "\r\n", "\r", "\n",
                                  "From here", " " * 3, "x" * 90]), max_size=40),
       st.booleans())
def test_a_message_is_flattened_to_the_stdlibs_own_bytes(pieces, html):
    """flatten writes a part's text in one go: the bytes are the stdlib
    BytesGenerator's, whatever the line ends (CRLF, CR, LF, none at the end), characters and
    parts."""
    body = "".join(pieces)
    msg = message(3, body or "\n")
    if html:
        msg.add_alternative(f"<p>{body}</p>", subtype="html")
    assert flatten(msg) == stdlib_bytes(msg)


def test_a_turn_email_is_flattened_to_the_stdlibs_own_bytes(services):
    """The real thing: a turn email with its text, HTML and picture."""
    row_id = queued(services, 1)[0]
    with services.db.transaction() as s:
        msg = render(s, services, s.get(OutboxRow, row_id))
    assert msg.is_multipart()
    assert flatten(msg) == stdlib_bytes(msg)
