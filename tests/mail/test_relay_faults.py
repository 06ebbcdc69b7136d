"""Faults without loss or doubles (issue 17, point 5): a permanent refusal of an address is
parked at once (muting nobody on one day's evidence: test_relay_refusals), a relay that answers again gets everything waiting within one sweep,
a slow send keeps its claim, a database blip after a send does not send it twice, and an
outage is one log line each way, not a traceback per attempt."""
from __future__ import annotations

import logging
import time
from datetime import timedelta

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from service import play
from service.mailwire.outbound.transports import SMTPTransport
from service.play.clock import ManualClock
from service.play.mail import relay
from service.store.db import StatementLine
from service.store.models import OutboxRow, Seat
from tests.conftest import T0
from tests.mail.test_relay import free_port, rows, start


class Relay:
    """A local SMTP relay that refuses some recipients for good and names its queue ids."""

    def __init__(self, refuse=()):
        self.refuse, self.messages = set(refuse), []

    async def handle_RCPT(self, server, session, envelope, address, options):
        if address in self.refuse:
            return f"550 5.1.1 <{address}>: Recipient address rejected: User unknown"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(envelope)
        return f"250 2.0.0 Ok: queued as Q{len(self.messages):04d}"


@pytest.fixture
def relay_server():
    handler = Relay(refuse={"ben@example.org"})
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield controller, handler
    controller.stop()


def smtp_app(app_factory, port, **more):
    return app_factory(TURNPOST_MAIL_TRANSPORT="smtp", TURNPOST_SMTP_HOST="127.0.0.1",
                       TURNPOST_SMTP_PORT=port, **more)


def test_a_permanent_refusal_is_parked_at_once_with_its_reason_and_mutes_no_seat(
        app_factory, relay_server):
    controller, handler = relay_server
    app = smtp_app(app_factory, controller.port)
    start(app.test_client())
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        by_addr = {r.to_addr: r for r in s.scalars(select(OutboxRow))}
        ben = by_addr["ben@example.org"]
        assert (ben.status, ben.attempts) == ("parked", 1)
        assert "550" in ben.last_error and "User unknown" in ben.last_error
        assert not s.get(Seat, (ben.game_id, ben.seat)).muted
        anna = by_addr["anna@example.org"]
        assert anna.status == "sent" and anna.relay_id.endswith("queued as Q0001")
    assert [e.rcpt_tos for e in handler.messages] == [["anna@example.org"]]


def test_mail_waiting_for_a_retry_goes_within_one_sweep_of_the_relay_answering(
        app_factory, relay_server):
    controller, handler = relay_server
    clock = ManualClock(T0)
    app = smtp_app(app_factory, free_port(), TURNPOST_CLOCK=clock)   # nothing listens
    start(app.test_client())
    svc = app.extensions["turnpost"]
    assert set(rows(app).values()) == {("pending", 1)}
    clock.advance(seconds=20)
    play.sweep(svc)              # still down: the probe fails and costs no attempt
    assert set(rows(app).values()) == {("pending", 1)}
    svc.transport = SMTPTransport("127.0.0.1", controller.port)      # the relay is back
    handler.refuse.clear()
    clock.advance(seconds=5)     # well before the next scheduled try
    play.sweep(svc)
    assert set(rows(app).values()) == {("sent", 1)}
    assert len(handler.messages) == 2


def test_a_slow_send_keeps_its_claim_by_heartbeat(app, monkeypatch):
    monkeypatch.setattr(relay, "HEARTBEAT_SECONDS", 0.05)
    svc = app.extensions["turnpost"]
    clock = ManualClock(T0)
    svc.clock = clock
    start(app.test_client())
    row_id = next(iter(rows(app)))
    with svc.db.transaction() as s:
        s.get(OutboxRow, row_id).status = "pending"
        s.get(OutboxRow, row_id).next_try = T0
    seen = []

    class Slow:
        def send(self, msg):
            for _ in range(3):           # three minutes of relay time
                clock.advance(seconds=60)
                time.sleep(0.3)
            with svc.db.transaction() as s:
                seen.append(row_id in relay.due(s, clock.now()))
            return "250 ok"

    svc.transport = Slow()
    assert relay.deliver_one(svc, row_id) == "sent"
    assert seen == [False], "another worker could have taken the row over mid-send"


def test_a_database_blip_after_the_send_does_not_send_it_again(app, monkeypatch, relay_server):
    controller, handler = relay_server
    monkeypatch.setattr(relay, "MARK_SENT_PAUSES", (0, 0, 0))
    svc = app.extensions["turnpost"]
    start(app.test_client())
    row_id = next(iter(rows(app)))
    with svc.db.transaction() as s:
        s.get(OutboxRow, row_id).status = "pending"
    # the mark's statement (Database.line: one statement, committed as it runs)
    real = StatementLine.execute
    blips = []

    def flaky(line, statement, params=None):
        if len(handler.messages) == 1 and len(blips) < 2:
            blips.append(1)
            raise OperationalError("UPDATE outbox", {}, Exception("server closed the connection"))
        return real(line, statement, params)

    svc.transport = SMTPTransport("127.0.0.1", controller.port)
    monkeypatch.setattr(StatementLine, "execute", flaky)
    assert relay.deliver_one(svc, row_id) == "sent"
    monkeypatch.setattr(StatementLine, "execute", real)
    assert len(blips) == 2 and len(handler.messages) == 1
    with svc.db.transaction() as s:
        row = s.get(OutboxRow, row_id)
        assert row.status == "sent" and row.relay_id.endswith("Q0001")
    assert relay.deliver_one(svc, row_id) == "skipped"


def test_an_outage_is_one_line_each_way_without_tracebacks(app_factory, caplog, relay_server):
    controller, _ = relay_server
    clock = ManualClock(T0)
    app = smtp_app(app_factory, free_port(), TURNPOST_CLOCK=clock)
    svc = app.extensions["turnpost"]

    def broker_down(job, *args):
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379")

    svc.enqueue = broker_down
    caplog.set_level(logging.INFO)
    for _ in range(3):
        start(app.test_client())
    for _ in range(3):
        clock.advance(seconds=400)
        play.sweep(svc)
    svc.transport = SMTPTransport("127.0.0.1", controller.port)
    svc.enqueue = lambda job, *args: None
    clock.advance(seconds=30)
    play.sweep(svc)
    svc.kick("deliver", [1])
    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert [ln.split(" is ")[0] + " is " + ln.split(" is ")[1][:4] for ln in lines
            if " is down" in ln or " is back" in ln] == [
        "broker is down", "mail relay is down", "mail relay is back", "broker is back"]
    assert not any(r.exc_info for r in caplog.records)
    assert timedelta(seconds=60) == relay.CLAIM_TIMEOUT
