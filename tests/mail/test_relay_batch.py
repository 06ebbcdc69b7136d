"""The outbox relay in batches (service.play.mail.relay.deliver): rows claimed and marked together,
sent over one SMTP connection that stays open for the next batch, each row's failure its own,
and never a row sent twice."""
from __future__ import annotations

import socket

import pytest
from sqlalchemy import select, update

from service import play
from service.mailwire.outbound.transports import SMTPTransport
from service.play import notify
from service.store.models import OutboxRow, Player
from tests.mail.test_relay_fanout import Sink, queued, relay_at
from tests.play.moves.test_costs import statements


@pytest.fixture
def sink():
    """The fan-out tests' local relay (test_relay_fanout.Sink), refusing ben."""
    handler = Sink()
    handler.refuse.add("ben@example.org")
    with relay_at(handler) as controller:
        yield controller, handler


@pytest.fixture
def smtp_services(services, sink):
    controller, _ = sink
    services.transport = SMTPTransport("127.0.0.1", controller.port)
    yield services
    services.transport.close()


def statuses(svc, ids):
    with svc.db.transaction() as s:
        return [s.get(OutboxRow, i).status for i in ids]


def test_a_batch_goes_out_over_one_connection_kept_for_the_next(smtp_services, sink):
    _, handler = sink
    handler.refuse.clear()
    first, second = queued(smtp_services, 3), queued(smtp_services, 2)
    assert set(play.deliver(smtp_services, first).values()) == {"sent"}
    assert set(play.deliver(smtp_services, second).values()) == {"sent"}
    assert len(handler.messages) == 10
    assert handler.connections == 1
    assert set(statuses(smtp_services, first + second)) == {"sent"}
    # sent rows are never sent again
    assert set(play.deliver(smtp_services, first).values()) == {"skipped"}
    assert len(handler.messages) == 10


def test_an_email_costs_two_units_of_work_its_claim_with_its_load_and_its_mark(
        smtp_services, sink):
    """The rows a task claims are loaded in the claim's own transaction (issue 53: a third
    unit of work per email was a pool checkout, a ping, BEGIN and COMMIT), and each is marked
    sent in one of its own once the relay has it, by one statement that also says whether
    its seat is held for want of mail (a second statement per email before)."""
    from sqlalchemy import event
    _, handler = sink
    handler.refuse.clear()
    row_id = queued(smtp_services, 1)[0]
    checkouts: list[int] = []
    listener = lambda *_: checkouts.append(1)   # noqa: E731
    event.listen(smtp_services.db.engine, "checkout", listener)
    try:
        with statements(smtp_services) as seen:
            assert play.deliver(smtp_services, [row_id]) == {row_id: "sent"}
    finally:
        event.remove(smtp_services.db.engine, "checkout", listener)
    assert len(checkouts) == 2 and len(handler.messages) == 1
    # the claim, the group's four reads, the mark (SQLite's BEGIN aside)
    sent = [sql for sql in seen if not sql.startswith("BEGIN")]
    assert len(sent) == 6, sent
    assert sent[-1].startswith("UPDATE outbox") and "mail_held_since" in sent[-1]


def test_a_kept_connection_the_server_closed_is_replaced_without_losing_a_message(
        smtp_services, sink):
    _, handler = sink
    handler.refuse.clear()
    play.deliver(smtp_services, queued(smtp_services, 1))
    smtp_services.transport._kept.sock.shutdown(socket.SHUT_RDWR)   # the line is dead
    ids = queued(smtp_services, 1)
    assert set(play.deliver(smtp_services, ids).values()) == {"sent"}
    assert len(handler.messages) == 4 and handler.connections == 2


def test_each_rows_failure_is_its_own(smtp_services, sink):
    _, handler = sink          # refuses ben
    ids = queued(smtp_services, 2)
    results = play.deliver(smtp_services, ids)
    with smtp_services.db.transaction() as s:
        to = {i: s.get(OutboxRow, i).to_addr for i in ids}
    assert {i for i, r in results.items() if r == "sent"} == \
        {i for i in ids if to[i] == "anna@example.org"}
    # a 550 is a permanent refusal: parked at once (issue 17), the others still sent
    assert {results[i] for i in ids if to[i] == "ben@example.org"} == {"parked"}
    assert {len(e.rcpt_tos) for e in handler.messages} == {1}


def test_rows_claimed_by_another_worker_are_left_to_it(smtp_services, sink):
    _, handler = sink
    handler.refuse.clear()
    ids = queued(smtp_services, 2)
    with smtp_services.db.transaction() as s:
        s.execute(update(OutboxRow).where(OutboxRow.id == ids[0])
                  .values(status="sending", claimed_at=smtp_services.clock.now()))
    results = play.deliver(smtp_services, ids)
    assert results[ids[0]] == "skipped" and len(handler.messages) == 3
    assert statuses(smtp_services, ids)[0] == "sending"


def test_without_smtp_a_batch_is_written_to_the_maildir(services):
    ids = queued(services, 2)
    assert set(play.deliver(services, ids).values()) == {"sent"}
    assert len(services.transport.messages()) == 4
    with services.db.transaction() as s:
        assert set(s.scalars(select(OutboxRow.status))) == {"sent"}


def test_a_filling_batch_also_sends_what_else_is_due_and_later_tasks_find_it_sent(
        smtp_services, sink):
    _, handler = sink
    handler.refuse.clear()
    ids = queued(smtp_services, 3)
    first = play.deliver(smtp_services, ids[:2], fill=True)
    assert set(first) == set(ids) and set(first.values()) == {"sent"}
    assert set(play.deliver(smtp_services, ids[2:4], fill=True).values()) == \
        {"skipped"}
    assert len(handler.messages) == 6


def test_a_filling_batch_leaves_rows_not_yet_due(smtp_services, sink):
    _, handler = sink
    handler.refuse.clear()
    ids = queued(smtp_services, 2)
    later = smtp_services.clock.now().replace(year=2099)
    with smtp_services.db.transaction() as s:
        s.execute(update(OutboxRow).where(OutboxRow.id.in_(ids[2:])).values(next_try=later))
    results = play.deliver(smtp_services, ids[:2], fill=True)
    assert set(results) == set(ids[:2]) and statuses(smtp_services, ids[2:]) == ["pending"] * 2


def test_rows_queued_before_their_address_bounced_or_was_suppressed_are_skipped(
        smtp_services, sink):
    """The relay's last look (service.play.mail.bounces.unmailable), one statement for a batch:
    mail queued before a hard bounce, or before "never email me", does not go out."""
    _, handler = sink
    handler.refuse.clear()
    ids = queued(smtp_services, 2)
    with smtp_services.db.transaction() as s:
        s.execute(update(Player).where(Player.email == "ben@example.org")
                  .values(bounced_at=smtp_services.clock.now()))
        # an address queued in another case is the same address
        s.execute(update(OutboxRow).where(OutboxRow.to_addr == "ben@example.org")
                  .values(to_addr="Ben@Example.org"))
    results = play.deliver(smtp_services, ids)
    with smtp_services.db.transaction() as s:
        to = {i: s.get(OutboxRow, i).to_addr.lower() for i in ids}
    assert {i for i, r in results.items() if r == "skipped"} == \
        {i for i in ids if to[i] == "ben@example.org"}
    assert {r for i, r in results.items() if to[i] != "ben@example.org"} == {"sent"}
    assert {e.rcpt_tos[0] for e in handler.messages} == {"anna@example.org"}
    with smtp_services.db.transaction() as s:
        s.execute(update(Player).where(Player.email == "anna@example.org")
                  .values(suppressed=True))
    later = queued(smtp_services, 1)
    assert set(play.deliver(smtp_services, later).values()) == {"skipped"}
    # a letter's address is no seat's: it is asked of the players (issue 53: a seat's reader
    # is answered from the game's record)
    sent_before = len(handler.messages)
    with smtp_services.db.transaction() as s:
        letter = notify.letter(s, "Anna@Example.org", "notice", {"why": "a test"},
                               smtp_services.clock.now()).id
    play.deliver(smtp_services, [letter])
    assert statuses(smtp_services, [letter]) == ["skipped"]
    assert len(handler.messages) == sent_before
