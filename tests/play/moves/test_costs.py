"""What a move and a reply cost in SQL statements (round trips to the database), counted the
way `make bench` counts them: a move that mails two seats in at most 15, a reply email that
applies a move in at most 20, parsed once. Counts, not times: these cannot flake."""
from __future__ import annotations

import random
import re
from contextlib import contextmanager
from email.message import EmailMessage

import pytest
from sqlalchemy import event

from service import play
from service.mailwire.inbound import parse
from service.play import Intent, repository
from service.play.mail import intake, replies
from service.store.models import OutboxRow, Player

PEOPLE = ["anna@example.org", "ben@example.org"]


@contextmanager
def statements(svc):
    seen: list[str] = []

    def count(_conn, _cursor, statement, *_rest):
        seen.append(statement)

    event.listen(svc.db.engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(svc.db.engine, "before_cursor_execute", count)


def next_move(svc, game_id, rng):
    with svc.db.transaction() as s:
        pos = repository.load(s, svc.states, game_id)
    seat = min(pos.engine.to_act(pos.state))
    return pos, seat, pos.engine.bots["easy"](pos.state, seat, rng)


def every_move_mail(svc) -> None:
    """Players who are mailed every move, so that a move mails both seats."""
    with svc.db.transaction() as s:
        for addr in PEOPLE:
            s.add(Player(email=addr.split("<")[-1].strip(" >"), name=addr.split("@")[0],
                         mail_mode="every", created_at=svc.clock.now()))


def test_a_move_that_mails_two_seats_costs_at_most_15_statements(services):
    every_move_mail(services)
    game_id = play.start_game(services, "trees", PEOPLE, {}).game_id
    rng, two_seat_moves = random.Random(5), []
    for _ in range(12):
        _, seat, move = next_move(services, game_id, rng)
        with statements(services) as seen:
            # played by the clock: its seat is mailed too (a player is never mailed their
            # own move), so that a move mails both seats
            applied = play.submit(services, Intent(game_id, seat, moves=[move], source="timer",
                                                   key=f"k{rng.random()}"))
        if len(applied.outbox_ids) == 2:
            two_seat_moves.append(len(seen))
    assert two_seat_moves, "no move mailed both seats"
    assert max(two_seat_moves) <= 15


@pytest.fixture
def parses(monkeypatch):
    count = [0]

    def counted(raw):
        count[0] += 1
        return parse.parse_message(raw)

    monkeypatch.setattr(intake, "parse_message", counted)
    monkeypatch.setattr(replies, "parse_message", counted)
    return count


def test_a_reply_that_applies_a_move_costs_at_most_20_statements_and_one_parse(services,
                                                                               parses):
    game_id = play.start_game(services, "trees", PEOPLE, {}).game_id
    pos, seat, move = next_move(services, game_id, random.Random(5))
    reply = EmailMessage()
    reply["From"], reply["To"] = PEOPLE[seat], services.urls.reply_address(game_id, seat)
    reply["Subject"], reply["Message-ID"] = "Re: your turn", "<r1@phone.example>"
    reply.set_content(pos.engine.describe(move) + "\n\nOn Sunday Turnpost wrote:\n> ...\n")
    with statements(services) as seen:
        row_id, _ = play.accept_mail(services, reply.as_bytes(), "smtp")
        result = play.process_inbound(services, row_id)
    assert result.status == "applied"
    assert len(seen) <= 20
    assert parses[0] == 1


def test_a_move_reads_plans_and_webhooks_only_where_its_lock_read_found_some(services):
    """The move's locked read of its game says whether plans wait and whether a seat's player
    has an active webhook (issue 53): with neither, no statement reads the plans or webhooks
    tables; once one exists, the move reads it and it is honoured (a hook's delivery queued)."""
    from service.play.players import hooks
    game_id = play.start_game(services, "trees", PEOPLE, {}).game_id
    rng = random.Random(5)

    def move_reading() -> tuple[list[str], list[int]]:
        _, seat, move = next_move(services, game_id, rng)
        with statements(services) as seen:
            applied = play.submit(services, Intent(game_id, seat, moves=[move], source="web"))
        # statements of their own (the lock read asks EXISTS of both inside its own)
        touched = [s for s in seen if re.match(r"SELECT (plans|webhooks)\.id\b", s)]
        return touched, applied.outbox_ids

    touched, _ = move_reading()
    assert touched == []
    for addr in PEOPLE:
        hooks.register(services, "https://hooks.example.org/turnpost", email=addr)
    read, queued = [], set()
    for _ in range(8):                  # until a move starts someone's turn (a hook's event)
        touched, outbox_ids = move_reading()
        read += touched
        with services.db.transaction() as s:
            queued |= {s.get(OutboxRow, i).kind for i in outbox_ids}
        if "webhook" in queued:
            break
    assert "webhook" in queued
    assert any(s.startswith("SELECT webhooks.id") for s in read)
