"""The relay over TLS, as production reaches it: STARTTLS (TURNPOST_SMTP_SECURITY=starttls)
and TLS from the first byte (ssl), each to a relay that offers PIPELINING and to one that does
not. The message arrives over the encrypted line, the commands still go together after TLS's
second EHLO, and a relay whose certificate the client does not trust is an unreachable relay:
nothing is sent to it. The relay's certificate is a self-signed one for 127.0.0.1 made for
these tests (fixtures/tls, valid until 2126)."""
from __future__ import annotations

import ssl
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

import pytest
from aiosmtpd.controller import Controller

from service.mailwire.outbound import transports
from service.mailwire.outbound.transports import RelayUnreachable, SMTPTransport
from tests.mail.test_pipelining import message
from tests.mail.test_relay import free_port
from tests.mail.test_relay_fanout import Sink

TLS = Path(__file__).parent / "fixtures" / "tls"
CERT, KEY = TLS / "relay-cert.pem", TLS / "relay-key.pem"


def relay_context() -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(CERT, KEY)
    return context


@contextmanager
def tls_relay(security: str, pipelining: bool):
    handler = Sink(pipelining=pipelining)
    tls = ({"tls_context": relay_context(), "require_starttls": True} if security == "starttls"
           else {"ssl_context": relay_context()})
    controller = Controller(handler, hostname="127.0.0.1", port=free_port(), **tls)
    controller.start()
    try:
        yield controller.port, handler
    finally:
        controller.stop()


@pytest.fixture
def trusting(monkeypatch):
    """The client trusts the test relay's certificate (the transport builds its context with
    ssl.create_default_context(), which verifies the relay against the system's CAs)."""
    trusted = SimpleNamespace(create_default_context=lambda: ssl.create_default_context(
        cafile=str(CERT)))
    monkeypatch.setattr(transports, "ssl", trusted)     # the transport's, no one else's


@pytest.mark.parametrize("pipelining", [False, True], ids=["one command at a time", "pipelined"])
@pytest.mark.parametrize("security", ["starttls", "ssl"])
def test_mail_goes_over_tls_and_pipelines_after_it(security, pipelining, trusting, writes):
    with tls_relay(security, pipelining) as (port, handler):
        transport = SMTPTransport("127.0.0.1", port, security=security)
        try:
            transport.send(message(1))
            writes.clear()
            assert transport.send(message(2)) == "2.0.0 Ok: queued as Q0002"
            assert len(writes) == (2 if pipelining else 4)
        finally:
            transport.close()
        assert [m.rcpt_tos for m in handler.messages] == [["player1@example.org"],
                                                          ["player2@example.org"]]
        # one connection: STARTTLS says EHLO again over the encrypted line
        assert handler.connections == (2 if security == "starttls" else 1)


@pytest.mark.parametrize("security", ["starttls", "ssl"])
def test_a_relay_with_a_certificate_not_trusted_is_unreachable_and_gets_nothing(security):
    with tls_relay(security, pipelining=True) as (port, handler):
        transport = SMTPTransport("127.0.0.1", port, security=security)
        with pytest.raises(RelayUnreachable, match="CERTIFICATE_VERIFY_FAILED"):
            transport.send(message(1))
        transport.close()
        assert handler.messages == []
