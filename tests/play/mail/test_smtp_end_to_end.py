"""The whole reply path over real SMTP: a player's reply goes into the running SMTP receiver,
is stored, processed, the move is applied, and the next turn emails go out."""
from __future__ import annotations

import smtplib
import socket

import pytest
from aiosmtpd.controller import Controller

from service.mailwire.inbound.smtp_receiver import server_options
from service.web.cli_inbound import handler
from tests.play.mail.test_replies import ADDRS, events, mover, reply_to, start
from tests.web.helpers import latest_to, mails, move_links, text_of


@pytest.fixture
def receiver(app):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    controller = Controller(handler(app.extensions["turnpost"]), hostname="127.0.0.1", port=port,
                            **server_options(app.config["TURNPOST_INBOUND_MAX_BYTES"]))
    controller.start()
    yield controller
    controller.stop()


def test_a_reply_through_the_smtp_receiver_moves_and_mails_the_next_turn(client, app, receiver):
    start(client)
    addr, ours = mover(app)
    other = next(a for a in ADDRS if a != addr)
    before_events, before_mails = events(app), len(mails(app))
    raw = reply_to(ours, move_links(ours)[0][0], wire=True)
    to = ours["Reply-To"].addresses[0].addr_spec
    with smtplib.SMTP("127.0.0.1", receiver.port, timeout=30) as smtp:
        assert smtp.sendmail(addr, [to], raw) == {}
    assert events(app) > before_events, "the move was applied"
    assert len(mails(app)) > before_mails, "the next emails were sent"
    news = text_of(latest_to(app, other))
    assert "YOUR TURN" in news or "GAME OVER" in news


def test_a_reply_to_our_from_address_is_taken_and_moves(client, app, receiver):
    """Some clients reply to From, not Reply-To: the receiver takes mail for our From address
    (it answered 550 "no such mailbox", and the player's move bounced), and processing acts
    on it because it answers one of our emails (its In-Reply-To)."""
    start(client)
    addr, ours = mover(app)
    before = events(app)
    to = ours["From"].addresses[0].addr_spec
    raw = reply_to(ours, move_links(ours)[0][0], wire=True).replace(ours["Reply-To"].encode(), to.encode())
    with smtplib.SMTP("127.0.0.1", receiver.port, timeout=30) as smtp:
        assert smtp.sendmail(addr, [to], raw) == {}
    assert events(app) > before


def test_mail_for_any_other_address_of_the_domain_is_refused_at_rcpt(app, receiver):
    with smtplib.SMTP("127.0.0.1", receiver.port, timeout=30) as smtp:
        smtp.ehlo()
        smtp.mail("someone@example.org")
        code, _ = smtp.rcpt("postmaster@turnpost.test")
        assert code == 550
        code, _ = smtp.rcpt("turnpost@elsewhere.example")
        assert code == 550
