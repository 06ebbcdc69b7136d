"""Muting only on evidence about the address (issue 40): a relay that refuses every recipient
for a moment ("554 5.7.1 Relay access denied", "500 Error") mutes nobody, its emails wait and
go when it recovers, and the players' next emails are sent, not skipped; the same address
refused with 5.1.x on two separate days is muted like a hard bounce; the sweep's probe after
an outage goes past a refused address; an operator's retry brings back a seat muted in error
by the old rule."""
from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from service import play
from service.mailwire.outbound.transports import SendRefused, SMTPTransport, enhanced_code
from service.play import repository
from service.play.mail import relayrefusals
from service.store.models import AddressRefusal, OutboxRow, Player, Seat
from tests.mail.test_relay_fanout import PEOPLE, Sink, queued, relay_at, rows

CARL = "carl@example.org"


class Refusing(Sink):
    """The fan-out tests' relay, which can also answer every RCPT with one refusal (the relay
    that stopped trusting us), or refuse some addresses with an answer of their own."""

    def __init__(self, pipelining: bool = False):
        super().__init__(pipelining)
        self.refuse_all: str | None = None
        self.answers: dict[str, str] = {}

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.refuse_all is not None:
            return self.refuse_all
        if address in self.answers:
            return self.answers[address]
        return await super().handle_RCPT(server, session, envelope, address, rcpt_options)


@pytest.fixture(params=[False, True], ids=["one command at a time", "pipelined"])
def relay(services, request):
    handler = Refusing(pipelining=request.param)
    with relay_at(handler) as controller:
        services.transport = SMTPTransport("127.0.0.1", controller.port)
        yield services, handler
        services.transport.close()


def observed(svc) -> list[tuple[str, dict]]:
    seen: list[tuple[str, dict]] = []
    svc.observe = lambda what, **labels: seen.append((what, labels))
    return seen


def muted_seats(svc) -> int:
    with svc.db.transaction() as s:
        return s.scalar(select(func.count()).select_from(Seat).where(Seat.muted.is_(True)))


def bounced(svc, addr: str) -> bool:
    with svc.db.transaction() as s:
        return s.scalar(select(Player.bounced_at).where(Player.email == addr)) is not None


def move_everyone_due(svc, game_ids: list[int]) -> list[int]:
    """Each game's seat to act makes its first legal move; the outbox rows that made."""
    made = []
    for gid in game_ids:
        with svc.db.transaction() as s:
            pos = repository.load(s, svc.states, gid)
        seat = min(pos.engine.to_act(pos.state))
        move = pos.engine.legal_moves(pos.state, seat)[0]
        made += play.submit(svc, play.Intent(gid, seat, moves=[move], whole_turn=True)).outbox_ids
    return made


@pytest.mark.parametrize("answer", ["554 5.7.1 <anna@example.org>: Relay access denied",
                                    "500 Error"])
def test_a_relay_refusing_every_recipient_mutes_nobody_and_its_mail_goes_when_it_recovers(
        relay, answer, caplog):
    svc, sink = relay
    seen = observed(svc)
    sink.refuse_all = answer
    ids = queued(svc, 5)
    with caplog.at_level(logging.WARNING):
        results = play.deliver(svc, ids)
    assert set(results.values()) == {"retry"}
    assert set(rows(svc, ids).values()) == {("pending", 1)}      # waiting on the schedule
    assert muted_seats(svc) == 0 and not bounced(svc, PEOPLE[0])
    # the operator is told: one line for the outage, and a count per email on /metrics
    down = [r.getMessage() for r in caplog.records if "mail relay is down" in r.getMessage()]
    assert len(down) == 1 and answer.split()[0] in down[0]
    assert seen.count(("relay_refusal", {"about": "relay"})) == len(ids)
    with svc.db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(AddressRefusal)) == 0

    sink.refuse_all = None                  # the relay trusts us again
    svc.clock.advance(seconds=20)           # before the rows' next try: the probe finds it
    assert set(play.sweep(svc).values()) == {"sent"}
    assert set(rows(svc, ids).values()) == {("sent", 1)}
    # the games go on: everyone's next turn email is sent, not skipped
    after = move_everyone_due(svc, sorted(set(_games(svc, ids))))
    assert after and {status for status, _ in rows(svc, after).values()} == {"pending"}
    assert set(play.deliver(svc, after).values()) == {"sent"}


def _games(svc, ids) -> list[int]:
    with svc.db.transaction() as s:
        return [s.get(OutboxRow, i).game_id for i in ids]


def test_a_policy_refusal_of_an_emails_data_waits_for_its_retry_and_mutes_nobody(relay):
    svc, sink = relay
    sink.refuse_data.add(1)                 # "554 5.7.1 message content rejected"
    ids = queued(svc, 1)
    results = play.deliver(svc, ids)
    assert sorted(results.values()) == ["retry", "sent"]
    with svc.db.transaction() as s:
        assert any("554 5.7.1" in (s.get(OutboxRow, i).last_error or "") for i in ids)
    assert muted_seats(svc) == 0


def test_every_address_of_a_batch_refused_with_5_1_1_is_the_relays_trouble(relay):
    """A relay whose recipient check went wrong refuses everyone with 5.1.1: nothing of the
    batch was taken, so nothing is evidence against any address."""
    svc, sink = relay
    sink.refuse_all = "550 5.1.1 no such user here"
    ids = queued(svc, 2)
    assert set(play.deliver(svc, ids).values()) == {"retry"}
    with svc.db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(AddressRefusal)) == 0
    assert muted_seats(svc) == 0


def test_an_address_refused_with_5_1_1_on_two_separate_days_is_muted(relay):
    svc, sink = relay
    sink.answers[PEOPLE[1]] = "550 5.1.1 <ben@example.org>: Recipient address rejected"
    ids = queued(svc, 2)                    # ben twice today, anna taken meanwhile
    results = play.deliver(svc, ids)
    assert {results[i] for i, to in _to(svc, ids).items() if to == PEOPLE[1]} == {"parked"}
    assert not bounced(svc, PEOPLE[1]) and muted_seats(svc) == 0     # one day is not enough

    svc.clock.advance(days=1)
    more = queued(svc, 1)
    play.deliver(svc, more)
    assert bounced(svc, PEOPLE[1]) and not bounced(svc, PEOPLE[0])
    # from now on ben gets nothing; anna still does
    later = queued(svc, 1)
    assert {to: rows(svc, [i])[i][0] for i, to in _to(svc, later).items()} == \
        {PEOPLE[0]: "pending", PEOPLE[1]: "skipped"}


def _to(svc, ids) -> dict[int, str]:
    with svc.db.transaction() as s:
        return {i: s.get(OutboxRow, i).to_addr for i in ids}


def test_the_probe_after_an_outage_goes_past_a_refused_address(relay):
    """The first row waiting is for an address the relay refuses: it is parked, and the
    probe goes on to the next, which goes through and takes every waiting row with it."""
    svc, sink = relay
    sink.refuse_all = "421 4.3.2 try again later"          # the outage
    ids = queued(svc, 5)
    assert set(play.deliver(svc, ids).values()) == {"retry"}
    first = min(ids)
    sink.refuse_all = None
    sink.answers[_to(svc, [first])[first]] = "550 5.1.1 no such user here"
    svc.clock.advance(seconds=20)           # before the next try: only the probe sends
    results = play.sweep(svc)
    assert results[first] == "parked"
    bad = _to(svc, [first])[first]
    assert {results[i] for i, to in _to(svc, ids).items() if to != bad} == {"sent"}


def test_an_operators_retry_unmutes_a_seat_the_relay_muted_in_error_and_its_game_goes_on(
        services):
    """Before evidence was needed, any refusal parked the email and muted its seat, and the
    seat's next turn emails were skipped. Retrying the parked email unmutes the seat and
    queues its latest turn email again (what the player expects: their mail, the game on)."""
    ids = queued(services, 1)
    with services.db.transaction() as s:
        row = s.get(OutboxRow, ids[1])
        row.status, row.attempts = "parked", 1
        row.last_error = f"recipient refused: {row.to_addr}: 554 5.7.1 Relay access denied"
        s.get(Seat, (row.game_id, row.seat)).muted = True
        game_id, seat = row.game_id, row.seat
    skipped = move_everyone_due(services, [game_id])
    with services.db.transaction() as s:
        theirs = [i for i in skipped if s.get(OutboxRow, i).seat == seat]
    assert theirs and {rows(services, [i])[i][0] for i in theirs} == {"skipped"}
    requeued = play.requeue(services, [ids[1]])
    assert requeued == [ids[1], max(theirs)]
    with services.db.transaction() as s:
        assert not s.get(Seat, (game_id, seat)).muted
    assert set(play.deliver(services, requeued).values()) == {"sent"}


def test_an_operators_retry_leaves_a_seat_its_player_muted_alone(services):
    ids = queued(services, 1)
    with services.db.transaction() as s:
        row = s.get(OutboxRow, ids[1])
        row.status, row.attempts, row.last_error = "parked", 6, "SMTPServerDisconnected: gone"
        s.get(Seat, (row.game_id, row.seat)).muted = True      # its unsubscribe link
        key = (row.game_id, row.seat)
    assert play.requeue(services, [ids[1]]) == [ids[1]]
    with services.db.transaction() as s:
        assert s.get(Seat, key).muted


@pytest.mark.parametrize("answer, code, about_address", [
    ("5.1.1 <ben@example.org>: Recipient address rejected: User unknown", "5.1.1", True),
    ("5.1.10 Recipient address rejected: null MX", "5.1.10", True),
    ("5.7.1 <ben@example.org>: Relay access denied", "5.7.1", False),
    ("Error", None, False),
    ("no such user 5.1.1", None, False),
])
def test_only_a_5_1_x_code_says_a_refusal_is_about_the_address(answer, code, about_address):
    assert enhanced_code(answer) == code
    assert SendRefused("x", recipient=True, answer=answer).about_address is about_address
    assert not SendRefused("x", answer=answer).about_address        # the data's refusal
    last_error = f"recipient refused: ben@example.org: 550 {answer}"
    assert relayrefusals.about_address(last_error) is about_address


def test_the_evidence_counts_days_not_refusals(services):
    now = services.clock.now()
    with services.db.transaction() as s:
        assert not relayrefusals.record(s, CARL, "550 5.1.1", now)
        assert not relayrefusals.record(s, CARL.upper(), "550 5.1.1", now + timedelta(hours=3))
        assert relayrefusals.record(s, CARL, "550 5.1.1", now + timedelta(days=1))
    assert bounced(services, CARL)
