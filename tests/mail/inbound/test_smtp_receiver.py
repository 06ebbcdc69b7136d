"""The SMTP receiver, over real SMTP: it takes play+ mail for our domain only, stores each
message once however often it is sent, refuses oversize mail, and asks for a retry (451)
rather than lose a message it could not store."""
from __future__ import annotations

import smtplib
import socket

import pytest
from aiosmtpd.controller import Controller

from service import play
from service.mailwire.inbound.smtp_receiver import server_options
from service.web.cli_inbound import handler
from tests.mail.inbound.conftest import DOMAIN, REPLY_TO, message, stored


def free_port() -> int:
    # aiosmtpd's Controller cannot report a port=0 choice back: pick one ourselves
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def receiver(app_factory):
    app = app_factory(TURNPOST_INBOUND_MAX_BYTES=64 * 1024)
    controller = Controller(handler(app.extensions["turnpost"]), hostname="127.0.0.1", port=free_port(),
                            **server_options(app.config["TURNPOST_INBOUND_MAX_BYTES"]))
    controller.start()
    yield app, controller
    controller.stop()


def send(controller, raw: bytes, to: str = REPLY_TO):
    with smtplib.SMTP("127.0.0.1", controller.port, timeout=10) as smtp:
        return smtp.sendmail("anna@example.org", [to], raw)


def test_a_reply_is_stored_once_even_when_sent_twice(receiver, kicked):
    app, controller = receiver
    raw = message("<twice@example.org>")
    assert send(controller, raw) == {}           # {} = every recipient accepted
    assert send(controller, raw) == {}           # a duplicate is acknowledged too
    rows = stored(app)
    assert [(r.message_id, r.via) for r in rows] == [("twice@example.org", "smtp")]
    assert rows[0].raw.endswith(raw)
    assert f"X-Original-To: {REPLY_TO}".encode() in rows[0].raw
    assert kicked == [rows[0].id]                # processed once, not twice


def test_recipient_domain_and_mailbox_are_case_insensitive(receiver, kicked):
    app, controller = receiver
    send(controller, message("<upper@example.org>"), to=f"PLAY+abc234xyz@{DOMAIN.upper()}")
    assert [r.message_id for r in stored(app)] == ["upper@example.org"]


@pytest.mark.parametrize("to", ["anna@turnpost.test", "play+abc@elsewhere.org",
                                "play@turnpost.test", "play+abc@turnpost.test.evil.org"])
def test_other_recipients_are_refused(receiver, kicked, to):
    app, controller = receiver
    with pytest.raises(smtplib.SMTPRecipientsRefused) as err:
        send(controller, message(), to=to)
    code, text = err.value.recipients[to]
    assert code == 550 and b"no such mailbox" in text
    assert stored(app) == [] and kicked == []


def test_oversize_mail_is_refused(receiver, kicked):
    app, controller = receiver
    raw = message(size=100 * 1024)
    # smtplib announces SIZE=, so the refusal comes at MAIL FROM; without it, after DATA
    with pytest.raises((smtplib.SMTPSenderRefused, smtplib.SMTPDataError)) as err:
        send(controller, raw)
    assert err.value.smtp_code == 552
    with smtplib.SMTP("127.0.0.1", controller.port, timeout=10) as smtp:
        smtp.helo("old-mta.example.org")         # HELO: no SIZE extension, the limit still holds
        with pytest.raises(smtplib.SMTPDataError) as err:
            smtp.sendmail("anna@example.org", [REPLY_TO], raw)
        assert err.value.smtp_code == 552
    assert stored(app) == []


def test_a_storage_failure_asks_the_sender_to_retry(receiver, kicked, monkeypatch):
    app, controller = receiver
    real_accept, down = play.accept_mail, [True]

    def accept_mail(svc, raw, via):
        if down[0]:
            raise ConnectionError("database is down")
        return real_accept(svc, raw, via)

    monkeypatch.setattr(play, "accept_mail", accept_mail)
    with pytest.raises(smtplib.SMTPDataError) as err:
        send(controller, message("<later@example.org>"))
    assert err.value.smtp_code == 451
    assert stored(app) == []
    down[0] = False                              # the database is back; the MTA retries
    send(controller, message("<later@example.org>"))
    assert [r.message_id for r in stored(app)] == ["later@example.org"]


def test_the_flask_cli_has_the_receiver_command(app):
    from service.web import cli_inbound
    if "inbound-smtp" not in app.cli.commands:   # until create_app calls init_app
        cli_inbound.init_app(app)
    result = app.test_cli_runner().invoke(args=["inbound-smtp", "--help"])
    assert result.exit_code == 0 and "--port" in result.output
