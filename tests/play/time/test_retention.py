"""The daily prune (service.play.time.sweep.retention): receipts and sent emails' outbox rows
older than their retention go; what a later press, reply or email may still read stays, and a
move is still made once. Players' account changes and sign-in links go once nothing can use
them."""
from __future__ import annotations

import dataclasses
import random
from datetime import timedelta
from email.message import EmailMessage

import pytest
from sqlalchemy import func, select

from service import play
from service.play import Intent, notify
from service.play.clock import ManualClock
from service.play.players import accounts, readdress
from service.store.models import (
    AccountChange,
    EventRow,
    InboundMessage,
    OutboxRow,
    SignIn,
    Submission,
)
from service.store.statuses import OutboxStatus
from tests.conftest import T0
from tests.play.time.helpers import position, start
from workers.tasks import prune_old_rows


@pytest.fixture
def svc(services):
    return services


def retain(svc, **days):
    svc.settings = dataclasses.replace(svc.settings, **days)


def move(svc, game_id, key):
    """The seat to act makes its first legal move with this idempotency key; the intent, to
    send again."""
    pos = position(svc, game_id)
    seat = min(pos.engine.to_act(pos.state))
    intent = Intent(game_id, seat, moves=[pos.engine.legal_moves(pos.state, seat)[0]],
                    expected_seq=pos.seq, source="link", key=key, whole_turn=True)
    svc.chance = random.Random(len(key))
    play.submit(svc, intent)
    return intent


def send_all(svc):
    while play.deliver(svc, [], fill=True):
        pass


def receipts(svc):
    with svc.db.transaction() as s:
        return sorted(k.split(":", 1)[1] for k in s.scalars(select(Submission.key)))


def events(svc, game_id):
    with svc.db.transaction() as s:
        return s.scalar(select(func.count()).select_from(EventRow)
                        .where(EventRow.game_id == game_id))


def outbox(svc):
    with svc.db.transaction() as s:
        return {r.id: (r.seat, r.kind, r.status) for r in s.scalars(select(OutboxRow))}


def test_receipts_past_the_retention_go_and_the_kept_ones_still_answer_already_done(svc):
    game = start(svc).game_id
    old = move(svc, game, "old")
    svc.clock.advance(timedelta(days=50))
    recent = move(svc, game, "recent")
    svc.clock.advance(timedelta(days=45))          # "old" is 95 days old, "recent" 45

    assert play.prune(svc).receipts == 1
    assert receipts(svc) == ["recent"]
    logged = events(svc, game)
    with pytest.raises(play.AlreadyDone):          # kept: the same answer as before
        play.submit(svc, recent)
    # gone: its link would have expired (TURNPOST_LINK_MAX_AGE_DAYS); sent again anyway, it is
    # turned down by the position it was made for, never made twice
    with pytest.raises(play.PlayError):
        play.submit(svc, old)
    assert events(svc, game) == logged
    assert play.prune(svc).receipts == 0           # nothing more is due


def test_a_retention_shorter_than_a_link_s_life_keeps_receipts_as_long_as_the_links_work(svc):
    retain(svc, RECEIPT_RETENTION_DAYS=30, LINK_MAX_AGE_DAYS=90)
    game = start(svc).game_id
    move(svc, game, "pressed")
    svc.clock.advance(timedelta(days=60))
    assert play.prune(svc).receipts == 0
    svc.clock.advance(timedelta(days=31))
    assert play.prune(svc).receipts == 1


def test_a_pass_goes_through_every_game_a_slice_at_a_time(svc):
    games = [start(svc, seed=n).game_id for n in range(3)]
    for game in games:
        move(svc, game, f"g{game}")
    send_all(svc)
    svc.clock.advance(timedelta(days=100))
    assert play.prune(svc, games=2).receipts == 3
    assert receipts(svc) == []


def test_zero_days_keeps_everything(svc):
    retain(svc, RECEIPT_RETENTION_DAYS=0, OUTBOX_RETENTION_DAYS=0, INBOUND_RETENTION_DAYS=0)
    game = start(svc).game_id
    move(svc, game, "a")
    send_all(svc)
    svc.clock.advance(timedelta(days=1000))
    assert play.prune(svc) == play.Pruned(0, 0, 0)
    assert receipts(svc) == ["a"]


def test_old_sent_emails_go_but_each_seat_keeps_the_turn_email_its_next_news_starts_from(svc):
    game = start(svc).game_id
    for n in range(4):
        move(svc, game, f"m{n}")
    send_all(svc)
    before = outbox(svc)
    svc.clock.advance(timedelta(days=100))
    move(svc, game, "late")                        # its turn email is queued, not sent yet
    (pending,) = [i for i, (_, _, status) in outbox(svc).items() if status == "pending"]
    waiting_seat = outbox(svc)[pending][0]
    with svc.db.transaction() as s:
        news_from = notify.since(s, s.get(OutboxRow, pending))

    pruned = play.prune(svc).outbox
    kept = outbox(svc)
    # the waiting seat's earlier emails may still be read by the one waiting: all kept
    assert {i for i, (seat, _, _) in before.items() if seat == waiting_seat} <= kept.keys()
    # the other seat keeps its newest turn email alone
    other = sorted(i for i, (seat, kind, _) in before.items()
                   if seat != waiting_seat and kind == "turn")
    assert len(other) > 1 and pruned == len(other) - 1
    assert [i for i in other if i in kept] == other[-1:]
    with svc.db.transaction() as s:
        assert notify.since(s, s.get(OutboxRow, pending)) == news_from

    send_all(svc)                                  # the late email sent: the seat's older ones go
    svc.clock.advance(timedelta(days=100))
    play.prune(svc)
    assert sorted(outbox(svc)) == sorted([other[-1], pending])


def test_unsent_and_recent_rows_are_kept_whatever_their_age(svc):
    game = start(svc).game_id
    move(svc, game, "a")
    send_all(svc)
    with svc.db.transaction() as s:
        parked = s.scalars(select(OutboxRow).order_by(OutboxRow.id)).first()
        parked.status = OutboxStatus.PARKED
    svc.clock.advance(timedelta(days=365))
    play.prune(svc)
    assert outbox(svc)[parked.id][2] == OutboxStatus.PARKED


def test_sent_emails_younger_than_the_retention_are_kept(svc):
    """Bounces, auto-replies and replies without their address find their game by a sent
    row's Message-ID for the whole retention."""
    game = start(svc).game_id
    send_all(svc)
    svc.clock.advance(timedelta(days=80))
    move(svc, game, "a")
    send_all(svc)
    before = outbox(svc)
    assert play.prune(svc).outbox == 0 and outbox(svc) == before


def test_beat_prunes_daily_and_flask_prune_does_it_by_hand(app_factory):
    """The daily beat entry runs the task, and the task and `flask prune` delete what is past
    its retention."""
    clock = ManualClock(T0)
    app = app_factory(TURNPOST_CLOCK=clock)
    celery = app.extensions["celery"]
    assert celery.conf.beat_schedule["prune"]["task"] == prune_old_rows.name
    assert celery.conf.beat_schedule["prune"]["schedule"] == 24 * 3600
    svc = app.extensions["turnpost"]
    game = start(svc).game_id
    move(svc, game, "a")
    move(svc, game, "b")
    send_all(svc)
    clock.advance(days=200)
    with app.app_context():
        assert celery.tasks[prune_old_rows.name].delay().get() == {
            "outbox": 1, "receipts": 2, "inbound": 0, "account_changes": 0, "sign_ins": 0}
        move(svc, game, "c")       # its email, sent, carries on from the seat's kept one
        clock.advance(days=200)
        result = app.test_cli_runner().invoke(args=["prune"])
    assert result.output == ("deleted 1 outbox rows, 1 receipts, 0 stored replies, 0 "
                             "account changes and 0 sign-in links\n"), \
        result.output


def reply(svc, game_id, message_id):
    """A reply with the seat to act's first legal move, stored and processed."""
    pos = position(svc, game_id)
    seat = min(pos.engine.to_act(pos.state))
    mail = EmailMessage()
    mail["From"] = ["anna@example.org", "ben@example.org"][seat]
    mail["To"] = svc.urls.reply_address(game_id, seat)
    mail["Subject"], mail["Message-ID"] = "Re: your turn", f"<{message_id}@phone.example>"
    mail.set_content(pos.engine.describe(pos.engine.legal_moves(pos.state, seat)[0]) + "\n")
    row_id, new = play.accept_mail(svc, mail.as_bytes(), "smtp")
    if new:
        play.process_inbound(svc, row_id)
    return mail.as_bytes(), row_id, new


def stored(svc):
    with svc.db.transaction() as s:
        return {r.message_id: r.status for r in s.scalars(select(InboundMessage))}


def test_processed_replies_past_the_retention_go_failed_ones_stay(svc):
    game = start(svc).game_id
    old, _, _ = reply(svc, game, "old")
    with svc.db.transaction() as s:            # one an operator is still to look at
        s.add(InboundMessage(message_id="broken@x", raw=b"x", via="smtp", status="failed",
                             received_at=svc.clock.now()))
    svc.clock.advance(timedelta(days=50))
    recent, _, _ = reply(svc, game, "recent")
    logged = events(svc, game)
    assert set(stored(svc).values()) == {"applied", "failed"}
    svc.clock.advance(timedelta(days=45))

    assert play.prune(svc).inbound == 1
    assert stored(svc) == {"recent@phone.example": "applied", "broken@x": "failed"}
    # kept: a redelivery is told by its Message-ID, and not read again
    assert play.accept_mail(svc, recent, "smtp")[1] is False
    # gone: stored again and read again, and its reply address has expired: it moves nothing
    row_id, new = play.accept_mail(svc, old, "smtp")
    assert new
    play.process_inbound(svc, row_id)
    assert events(svc, game) == logged


def test_account_changes_and_sign_in_links_go_once_nothing_can_use_them(svc):
    """An unconfirmed change of address goes once its link's hour is up; a confirmed one stays
    with the account (an erasure must find the old address wherever it is still written); a
    sign-in link's row goes a week after it expired."""
    start(svc)
    with svc.db.transaction() as s:
        anna = s.scalar(select(func.min(OutboxRow.to_addr)))
    player = readdress.move(svc, anna, "anna@moved.example").player_id
    readdress.request(svc, player, "anna@third.example")
    accounts.request_sign_in(svc, "anna@moved.example", "nonce")

    def kinds():
        with svc.db.transaction() as s:
            return (sorted(c.used_at is not None for c in s.scalars(select(AccountChange))),
                    s.scalar(select(func.count()).select_from(SignIn)))

    assert play.prune(svc).account_changes == 0
    svc.clock.advance(timedelta(hours=2))
    assert (play.prune(svc).account_changes, kinds()) == (1, ([True], 1))
    svc.clock.advance(timedelta(days=7))
    assert play.prune(svc).sign_ins == 1
    svc.clock.advance(timedelta(days=1000))
    assert (play.prune(svc).account_changes, kinds()) == (0, ([True], 0))
