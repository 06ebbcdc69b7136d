"""The outbox relay: sends through a real local SMTP server, retries a failing send on the
fixed schedule, parks it when the schedule runs out, and never sends one row twice."""
from __future__ import annotations

import socket
from datetime import datetime, timedelta, timezone
from email.utils import parsedate_to_datetime

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import select

from service import play
from service.mailwire.outbound.transports import SMTPTransport
from service.play import notify
from service.play.clock import ManualClock
from service.play.mail import relay
from service.play.reads import admin
from service.store.models import InboundMessage, OutboxRow
from tests.play.mail.test_replies import reply_to
from tests.web.helpers import latest_to, move_links, start_game

T0 = datetime(2026, 11, 24, 9, 0, tzinfo=timezone.utc)


class Inbox:
    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(envelope)
        return "250 OK"


@pytest.fixture
def smtp_server():
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield controller, inbox
    controller.stop()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(client):
    start_game(client.application, "trees", ["anna@example.org", "ben@example.org"])


def rows(app):
    with app.extensions["turnpost"].db.transaction() as s:
        # in id order: the test compares lists, and PostgreSQL returns updated rows in any order
        return {r.id: (r.status, r.attempts)
                for r in s.scalars(select(OutboxRow).order_by(OutboxRow.id))}


def test_sends_through_a_real_smtp_server(app_factory, smtp_server):
    controller, inbox = smtp_server
    app = app_factory(TURNPOST_MAIL_TRANSPORT="smtp", TURNPOST_SMTP_HOST="127.0.0.1",
                      TURNPOST_SMTP_PORT=controller.port)
    start(app.test_client())
    assert sorted(e.rcpt_tos[0] for e in inbox.messages) == ["anna@example.org", "ben@example.org"]
    assert all(v == ("sent", 0) for v in rows(app).values())


def test_a_dead_mail_server_retries_on_schedule_then_parks(app_factory, smtp_server):
    port = free_port()     # nothing listens here
    clock = ManualClock(T0)
    app = app_factory(TURNPOST_MAIL_TRANSPORT="smtp", TURNPOST_SMTP_HOST="127.0.0.1",
                      TURNPOST_SMTP_PORT=port, TURNPOST_RETRY_SCHEDULE=(60, 300),
                      TURNPOST_CLOCK=clock)
    start(app.test_client())
    assert set(rows(app).values()) == {("pending", 1)}
    svc = app.extensions["turnpost"]
    db = svc.db
    with db.transaction() as s:
        assert relay.due(s, T0) == []                         # not before its next try
        assert len(relay.due(s, T0 + timedelta(seconds=61))) == 2
    clock.advance(seconds=61)
    assert [relay.deliver_one(svc, i) for i in rows(app)] == ["retry", "retry"]
    clock.advance(seconds=1000)
    assert [relay.deliver_one(svc, i) for i in rows(app)] == ["parked", "parked"]
    with db.transaction() as s:
        parked = s.scalars(select(OutboxRow)).all()
        assert all("Connection" in r.last_error or "refused" in r.last_error.lower()
                   for r in parked)
    # the operator fixes the mail server and requeues: nothing was lost
    controller, inbox = smtp_server
    svc.transport = SMTPTransport("127.0.0.1", controller.port)
    parked_ids = list(rows(app))
    assert play.requeue(svc, parked_ids) == parked_ids               # requeued and sent
    assert set(rows(app).values()) == {("sent", 0)}
    assert len(inbox.messages) == 2


def test_a_row_is_sent_once_however_often_it_is_kicked(app):
    start(app.test_client())
    svc = app.extensions["turnpost"]
    before = len(svc.transport.messages())
    for i in rows(app):
        assert relay.deliver_one(svc, i) == "skipped"
    assert len(svc.transport.messages()) == before


def test_a_delivery_is_logged_as_one_line_of_row_ids_by_outcome(app, caplog):
    start(app.test_client())
    svc = app.extensions["turnpost"]
    ids = list(rows(app))
    with caplog.at_level("INFO", logger="service.play.mail.relay"):
        relay.deliver(svc, ids)             # sent already when the game started
    lines = [r.getMessage() for r in caplog.records if "outbox delivery" in r.getMessage()]
    assert lines == [f"outbox delivery: skipped {sorted(ids)}"]
    assert relay.summary({4: "sent", 2: "retry", 1: "sent"}) == "sent [1, 4]; retry [2]"


def test_a_claim_abandoned_by_a_dead_worker_is_taken_over(app):
    start(app.test_client())
    db = app.extensions["turnpost"].db
    t0 = T0
    with db.transaction() as s:
        row = s.scalars(select(OutboxRow)).first()
        row.status, row.claimed_at = "sending", t0
    with db.transaction() as s:
        assert row.id not in relay.due(s, t0 + timedelta(seconds=30))
        assert row.id in relay.due(s, t0 + relay.CLAIM_TIMEOUT + timedelta(seconds=1))


def test_tests_cannot_reach_a_real_mail_server():
    import smtplib
    with pytest.raises(AssertionError, match="real mail"):
        smtplib.SMTP("smtp.example.com", 25)


def test_maildir_transport_writes_into_an_existing_empty_folder(tmp_path):
    from email.message import EmailMessage

    from service.mailwire.outbound.transports import MaildirTransport
    folder = tmp_path / "outbox"
    folder.mkdir()                      # exists, but without cur/new/tmp
    transport = MaildirTransport(folder)
    assert transport.messages() == []
    msg = EmailMessage()
    msg["To"], msg["Subject"] = "a@example.org", "hello"
    msg.set_content("hi")
    transport.send(msg)
    assert len(transport.messages()) == 1


def test_a_late_failure_does_not_undo_a_takeover(app_factory):
    """A send slower than the claim timeout is taken over by the sweep; when the slow worker
    finally fails, it must not put the row back to pending (which would send it twice)."""
    clock = ManualClock(T0)
    app = app_factory(TURNPOST_CLOCK=clock)
    start(app.test_client())
    svc = app.extensions["turnpost"]
    db = svc.db
    t0 = T0
    row_id = next(iter(rows(app)))
    with db.transaction() as s:
        s.get(OutboxRow, row_id).status = "pending"
    with db.transaction() as s:
        assert relay.claim(s, row_id, t0, "slow")                 # the slow worker
    later = t0 + relay.CLAIM_TIMEOUT + timedelta(seconds=1)
    with db.transaction() as s:
        assert relay.claim(s, row_id, later, "sweep")             # the sweep takes over
        s.get(OutboxRow, row_id).status = "sent"                  # ...and sends it
    clock.set(later)
    assert relay._failed(svc, row_id, "slow", OSError("timeout"), False) == "skipped"
    assert rows(app)[row_id] == ("sent", 0)


def test_an_email_composed_again_has_a_message_id_and_a_date_of_its_own(app_factory):
    """Issue 49, item 1: a row left `sending` by a process that died in the send was composed
    again when its claim lapsed, from the game as it was by then ("Game over" under the
    Message-ID of "Your move"), with the first one's Message-ID. A Message-ID names one
    rendering: the next is `<id>.2`, dated when composed, and a reply to either copy (its
    reply address lost) or a bounce of either finds the row."""
    clock = ManualClock(T0)
    app = app_factory(TURNPOST_CLOCK=clock)
    start(app.test_client())
    svc = app.extensions["turnpost"]
    addr, first = mover(app)
    local = first["Message-ID"].strip("<>").split("@")[0]
    with svc.db.transaction() as s:
        row = s.scalar(select(OutboxRow).where(OutboxRow.message_id == local))
        row.status, row.claimed_at, row.claim = "sending", T0, "died"
        row_id = row.id
    clock.advance(hours=1)                  # its claim lapsed long ago
    assert play.sweep(svc)[row_id] == "sent"
    second = latest_to(app, addr)
    assert second["Message-ID"] == f"<{local}.2@turnpost.test>"
    assert parsedate_to_datetime(second["Date"]) == T0 + timedelta(hours=1)
    assert parsedate_to_datetime(first["Date"]) == T0
    assert admin.resend(svc, row_id)        # an operator's resend: a third rendering
    assert latest_to(app, addr)["Message-ID"] == f"<{local}.3@turnpost.test>"

    raw = reply_to(second, move_links(second)[0][0])
    raw = raw.replace(second["Reply-To"].encode(), b"turnpost@turnpost.test")
    with app.app_context():
        inbound_id, _ = play.accept_mail(svc, raw, "smtp")
    with svc.db.transaction() as s:
        assert s.get(InboundMessage, inbound_id).status == "applied"
    assert notify.row_message_id(f"{local}.2") == local
    assert notify.rendering_id(local, 1) == local


def mover(app):
    for addr in ("anna@example.org", "ben@example.org"):
        msg = latest_to(app, addr)
        if move_links(msg):
            return addr, msg
    raise AssertionError("nobody to move")
