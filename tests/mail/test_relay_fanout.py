"""Fan-out in batches (issue 15) with issue 17's promises: the worker's and the embedded
thread's deliveries go out over one kept SMTP connection (closed when idle and when the worker
stops), a refused recipient parks only its row, a line that drops mid-batch sends nothing
twice and leaves nothing stuck, and each sent row is marked as its answer comes. Every test with the `sink`
fixture runs twice: against a relay that offers PIPELINING (each message's commands then go
together, mailwire.outbound.pipelining) and one that does not (smtplib's own way)."""
from __future__ import annotations

import asyncio
import re
import smtplib
import threading
import time
from contextlib import contextmanager
from datetime import timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import event, select
from sqlalchemy.exc import OperationalError

from service import play
from service.mailwire.outbound.transports import SendFailed, SMTPTransport
from service.play import notify
from service.play.mail import relay
from service.store.db import StatementLine
from service.store.models import OutboxRow, Player, Seat
from tests.mail.test_relay import free_port
from tests.web.helpers import start_game

PEOPLE = ["anna@example.org", "ben@example.org"]
LINK = re.compile(r"https?://[^\s\"'<>]+")


class Sink:
    """A local relay that counts connections and goodbyes, refuses some recipients, and can
    hang up before the Nth message (at its MAIL FROM, silently or with a 421) or in the
    middle of it (at its DATA, answering nothing and keeping nothing), or go away for good
    (hang up, and take no new connection) once it has taken N messages. `pipelining`: it
    offers PIPELINING (aiosmtpd reads pipelined commands in order but does not say so)."""

    def __init__(self, pipelining: bool = False):
        self.pipelining = pipelining
        self.messages: list = []
        self.connections = self.quits = self.mails = self.datas = 0
        self.refuse: set[str] = set()
        self.hang_up_at_mail: set[int] = set()
        self.closing_at_mail: set[int] = set()
        self.hang_up_in_data: set[int] = set()
        self.refuse_data: set[int] = set()     # the Nth message's data, refused for good
        self.go_away_after: int | None = None
        self.listening = None       # the controller's server, for go_away_after

    async def handle_EHLO(self, server, session, envelope, hostname, responses):
        self.connections += 1
        session.host_name = hostname
        if self.pipelining:
            return [*responses[:-1], "250-PIPELINING", responses[-1]]
        return responses

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        self.mails += 1
        if self.go_away_after is not None and len(self.messages) >= self.go_away_after:
            self.listening.close()           # no new connections from now on
            server.transport.abort()
            return "250 OK"
        if self.mails in self.hang_up_at_mail:
            server.transport.abort()         # gone without a word: nothing was handed over
            return "250 OK"
        if self.mails in self.closing_at_mail:
            return "421 4.4.2 idle too long, closing"     # the client hangs up on a 421
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return "550 5.1.1 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.datas += 1
        if self.datas in self.hang_up_in_data:
            server.transport.abort()         # the line drops before the relay answers
            return "250 OK"
        if self.datas in self.refuse_data:
            return "554 5.7.1 message content rejected"
        self.messages.append(envelope)
        return f"250 2.0.0 Ok: queued as Q{len(self.messages):04d}"

    async def handle_QUIT(self, server, session, envelope):
        self.quits += 1
        return "221 Bye"

    def message_ids(self) -> list[str]:
        """The Message-ID of each message taken, as its outbox row's: a row's email composed
        again (`<tp.x.2@...>`, after a send in doubt) counts as that row's (`<tp.x@...>`), so
        an email sent twice shows twice."""
        return [_as_row(line.split(b":", 1)[1].strip().decode()) for e in self.messages
                for line in e.content.splitlines() if line.lower().startswith(b"message-id:")]


def _as_row(message_id: str) -> str:
    local, at, domain = message_id.strip("<>").partition("@")
    return f"<{notify.row_message_id(local)}{at}{domain}>"


@contextmanager
def relay_at(handler: Sink):
    """The handler listening on a free local port for as long as the block runs."""
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    handler.listening = controller.server
    try:
        yield controller
    finally:
        controller.stop()


@pytest.fixture(params=[False, True], ids=["one command at a time", "pipelined"])
def sink(request):
    handler = Sink(pipelining=request.param)
    with relay_at(handler) as controller:
        yield controller, handler


@pytest.fixture
def smtp(services, sink):
    controller, handler = sink
    services.transport = SMTPTransport("127.0.0.1", controller.port)
    yield services, handler
    services.transport.close()


def queued(svc, games: int) -> list[int]:
    """Every seat's first email of `games` new games."""
    with svc.db.transaction() as s:
        for addr in PEOPLE:
            if s.scalar(select(Player).where(Player.email == addr)) is None:
                s.add(Player(email=addr, name=addr.split("@")[0], mail_mode="every",
                             created_at=svc.clock.now()))
    ids = []
    for _ in range(games):
        ids += play.start_game(svc, "trees", PEOPLE, {}).outbox_ids
    return ids


def rows(svc, ids) -> dict[int, tuple[str, int]]:
    with svc.db.transaction() as s:
        return {i: (r.status, r.attempts) for i in ids for r in [s.get(OutboxRow, i)]}


def message_ids(svc, ids) -> dict[int, str]:
    with svc.db.transaction() as s:
        return {i: svc.urls.message_id(s.get(OutboxRow, i).message_id) for i in ids}


def test_a_batch_of_rows_goes_out_over_one_connection(smtp):
    svc, sink = smtp
    ids = queued(svc, 5)
    assert set(play.deliver(svc, ids).values()) == {"sent"}
    assert sink.connections == 1 and len(sink.messages) == 10
    assert sorted(sink.message_ids()) == sorted(message_ids(svc, ids).values())
    assert set(rows(svc, ids).values()) == {("sent", 0)}
    with svc.db.transaction() as s:      # each row keeps the relay's answer, its proof
        answers = {s.get(OutboxRow, i).relay_id for i in ids}
    assert answers == {f"2.0.0 Ok: queued as Q{n:04d}" for n in range(1, 11)}


def _through_the_relay(svc, sink):
    """One turn email sent: (the HTML part as arrived, the envelope), after checking that it
    reads back as the page composed (CRLF on the wire aside, and the move links, each made
    with a fresh nonce)."""
    ids = queued(svc, 1)
    with svc.db.transaction() as s:
        composed = relay.render(s, svc, s.get(OutboxRow, ids[0])).get_body(("html",))
    assert set(play.deliver(svc, ids).values()) == {"sent"}
    envelope = sink.messages[0]
    html = message_from_bytes(envelope.content, policy=policy.default).get_body(("html",))
    assert (LINK.sub("", html.get_content().replace("\r\n", "\n"))
            == LINK.sub("", composed.get_content()))
    return html, envelope


def test_eight_bit_parts_are_declared_to_a_relay_that_takes_them(smtp):
    """The HTML part goes as 8bit (mailwire.outbound.htmllines): the relay is told, with
    BODY=8BITMIME (RFC 6152)."""
    html, envelope = _through_the_relay(*smtp)
    assert html["Content-Transfer-Encoding"] == "8bit"
    assert "BODY=8BITMIME" in envelope.mail_options


def test_a_relay_without_8bitmime_gets_the_parts_quoted_printable(smtp, monkeypatch):
    real = smtplib.SMTP.has_extn
    monkeypatch.setattr(smtplib.SMTP, "has_extn",
                        lambda conn, name: name.lower() != "8bitmime" and real(conn, name))
    html, envelope = _through_the_relay(*smtp)
    assert html["Content-Transfer-Encoding"] == "quoted-printable"
    assert "BODY=8BITMIME" not in envelope.mail_options
    assert max(envelope.content) < 128                  # 7-bit clean


def test_sent_rows_are_claimed_in_one_statement_and_each_marked_as_its_answer_comes(smtp):
    """One claim for the batch; each row marked in its own small commit, so a worker killed
    mid-batch sends again at most the one email in flight."""
    svc, _ = smtp
    ids = queued(svc, 5)
    seen: list[str] = []

    def record(conn, cursor, statement, parameters, context, executemany):
        seen.append(statement)

    event.listen(svc.db.engine, "before_cursor_execute", record)
    try:
        play.deliver(svc, ids)
    finally:
        event.remove(svc.db.engine, "before_cursor_execute", record)
    claims = [s for s in seen if "UPDATE outbox SET status" in s and "claim" in s
              and "sent_at" not in s]
    marks = [s for s in seen if "UPDATE outbox SET status" in s and "sent_at" in s]
    assert len(claims) == 1
    assert len(marks) == len(ids)


def test_a_filling_claim_takes_at_most_a_batch_the_rows_asked_for_first(smtp, monkeypatch):
    svc, sink = smtp
    monkeypatch.setattr(relay, "BATCH", 3)
    ids = queued(svc, 5)
    # the batch is filled with the rows due longest (relay.claim_batch): the first row a
    # minute before the rest, which fell due together, in no set order among them
    with svc.db.transaction() as s:
        s.get(OutboxRow, ids[0]).next_try -= timedelta(minutes=1)
    results = play.deliver(svc, ids[4:6], fill=True)
    assert results == {ids[4]: "sent", ids[5]: "sent", ids[0]: "sent"}
    assert len(sink.messages) == 3
    assert [rows(svc, ids)[i][0] for i in ids] == \
        ["sent", "pending", "pending", "pending", "sent", "sent"] + ["pending"] * 4


def test_a_claim_of_a_whole_batch_asks_for_the_next_before_it_sends(smtp, monkeypatch):
    """A backlog is sent by as many workers as are free: a delivery whose claim took a whole
    batch asks for the next task (workers.tasks.deliver_outbox) before its first email goes,
    not after its last; one that took less asks for nothing."""
    svc, sink = smtp
    monkeypatch.setattr(relay, "BATCH", 3)
    ids = queued(svc, 2)                       # four rows due
    asked = []
    play.deliver(svc, [], fill=True, whole_batch=lambda: asked.append(len(sink.messages)))
    assert asked == [0] and len(sink.messages) == 3
    play.deliver(svc, [], fill=True, whole_batch=lambda: asked.append(len(sink.messages)))
    assert asked == [0] and len(sink.messages) == 4          # the last row: no whole batch
    assert {status for status, _ in rows(svc, ids).values()} == {"sent"}


def test_asking_for_the_next_delivery_never_costs_the_claimed_rows(smtp, monkeypatch, caplog):
    """The broker away when the next task is asked for: the batch claimed is sent all the
    same (the sweep sends whatever the missing task would have)."""
    svc, sink = smtp
    monkeypatch.setattr(relay, "BATCH", 2)
    ids = queued(svc, 1)

    def broker_away() -> None:
        raise ConnectionError("the broker is away")
    assert set(play.deliver(svc, [], fill=True, whole_batch=broker_away).values()) == {"sent"}
    assert {status for status, _ in rows(svc, ids).values()} == {"sent"}
    assert len(sink.messages) == 2
    assert "asking for the next delivery failed" in caplog.text


def test_workers_claiming_at_once_never_claim_the_same_row(services):
    ids = queued(services, 10)
    claims: dict[str, list[int]] = {"a": [], "b": []}
    start = threading.Barrier(2)

    def worker(token: str) -> None:
        start.wait()
        while True:
            with services.db.transaction() as s:
                got = relay.claim_batch(s, [], services.clock.now(), token, fill=3)
            if not got:
                return
            claims[token] += got

    threads = [threading.Thread(target=worker, args=(t,)) for t in claims]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(claims["a"] + claims["b"]) == sorted(ids)      # each row once, no more


def test_a_long_batch_marks_what_it_sent_as_it_goes(smtp, monkeypatch):
    """A worker killed mid-batch resends only what it sent since its last mark."""
    svc, _ = smtp
    ids = queued(svc, 3)
    real, unmarked = svc.transport, []

    class Watching:
        def send(self, msg):
            with svc.db.transaction() as s:
                unmarked.append(len(list(s.scalars(select(OutboxRow.id).where(
                    OutboxRow.id.in_(ids), OutboxRow.status == "sending")))))
            return real.send(msg)

    svc.transport = Watching()
    assert set(play.deliver(svc, ids).values()) == {"sent"}
    svc.transport = real
    # before each send, every row sent before it is already marked
    assert unmarked == [6, 5, 4, 3, 2, 1]


def test_a_refused_recipient_parks_only_its_row_mutes_nobody_and_the_rest_go_on_the_same_line(
        smtp):
    svc, sink = smtp
    sink.refuse.add("ben@example.org")
    ids = queued(svc, 3)
    results = play.deliver(svc, ids)
    with svc.db.transaction() as s:
        to = {i: s.get(OutboxRow, i).to_addr for i in ids}
        muted = {(r.game_id, r.seat): s.get(Seat, (r.game_id, r.seat)).muted
                 for i in ids for r in [s.get(OutboxRow, i)]}
        errors = {s.get(OutboxRow, i).last_error for i in ids if to[i] == "ben@example.org"}
    assert {results[i] for i in ids if to[i] == "anna@example.org"} == {"sent"}
    assert {rows(svc, [i])[i] for i in ids if to[i] == "ben@example.org"} == {("parked", 1)}
    assert all("550" in e for e in errors)
    # one day's 5.1.1 is not yet evidence enough to mute anyone (play.refusals)
    assert sum(muted.values()) == 0
    assert len(sink.messages) == 3 and sink.connections == 1


def test_a_refusal_of_the_data_reaches_its_own_row_though_read_after_the_next_email(smtp):
    """The relay's answer to an email's data is read while the next email is composed, before it is
    handed over (relay._Sending.settling): a refusal still reaches that email's row alone (a
    5.7.1 is the relay's policy, not the address: the row waits for its retry)."""
    svc, sink = smtp
    sink.refuse_data.add(2)
    ids = queued(svc, 2)
    results = play.deliver(svc, ids)
    assert results[ids[1]] == "retry"
    assert {results[i] for i in ids if i != ids[1]} == {"sent"}
    with svc.db.transaction() as s:
        assert "554" in s.get(OutboxRow, ids[1]).last_error
    assert sorted(sink.message_ids()) == sorted(
        m for i, m in message_ids(svc, ids).items() if i != ids[1])
    assert sink.connections == 1


class Holding(Sink):
    """A pipelining relay that answers the first message's data only once the sender has gone
    on to its next message (`go`), or after a few seconds with a 451."""

    def __init__(self):
        super().__init__(pipelining=True)
        self.go = threading.Event()

    async def handle_DATA(self, server, session, envelope):
        if self.datas == 0 and not await asyncio.get_running_loop().run_in_executor(
                None, self.go.wait, 5):
            self.datas += 1
            return "451 4.3.0 the sender waited for this answer"
        return await super().handle_DATA(server, session, envelope)


def test_the_next_email_is_composed_while_the_relay_takes_the_last_one_in(services,
                                                                         monkeypatch):
    """Composing is most of an email's cost and the relay's reading of it most of the rest:
    the relay composes the next email before it waits for the last one's answer."""
    handler = Holding()
    real, composed = relay.compose_turn, []

    def compose(*args, **kwargs):
        composed.append(1)
        if len(composed) == 2:
            handler.go.set()
        return real(*args, **kwargs)

    monkeypatch.setattr(relay, "compose_turn", compose)
    with relay_at(handler) as controller:
        services.transport = SMTPTransport("127.0.0.1", controller.port)
        try:
            ids = queued(services, 2)
            results = play.deliver(services, ids)
        finally:
            services.transport.close()
    assert results == {i: "sent" for i in ids}
    assert len(handler.messages) == 4 and handler.connections == 1


def test_an_email_that_cannot_be_composed_fails_alone(smtp, monkeypatch):
    """A game's rows are loaded together; a template or rules bug in one of them retries
    that row only."""
    svc, sink = smtp
    real = relay.compose_turn

    def compose(env, page, links, envelope, extra=None):
        if envelope.to_addr == "ben@example.org":
            raise KeyError("no such card")
        return real(env, page, links, envelope, extra)

    monkeypatch.setattr(relay, "compose_turn", compose)
    ids = queued(svc, 2)
    results = play.deliver(svc, ids)
    with svc.db.transaction() as s:
        ben = {i: s.get(OutboxRow, i) for i in ids if s.get(OutboxRow, i).to_addr == PEOPLE[1]}
    assert {results[i] for i in ben} == {"retry"}
    assert all("KeyError" in r.last_error for r in ben.values())
    assert {results[i] for i in ids if i not in ben} == {"sent"} and len(sink.messages) == 2


@pytest.mark.parametrize("how", ["at the next message", "with a 421 at the next message",
                                 "in the middle of a message"])
def test_a_line_dropped_mid_batch_sends_nothing_twice_and_leaves_nothing_stuck(smtp, how):
    svc, sink = smtp
    {"at the next message": sink.hang_up_at_mail,
     "with a 421 at the next message": sink.closing_at_mail,
     "in the middle of a message": sink.hang_up_in_data}[how].add(3)
    ids = queued(svc, 3)
    results = play.deliver(svc, ids)
    if how != "in the middle of a message":
        # nothing of the third message went over the dead line: it goes on a new one
        assert set(results.values()) == {"sent"}
    else:
        # the relay may or may not have it: not marked sent, tried again on schedule
        assert results[ids[2]] == "retry"
        assert {results[i] for i in ids if i != ids[2]} == {"sent"}
        assert rows(svc, [ids[2]])[ids[2]] == ("pending", 1)
        svc.clock.advance(seconds=61)
        play.sweep(svc)
    assert sink.connections == 2
    assert set(rows(svc, ids).values()) <= {("sent", 0), ("sent", 1)}
    assert sorted(sink.message_ids()) == sorted(message_ids(svc, ids).values())   # once each


def test_a_relay_gone_mid_batch_leaves_the_rest_waiting_and_sends_them_once_when_back(
        services):
    handler = Sink()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    handler.listening, handler.go_away_after = controller.server, 2
    services.transport = SMTPTransport("127.0.0.1", controller.port)
    ids = queued(services, 3)
    results = play.deliver(services, ids)
    assert [results[i] for i in ids] == ["sent", "sent"] + ["retry"] * 4
    # nothing is left claimed: the rows not sent wait for their next try, which the sweep
    # (or its probe, sooner) takes
    assert [rows(services, ids)[i] for i in ids] == [("sent", 0)] * 2 + [("pending", 1)] * 4
    controller.stop()
    back = Sink()
    again = Controller(back, hostname="127.0.0.1", port=controller.port)
    again.start()
    try:
        services.clock.advance(seconds=61)
        assert set(play.sweep(services).values()) == {"sent"}
        assert sorted(handler.message_ids() + back.message_ids()) == \
            sorted(message_ids(services, ids).values())
        assert back.connections == 1
    finally:
        services.transport.close()
        again.stop()


def test_an_unreachable_relay_is_tried_once_per_batch_not_once_per_row(services, monkeypatch):
    connects = []
    guarded = smtplib.SMTP.connect

    def connect(self, host="localhost", port=0, source_address=None):
        connects.append((host, port))
        return guarded(self, host, port, source_address)

    monkeypatch.setattr(smtplib.SMTP, "connect", connect)
    services.transport = SMTPTransport("127.0.0.1", free_port())     # nothing listens
    ids = queued(services, 3)
    assert set(play.deliver(services, ids).values()) == {"retry"}
    assert len(connects) == 1
    assert set(rows(services, ids).values()) == {("pending", 1)}


def test_the_kept_connection_is_closed_when_idle(services, sink):
    controller, handler = sink
    # a second of idleness: short enough for a test, long enough that a busy machine does not
    # close the connection between the two emails or before the first check (seen at 0.2 s)
    services.transport = SMTPTransport("127.0.0.1", controller.port, keepalive=1.0)
    play.deliver(services, queued(services, 2))
    assert handler.connections == 1 and handler.quits == 0
    deadline = time.monotonic() + 10
    while handler.quits == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert handler.quits == 1
    play.deliver(services, queued(services, 1))       # the next batch: a new connection
    assert handler.connections == 2
    services.transport.close()
    assert handler.quits == 2


def test_the_workers_task_sends_in_batches_over_one_kept_connection(app_factory, sink):
    controller, handler = sink
    app = app_factory(TURNPOST_MAIL_TRANSPORT="smtp", TURNPOST_SMTP_HOST="127.0.0.1",
                      TURNPOST_SMTP_PORT=controller.port)
    for _ in range(3):
        start_game(app, "trees", PEOPLE)
    assert len(handler.messages) == 6 and handler.connections == 1
    assert len(set(handler.message_ids())) == 6
    app.extensions["turnpost"].transport.close()


def test_the_embedded_thread_sends_over_one_connection_and_closes_it_when_it_stops(
        app_factory, sink):
    controller, handler = sink
    app = app_factory(TURNPOST_MAIL_TRANSPORT="smtp", TURNPOST_SMTP_HOST="127.0.0.1",
                      TURNPOST_SMTP_PORT=controller.port, TURNPOST_BACKGROUND="thread",
                      TURNPOST_SWEEP_SECONDS=30)
    background = app.extensions["turnpost.background"]
    for _ in range(2):
        start_game(app, "trees", PEOPLE)
    assert background.drain(10)
    assert len(handler.messages) == 4 and handler.connections == 1 and handler.quits == 0
    background.stop()
    assert handler.quits == 1


def test_a_slow_batch_keeps_all_its_claims_by_heartbeat(services, monkeypatch):
    monkeypatch.setattr(relay, "HEARTBEAT_SECONDS", 0.05)
    ids = queued(services, 2)
    seen = []
    real = services.transport

    class Slow:
        def send(self, msg):
            services.clock.advance(seconds=50)      # four sends: past any claim's minute
            time.sleep(0.3)
            with services.db.transaction() as s:
                seen.append(set(relay.due(s, services.clock.now())) & set(ids))
            return real.send(msg)

    services.transport = Slow()
    assert set(play.deliver(services, ids).values()) == {"sent"}
    assert seen == [set()] * 4, "another worker could have taken rows over mid-batch"


def test_tests_still_cannot_reach_a_real_mail_server_through_the_kept_connection(services):
    transport = SMTPTransport("smtp.example.com", 25)
    msg = EmailMessage()
    msg["To"], msg["Subject"] = "a@example.org", "hello"
    msg.set_content("hi")
    with pytest.raises(AssertionError, match="real mail"):
        transport.send(msg)
    assert transport._kept is None
    # through the relay: the row is not sent, and says why
    services.transport = transport
    ids = queued(services, 1)
    assert set(play.deliver(services, ids).values()) == {"retry"}
    with services.db.transaction() as s:
        assert all("real mail" in s.get(OutboxRow, i).last_error for i in ids)


def test_a_connection_is_not_shared_with_a_forked_child(sink):
    """A kept connection belongs to the process that opened it (prefork workers)."""
    controller, handler = sink
    transport = SMTPTransport("127.0.0.1", controller.port)
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "t@turnpost.test", "a@example.org", "hi"
    msg.set_content("hi")
    transport.send(msg)
    transport._pid = -1                  # as a forked child sees it
    transport.send(msg)
    assert handler.connections == 2
    transport.close()


def test_a_forked_child_leaves_the_parents_owed_answer_on_the_parents_line(sink):
    """A child never reads from its parent's line, not even the answer its parent awaits: it
    opens its own, and the parent's message is, as far as the child knows, not sent."""
    controller, handler = sink
    transport = SMTPTransport("127.0.0.1", controller.port)
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "t@turnpost.test", "a@example.org", "hi"
    msg.set_content("hi")
    parents = transport.hand_over(msg)
    transport._pid = -1                  # as a forked child sees it
    assert transport.send(msg).startswith("2.0.0 Ok")
    assert handler.connections == 2
    if not parents.done:                 # pipelined: the answer was owed at the fork
        with pytest.raises(SendFailed, match="parent"):
            parents.answer()
    transport.close()


def test_a_database_blip_mid_batch_is_waited_out_and_said_once(smtp, monkeypatch, caplog):
    """The database goes away right after the batch's first group (a game's two rows) is
    sent: the next group's rows are loaded again once it is back and sent in the same batch, each email once; the
    log says the database went and came back, one line each, with no traceback."""
    svc, sink = smtp
    monkeypatch.setattr(relay, "LOAD_PAUSES", (0, 0, 0))
    monkeypatch.setattr(relay, "GROUP", 2)      # rows loaded two at a time: a game's two
    ids = queued(svc, 3)
    blips = []

    def away(unit):
        """A unit of work that fails while the database is away: the loads' transactions and
        the marks' statements alike, as when it really goes."""
        def flaky(*args):
            if sink.messages and len(blips) < 2:
                blips.append(1)
                raise OperationalError("SELECT outbox", {},
                                       Exception("server closed the connection"))
            return unit(*args)
        return flaky

    with monkeypatch.context() as patched:
        patched.setattr(svc.db, "transaction", away(svc.db.transaction))
        patched.setattr(svc.db, "autocommit", away(svc.db.autocommit))
        patched.setattr(StatementLine, "execute", away(StatementLine.execute))
        with caplog.at_level("WARNING"):
            results = play.deliver(svc, ids)
    assert set(results.values()) == {"sent"} and len(blips) == 2
    assert sorted(sink.message_ids()) == sorted(message_ids(svc, ids).values())   # once each
    said = [r for r in caplog.records if "database" in r.getMessage()]
    assert [r.getMessage().split(":")[0] for r in said] == ["database is down", "database is back"]
    assert not any(r.exc_info for r in caplog.records)


def test_a_database_that_stays_away_leaves_the_rows_claimed_then_sends_them_once(smtp,
                                                                                 monkeypatch):
    """Past the tries, the rows that could not be loaded keep their claims (nothing can be
    written meanwhile) and the batch goes on; when the claims lapse the sweep sends them,
    once."""
    svc, sink = smtp
    monkeypatch.setattr(relay, "LOAD_PAUSES", (0, 0))
    monkeypatch.setattr(relay, "GROUP", 2)      # rows loaded two at a time: a game's two
    ids = queued(svc, 3)
    real, blips = relay._Sending._load, []

    def away(sending, group):
        # the blips are for the second game's load (marking the first game's rows, each as
        # it goes, must not use them up)
        if sink.messages and len(blips) < 3:
            blips.append(1)
            raise OperationalError("SELECT outbox", {}, Exception("server closed the connection"))
        return real(sending, group)

    monkeypatch.setattr(relay._Sending, "_load", away)
    results = play.deliver(svc, ids)
    monkeypatch.setattr(relay._Sending, "_load", real)
    # three games of two rows: the second game's rows could not be loaded, the others went
    assert len(sink.messages) == 4
    assert [results[i] for i in ids] == ["sent", "sent", "waiting", "waiting", "sent", "sent"]
    assert [rows(svc, ids)[i][0] for i in ids] == ["sent", "sent", "sending", "sending",
                                                   "sent", "sent"]
    svc.clock.advance(seconds=61)               # the claims expire; the sweep takes them over
    assert set(play.sweep(svc).values()) == {"sent"}
    assert sorted(sink.message_ids()) == sorted(message_ids(svc, ids).values())   # once each
