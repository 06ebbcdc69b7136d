"""Bounces: every email has its own return path (VERP); a delivery report to it, read with
flufl.bounce, mutes that address for every kind of mail, and its table is told on the game
page and in the next email. A temporary failure or a report naming no email of ours changes
nothing."""
from __future__ import annotations

import smtplib
import socket
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from aiosmtpd.controller import Controller
from sqlalchemy import select

from service import play
from service.mailwire.inbound.smtp_receiver import server_options
from service.play import repository
from service.store.models import InboundMessage, OutboxRow, Player
from service.web.cli_inbound import handler
from tests.web.helpers import game_link, latest_to, mails, move_links, start_game, text_of

ANNA, BEN = "anna@example.org", "ben@example.org"
DSN = (Path(__file__).resolve().parents[2] / "mail" / "fixtures" / "bounce.eml").read_bytes()


def report_for(msg, status: bytes = b"5.1.1", action: bytes = b"failed") -> bytes:
    """The fixture's DSN, sent back to this email's own return path, about its recipient."""
    to = msg["Return-Path"].strip("<>").encode()
    return (DSN.replace(b"bounces@turnpost.example", to)
            .replace(b"olduser@example.org", msg["To"].encode())
            .replace(b"Status: 5.1.1", b"Status: " + status)
            .replace(b"Action: failed", b"Action: " + action))


def receive(app, raw: bytes):
    svc = app.extensions["turnpost"]
    play.accept_mail(svc, raw, "smtp")      # embedded: processed in process
    with svc.db.transaction() as s:
        return s.scalars(select(InboundMessage).order_by(InboundMessage.id.desc())).first().status


def test_every_email_has_its_own_bounce_address(app):
    start_game(app, "trees", [ANNA, BEN])
    paths = [m["Return-Path"] for m in mails(app)]
    assert len(set(paths)) == len(paths) and all(
        p.startswith("<bounce+tp.") and p.endswith("@turnpost.test>") for p in paths)


def test_a_hard_bounce_mutes_the_address_everywhere_and_tells_the_table(client, app):
    gid = start_game(app, "trees", [ANNA, BEN]).game_id      # Anna moves first
    svc = app.extensions["turnpost"]
    to_ben = latest_to(app, BEN)
    assert receive(app, report_for(to_ben)) == "bounced"
    with svc.db.transaction() as s:
        assert s.scalars(select(Player).where(Player.email == BEN)).one().bounced_at
        # what an operator reads of it (`flask inbound --status bounced`)
        stored = s.scalars(select(InboundMessage).order_by(InboundMessage.id.desc())).first()
        assert stored.outcome.startswith("hard bounce of outbox row")
    before = len([m for m in mails(app) if m["To"] == BEN])
    # Anna moves (it is Ben's move now) and says something: Ben gets nothing, of any kind
    to_anna = latest_to(app, ANNA)
    assert client.post(move_links(to_anna)[0][1]).status_code == 200
    assert receive(app, reply_to(latest_to(app, ANNA), "say over to you")) == "answered"
    assert len([m for m in mails(app) if m["To"] == BEN]) == before
    with svc.db.transaction() as s:
        kinds = {r.kind: r.status for r in s.scalars(select(OutboxRow).where(
            OutboxRow.to_addr == BEN, OutboxRow.id > 2))}
    assert kinds == {"turn": "skipped", "message": "skipped"}
    # the table is told: on the game page and in Anna's next email (Ben moved on the page)
    page = client.get(game_link(to_anna)).text
    assert "Mail to ben bounced" in page
    play_until_waiting(svc, gid, seat=1)
    assert "Mail to ben bounced" in text_of(latest_to(app, ANNA))
    # and no sign-in link either
    client.post("/sign-in", data={"email": BEN})
    assert len([m for m in mails(app) if m["To"] == BEN]) == before


def reply_to(ours, body: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"] = ours["To"], ours["Reply-To"]
    msg["Subject"] = "Re: " + ours["Subject"]
    msg["Message-ID"] = make_msgid(domain="phone.example")
    msg["In-Reply-To"] = msg["References"] = ours["Message-ID"]
    msg.set_content(body + "\n")
    return msg.as_bytes()


def play_until_waiting(svc, game_id, seat):
    while True:
        with svc.db.transaction() as s:
            pos = repository.load(s, svc.states, game_id)
        if seat not in pos.engine.to_act(pos.state):
            return
        move = pos.engine.legal_moves(pos.state, seat)[0]
        play.submit(svc, play.Intent(game_id, seat, moves=[move], whole_turn=True))


def test_temporary_failures_and_unknown_tokens_change_nothing(app):
    start_game(app, "trees", [ANNA, BEN])
    to_ben = latest_to(app, BEN)
    assert receive(app, report_for(to_ben, b"4.2.2", b"delayed")) == "ignored"
    forged = report_for(to_ben).replace(b"bounce+tp.", b"bounce+tp.0")
    assert receive(app, forged) == "ignored"
    with app.extensions["turnpost"].db.transaction() as s:
        assert s.scalars(select(Player).where(Player.email == BEN)).one().bounced_at is None


def test_the_smtp_receiver_takes_a_report_from_the_null_sender(app):
    """Delivery reports come from the null sender (MAIL FROM:<>) to a bounce+ address."""
    start_game(app, "trees", [ANNA, BEN])
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    controller = Controller(handler(app.extensions["turnpost"]), hostname="127.0.0.1",
                            port=port, **server_options(1024 * 1024))
    controller.start()
    try:
        to_ben = latest_to(app, BEN)
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
            assert smtp.sendmail("<>", [to_ben["Return-Path"].strip("<>")],
                                 report_for(to_ben)) == {}
    finally:
        controller.stop()
    with app.extensions["turnpost"].db.transaction() as s:
        assert s.scalars(select(Player).where(Player.email == BEN)).one().bounced_at


class Inbox:
    def __init__(self):
        self.envelopes = []

    async def handle_DATA(self, server, session, envelope):
        self.envelopes.append(envelope)
        return "250 OK"


def test_over_smtp_the_envelope_sender_is_the_emails_bounce_address(app_factory):
    inbox = Inbox()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        app = app_factory(TURNPOST_MAIL_TRANSPORT="smtp", TURNPOST_SMTP_HOST="127.0.0.1",
                          TURNPOST_SMTP_PORT=port)
        start_game(app, "trees", [ANNA, BEN])
    finally:
        controller.stop()
    assert inbox.envelopes
    for env in inbox.envelopes:
        assert env.mail_from.startswith("bounce+tp.") and env.mail_from.endswith("@turnpost.test")
        assert b"Return-Path" not in env.content         # the receiving server writes its own


def test_a_report_posted_to_the_raw_webhook_mutes_the_address(app_factory):
    app = app_factory(TURNPOST_INBOUND_SECRET="hook-secret")
    start_game(app, "trees", [ANNA, BEN])
    r = app.test_client().post("/inbound/raw", data=report_for(latest_to(app, BEN)),
                               headers={"Authorization": "Bearer hook-secret"})
    assert r.status_code < 300, r.text            # no CSRF token needed: the bearer secret
    with app.extensions["turnpost"].db.transaction() as s:
        assert s.scalars(select(Player).where(Player.email == BEN)).one().bounced_at


def test_an_unsubscribed_seat_hears_no_say_either(client, app):
    start_game(app, "trees", [ANNA, BEN])
    unsub = latest_to(app, BEN)["List-Unsubscribe"].strip("<>").replace("http://turnpost.test", "")
    assert client.post(unsub).status_code == 200
    before = len([m for m in mails(app) if m["To"] == BEN])
    assert receive(app, reply_to(latest_to(app, ANNA), "say hello Ben")) == "answered"
    assert len([m for m in mails(app) if m["To"] == BEN]) == before
