"""The cap on answers a seat gets holds however many of its replies are processed at once:
the count is taken under the game row's lock (service.play.mail.answercap). 100 `help` replies,
4 at a time, once gave 12 answers and two "I will not answer again" on PostgreSQL."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import select

from service.play.mail import intake, replies
from service.store.models import ChatMessage, InboundMessage, OutboxRow
from tests.play.mail.test_replies import mover, reply_to, start

REPLIES = 100
AT_ONCE = 4
LAST_WORDS = "I will not answer again"


@pytest.mark.parametrize("body", ["help", "say good luck\nhelp"])
def test_a_seat_gets_eleven_answers_and_one_notice_however_many_replies_run_at_once(
        client, app, body):
    game_id = start(client)
    _, ours = mover(app)
    svc = app.extensions["turnpost"]
    # the replies are stored, then processed by AT_ONCE threads as worker processes would
    # (answers are counted as rows: nothing is sent meanwhile)
    svc.enqueue = lambda job, *args: None
    stored = [intake.store_raw(svc, reply_to(ours, body), "smtp")[0] for _ in range(REPLIES)]
    with ThreadPoolExecutor(AT_ONCE) as pool:
        results = list(pool.map(lambda row_id: replies.process(svc, row_id), stored))
    assert {r.status for r in results} == {"answered"}, [r.detail for r in results]
    with svc.db.transaction() as s:
        answers = list(s.scalars(select(OutboxRow).where(
            OutboxRow.game_id == game_id, OutboxRow.kind.in_(("answer", "refusal")))))
        failed = s.scalars(select(InboundMessage.outcome)
                           .where(InboundMessage.status == "failed")).all()
    assert failed == []
    assert len(answers) == replies.ANSWERS_PER_HOUR + 1 == 11
    notices = [a for a in answers if LAST_WORDS in a.payload.get("answer", "")]
    assert len(notices) == 1


def test_the_table_gets_ten_messages_an_hour_from_a_seat_however_many_replies_run_at_once(
        client, app):
    """`say` is capped at ANSWERS_PER_HOUR messages to the table an hour; the count is taken
    under the same lock, so replies processed at once cannot each take the last place."""
    game_id = start(client)
    _, ours = mover(app)
    svc = app.extensions["turnpost"]
    svc.enqueue = lambda job, *args: None
    stored = [intake.store_raw(svc, reply_to(ours, f"say hello {n}"), "smtp")[0]
              for n in range(30)]
    with ThreadPoolExecutor(AT_ONCE) as pool:
        results = list(pool.map(lambda row_id: replies.process(svc, row_id), stored))
    assert {r.status for r in results} == {"answered"}, [r.detail for r in results]
    with svc.db.transaction() as s:
        said = s.scalars(select(ChatMessage.text).where(ChatMessage.game_id == game_id)).all()
    assert len(said) == replies.ANSWERS_PER_HOUR == 10
