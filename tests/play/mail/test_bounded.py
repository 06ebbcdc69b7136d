"""Bad input that must neither break nor amplify (issue 17, points 1-3): every message is
stored whatever its bytes, each gets one answer at most, a seat gets at most ten an hour,
robots are never answered, and nobody but a seat's own address is ever mailed."""
from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from service import play
from service.play.clock import ManualClock
from service.play.mail import replies
from service.store.models import InboundMessage, OutboxRow
from tests.conftest import T0
from tests.play.mail.test_replies import (
    ADDRS,
    deliver,
    events,
    inbound_status,
    mover,
    reply_to,
    start,
)
from tests.web.helpers import latest_to, mails, move_links, text_of


def answers_to(app, addr):
    return [m for m in mails(app) if m["To"] == addr]


def test_thousands_of_help_lines_get_one_short_answer(client, app):
    start(client)
    addr, ours = mover(app)
    before = len(answers_to(app, addr))
    deliver(app, reply_to(ours, "\n".join(["help"] * 3000)))
    got = answers_to(app, addr)
    assert len(got) == before + 1
    body = text_of(got[-1])
    assert body.count("Every move you can make now") == 1
    assert "I read only the first 20" in body
    assert len(body.splitlines()) < replies.ANSWER_MAX_LINES + 100


def test_say_lines_of_one_email_are_one_message_to_each_player(client, app):
    start(client)
    addr, ours = mover(app)
    other = next(a for a in ADDRS if a != addr)
    before = len(answers_to(app, other))
    deliver(app, reply_to(ours, "say one\nsay two\nsay three"))
    got = answers_to(app, other)
    assert len(got) == before + 1
    assert all(w in text_of(got[-1]) for w in ("one", "two", "three"))


def test_a_seat_gets_ten_answers_an_hour_then_one_notice_then_silence(app_factory):
    clock = ManualClock(T0)
    app = app_factory(TURNPOST_CLOCK=clock)
    start(app.test_client())
    addr, ours = mover(app)
    before = len(answers_to(app, addr))
    for n in range(14):
        deliver(app, reply_to(ours, f"frobnicate {n}"))
    got = answers_to(app, addr)[before:]
    assert len(got) == replies.ANSWERS_PER_HOUR + 1
    # the last answer still refuses its own line (the writer must learn that it did not go
    # in), and says it is the last for an hour
    last = text_of(got[-1])
    assert "frobnicate 10" in last and "Nothing was changed" in last
    assert "will not answer again for an hour" in last
    clock.advance(hours=1, minutes=1)
    deliver(app, reply_to(ours, "frobnicate again"))
    assert len(answers_to(app, addr)) == before + replies.ANSWERS_PER_HOUR + 2


@pytest.mark.parametrize("sender,headers", [
    ("noreply@shop.example", {}),
    ("MAILER-DAEMON@mx.example", {}),
    ("postmaster@mx.example", {}),
    (None, {"Precedence": "bulk"}),
    (None, {"Precedence": "list"}),
    (None, {"Precedence": "junk"}),
    (None, {"List-Id": "<news.example>"}),
    (None, {"Auto-Submitted": "auto-generated"}),
])
def test_robots_are_never_answered(client, app, sender, headers):
    start(client)
    addr, ours = mover(app)
    before = len(mails(app))
    row_id, _ = deliver(app, reply_to(ours, "frobnicate", sender=sender, **headers))
    assert inbound_status(app, row_id)[0] == "ignored"
    assert len(mails(app)) == before


def test_an_address_in_an_encoded_display_name_is_never_mailed(client, app):
    start(client)
    _, ours = mover(app)
    raw = reply_to(ours, "help", sender="=?utf-8?q?victim=40example.net?= <x@evil.test>")
    deliver(app, raw)
    assert latest_to(app, "victim@example.net") is None
    assert latest_to(app, "x@evil.test") is None


def _swap(raw: bytes, name: bytes, value: bytes) -> bytes:
    head, _, body = raw.partition(b"\n\n")
    lines = [ln for ln in head.split(b"\n") if not ln.lower().startswith(name.lower() + b":")]
    return b"\n".join([*lines, name + b": " + value]) + b"\n\n" + body


def test_a_non_utf8_message_id_is_stored_and_its_move_applied(client, app):
    start(client)
    addr, ours = mover(app)
    raw = _swap(reply_to(ours, move_links(ours)[0][0]), b"Message-ID", b"<\xff\xfeodd@phone.example>")
    before = events(app)
    row_id, new = deliver(app, raw)
    assert new and inbound_status(app, row_id)[0] == "applied" and events(app) > before
    with app.extensions["turnpost"].db.transaction() as s:
        assert s.get(InboundMessage, row_id).raw == raw
    assert deliver(app, raw) == (row_id, False), "the same bytes again: a duplicate"


def test_odd_bytes_in_references_and_a_nul_in_the_body_do_not_drop_the_move(client, app):
    start(client)
    _, ours = mover(app)
    raw = reply_to(ours, move_links(ours)[0][0] + "\n\x00")
    raw = _swap(raw, b"References", b"<\xc3(bad@x.example> " + ours["Message-ID"].encode())
    before = events(app)
    row_id, _ = deliver(app, raw)
    assert inbound_status(app, row_id)[0] == "applied" and events(app) > before


def test_a_cr_lf_in_in_reply_to_never_reaches_our_headers(client, app):
    start(client)
    addr, ours = mover(app)
    raw = _swap(reply_to(ours, "help"), b"Message-ID", b"<a\rBcc: victim@example.net@x>")
    deliver(app, raw)
    answer = latest_to(app, addr)
    assert "Every move" in text_of(answer)
    assert "victim" not in str(answer["In-Reply-To"]) and answer["Bcc"] is None
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(OutboxRow)
                        .where(OutboxRow.status != "sent")) == 0


def test_mail_for_an_unknown_token_is_cut_kept_a_week_then_deleted(app_factory):
    clock = ManualClock(T0)
    app = app_factory(TURNPOST_CLOCK=clock, TURNPOST_INBOUND_UNKNOWN_MAX_BYTES=1000)
    raw = (b"From: someone@example.org\r\nTo: play+abcdefgh@turnpost.test\r\nSubject: x\r\n"
           b"Message-ID: <big@example.org>\r\n\r\n" + b"y" * 50_000)
    sent = len(mails(app))
    row_id, _ = deliver(app, raw)
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        row = s.get(InboundMessage, row_id)
        assert len(row.raw) == 1000 and row.status == "ignored"
    assert len(mails(app)) == sent
    clock.advance(days=6)
    play.sweep(svc)
    with svc.db.transaction() as s:
        assert s.get(InboundMessage, row_id) is not None
    clock.advance(days=2)
    play.sweep(svc)
    with svc.db.transaction() as s:
        assert s.get(InboundMessage, row_id) is None


def test_the_seat_owner_sees_attempts_from_other_addresses_on_the_page(client, app):
    start(client)
    addr, ours = mover(app)
    deliver(app, reply_to(ours, move_links(ours)[0][0], sender="mallory@evil.example"))
    page = client.get(_game_path(ours)).get_data(as_text=True)
    assert "mallory@evil.example" in page and "not yours" in page


def _game_path(msg) -> str:
    from tests.web.helpers import game_link
    return game_link(msg)


def test_a_warning_a_day_at_most(app_factory):
    clock = ManualClock(T0)
    app = app_factory(TURNPOST_CLOCK=clock)
    start(app.test_client())
    addr, ours = mover(app)
    before = len(answers_to(app, addr))
    for _ in range(3):
        deliver(app, reply_to(ours, "help", sender="mallory@evil.example"))
    assert len(answers_to(app, addr)) == before + 1
    clock.advance(days=1, minutes=1)
    deliver(app, reply_to(ours, "help", sender="mallory@evil.example"))
    assert len(answers_to(app, addr)) == before + 2
    assert timedelta(days=1) == replies.WARN_EVERY


def test_a_forged_reference_to_our_domain_does_not_keep_a_big_message(app_factory):
    app = app_factory(TURNPOST_INBOUND_UNKNOWN_MAX_BYTES=1000)
    raw = (b"From: someone@example.org\r\nTo: play+abcdefgh@turnpost.test\r\nSubject: x\r\n"
           b"Message-ID: <big2@example.org>\r\nReferences: <game-1@turnpost.test> "
           b"<tp.000000000000000000000000@turnpost.test>\r\n\r\n" + b"y" * 50_000)
    row_id, _ = deliver(app, raw)
    with app.extensions["turnpost"].db.transaction() as s:
        assert len(s.get(InboundMessage, row_id).raw) == 1000


def test_a_seat_says_ten_things_an_hour_to_the_table_at_most(client, app):
    start(client)
    addr, ours = mover(app)
    other = next(a for a in ADDRS if a != addr)
    before = len(answers_to(app, other))
    for n in range(12):
        deliver(app, reply_to(ours, f"say hello {n}"))
    assert len(answers_to(app, other)) == before + replies.ANSWERS_PER_HOUR
    assert "not passed on" in text_of(answers_to(app, addr)[-1])
