"""Moves by reply: a player answers the turn email with text commands. Applied like a click,
refused with a reply in the game's thread that quotes the line and says what would work, and
robots, strangers and duplicates change nothing."""
from __future__ import annotations

from email import policy
from email.message import EmailMessage
from email.utils import make_msgid

from sqlalchemy import func, select

from service import play
from service.play.mail import intake, replies
from service.store.models import EventRow, InboundMessage
from tests.web.helpers import latest_to, mails, move_links, start_game, text_of

ADDRS = ["anna@example.org", "ben@example.org"]


def start(client):
    return start_game(client.application, "trees", ADDRS).game_id


def reply_to(ours, body: str, sender: str | None = None, *, wire: bool = False,
             **headers) -> bytes:
    """A reply as a phone mail app writes it: commands on top, our email quoted below.

    `wire` gives it CRLF line ends, as a client sends it over SMTP: smtplib sends bytes as they
    are, and a message in bare LF is one line to the receiver, refused over 1,000 bytes."""
    msg = EmailMessage()
    msg["From"] = sender or ours["To"]
    msg["To"] = ours["Reply-To"]
    msg["Subject"] = "Re: " + ours["Subject"]
    msg["Message-ID"] = make_msgid(domain="phone.example")
    msg["In-Reply-To"] = ours["Message-ID"]
    msg["References"] = f'{ours["References"]} {ours["Message-ID"]}'
    for k, v in headers.items():
        msg[k.replace("_", "-")] = v
    quoted = "\n".join("> " + line for line in text_of(ours).splitlines()[:12])
    msg.set_content(f"{body}\n\nOn Sun, Nov 22, 2026 at 3:14 PM Turnpost wrote:\n{quoted}\n")
    return msg.as_bytes(policy=policy.SMTP) if wire else msg.as_bytes()


def mover(app):
    for addr in ADDRS:
        msg = latest_to(app, addr)
        if move_links(msg):
            return addr, msg
    raise AssertionError("nobody to move")


def events(app):
    with app.extensions["turnpost"].db.transaction() as s:
        return s.scalar(select(func.count()).select_from(EventRow))


def deliver(app, raw: bytes, via="smtp"):
    with app.app_context():
        return play.accept_mail(app.extensions["turnpost"], raw, via)


def inbound_status(app, row_id):
    with app.extensions["turnpost"].db.transaction() as s:
        row = s.get(InboundMessage, row_id)
        return row.status, row.outcome


def test_a_reply_with_a_command_makes_the_move_and_mails_the_next_turn(client, app):
    start(client)
    addr, ours = mover(app)
    command = move_links(ours)[0][0]
    before_events, before_mails = events(app), len(mails(app))
    row_id, new = deliver(app, reply_to(ours, command))
    assert new and inbound_status(app, row_id)[0] == "applied"
    assert events(app) > before_events
    assert len(mails(app)) > before_mails
    other = next(a for a in ADDRS if a != addr)
    assert "YOUR TURN" in text_of(latest_to(app, other)) or "GAME OVER" in text_of(latest_to(app, other))


def test_the_same_message_delivered_twice_is_processed_once(client, app):
    start(client)
    _, ours = mover(app)
    raw = reply_to(ours, move_links(ours)[0][0])
    first, new = deliver(app, raw)
    after = events(app), len(mails(app))
    again, new2 = deliver(app, raw, via="imap")
    assert (again, new2) == (first, False)
    assert (events(app), len(mails(app))) == after


def test_a_bad_line_is_answered_in_the_thread_with_suggestions_and_changes_nothing(client, app):
    start(client)
    addr, ours = mover(app)
    good = move_links(ours)[0][0]
    before = events(app)
    row_id, _ = deliver(app, reply_to(ours, f"{good}\nplay the sailer under the mil"))
    assert inbound_status(app, row_id)[0] == "refused"
    assert events(app) == before, "all lines or none"
    answer = latest_to(app, addr)
    body = text_of(answer)
    assert "Nothing was changed" in body and "play the sailer under the mil" in body
    assert answer["In-Reply-To"].startswith("<") and "phone.example" in answer["In-Reply-To"]
    assert answer["Auto-Submitted"] == "auto-replied"


def test_auto_replies_and_bounces_are_recorded_and_never_answered(client, app):
    start(client)
    _, ours = mover(app)
    before = len(mails(app))
    ooo = reply_to(ours, "I am out of the office until Monday.", Auto_Submitted="auto-replied")
    row_id, _ = deliver(app, ooo)
    # an out-of-office reply is not answered: its player gets one new email offering a
    # vacation (tests/play/mail/test_away_offers.py), not a reply to the robot's message
    assert inbound_status(app, row_id)[0] == "offered"
    offer = mails(app)[before:]
    assert len(offer) == 1 and "phone.example" not in (offer[0]["In-Reply-To"] or "")
    # any other robot gets nothing at all
    robot = reply_to(ours, "Your message was received.", sender="no-reply@example.org")
    row_id, _ = deliver(app, robot)
    assert inbound_status(app, row_id)[0] == "ignored"
    assert len(mails(app)) == before + 1


def test_a_stranger_cannot_move_for_a_player_and_gets_no_mail(client, app):
    start(client)
    addr, ours = mover(app)
    before, sent = events(app), len(mails(app))
    raw = reply_to(ours, move_links(ours)[0][0], sender="mallory@evil.example")
    row_id, _ = deliver(app, raw)
    assert inbound_status(app, row_id)[0] == "stranger"
    assert events(app) == before
    # no backscatter: the claimed sender is never mailed
    assert latest_to(app, "mallory@evil.example") is None
    # the seat's owner hears of it, once a day at most
    warning = latest_to(app, addr)
    assert "mallory@evil.example" in text_of(warning) and len(mails(app)) == sent + 1
    deliver(app, reply_to(ours, "help", sender="mallory@evil.example"))
    assert len(mails(app)) == sent + 1


def test_a_reply_to_an_old_email_is_refused_with_the_fresh_view(client, app):
    start(client)
    addr, ours = mover(app)
    client.post(move_links(ours)[0][1])           # the player clicks a link first...
    before = events(app)
    row_id, _ = deliver(app, reply_to(ours, move_links(ours)[1][0]))   # ...then replies to it
    status, outcome = inbound_status(app, row_id)
    assert status == "refused" and events(app) == before
    body = text_of(latest_to(app, addr))
    assert "moved on" in body or "not" in body
    assert "Trees in play".upper() in body.upper() or "hand" in body.lower()


def test_help_view_and_say(client, app):
    start(client)
    addr, ours = mover(app)
    other = next(a for a in ADDRS if a != addr)
    deliver(app, reply_to(ours, "help"))
    helped = text_of(latest_to(app, addr))
    assert "Every move you can make now" in helped
    assert move_links(ours)[0][0] in helped
    deliver(app, reply_to(ours, "say good luck, Ben!"))
    assert "good luck, Ben!" in text_of(latest_to(app, other))
    deliver(app, reply_to(ours, "view"))
    assert "Here is the game as it stands" in text_of(latest_to(app, addr))


def test_an_empty_reply_is_told_what_to_write(client, app):
    start(client)
    addr, ours = mover(app)
    row_id, _ = deliver(app, reply_to(ours, ""))
    assert inbound_status(app, row_id)[0] == "refused"
    assert "Nothing was changed" in text_of(latest_to(app, addr))


def test_the_game_is_found_from_in_reply_to_when_the_reply_address_is_lost(client, app):
    start(client)
    addr, ours = mover(app)
    raw = reply_to(ours, move_links(ours)[0][0])
    raw = raw.replace(ours["Reply-To"].encode(), b"turnpost@turnpost.test")
    before = events(app)
    row_id, _ = deliver(app, raw)
    assert inbound_status(app, row_id)[0] == "applied" and events(app) > before


def test_malformed_mail_for_no_game_is_kept_without_a_crash_and_not_answered(client, app):
    start(client)
    raw = (b"From: anna@example.org\r\nTo: play+zzzz@turnpost.test\r\nSubject: hi\r\n"
           b"Content-Type: multipart/mixed; boundary=\"nope\"\r\n\r\n--wrong\r\n\xff\xfe garbage")
    sent = len(mails(app))
    row_id, new = deliver(app, raw)
    assert new
    status, _ = inbound_status(app, row_id)
    assert status == "ignored"
    with app.extensions["turnpost"].db.transaction() as s:
        assert s.get(InboundMessage, row_id).raw == raw
    assert len(mails(app)) == sent


def test_a_message_that_breaks_processing_is_parked_as_failed_not_retried(client, app, monkeypatch):
    start(client)
    _, ours = mover(app)
    monkeypatch.setattr(replies, "_decide", lambda *a, **k: 1 / 0)
    row_id, _ = deliver(app, reply_to(ours, "anything"))
    status, outcome = inbound_status(app, row_id)
    assert status == "failed" and "ZeroDivisionError" in outcome
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        assert row_id not in replies.waiting(s, svc.clock.now())


def test_a_lost_kick_is_processed_by_the_sweep(client, app, monkeypatch):
    start(client)
    _, ours = mover(app)
    svc = app.extensions["turnpost"]
    # stored, but its kick was lost (a broker down as it committed)
    monkeypatch.setattr(svc, "enqueue", lambda job, *args: None)
    row_id, _ = intake.store_raw(svc, reply_to(ours, move_links(ours)[0][0]), "smtp")
    monkeypatch.undo()
    assert inbound_status(app, row_id)[0] == "received"
    before = events(app)
    play.sweep(svc)
    assert inbound_status(app, row_id)[0] == "applied" and events(app) > before


def test_a_forged_from_without_the_reply_address_or_our_message_id_moves_nothing(client, app):
    """From headers are easy to forge and the thread root is guessable: neither is enough."""
    gid = start(client)
    addr, ours = mover(app)
    forged = EmailMessage()
    forged["From"] = addr
    forged["To"] = "anything@turnpost.test"
    forged["Subject"] = "Re: " + ours["Subject"]
    forged["Message-ID"] = make_msgid(domain="evil.example")
    forged["In-Reply-To"] = forged["References"] = f"<game-{gid}@turnpost.test>"
    forged.set_content(move_links(ours)[0][0])
    before = events(app)
    row_id, _ = deliver(app, forged.as_bytes())
    assert inbound_status(app, row_id)[0] == "refused"
    assert events(app) == before
    assert "reply address" in text_of(latest_to(app, addr))


def test_say_in_a_reply_shows_on_the_game_pages_too(client, app):
    start(client)
    addr, ours = mover(app)
    deliver(app, reply_to(ours, "say see you at the table"))
    urls = app.extensions["turnpost"].urls
    gid = 1                     # the only game of a fresh database
    for seat in range(len(ADDRS)):
        assert "see you at the table" in client.get(urls.game_path(gid, seat)).text


def test_undo_in_a_reply_is_answered_with_words(client, app):
    """A refused `undo` is the reply's refusal (a reply is one batch, all or none, as the page
    and the API: service/play/moves/runner.py), answered with the reason."""
    start(client)
    addr, ours = mover(app)
    before = events(app)
    row_id, _ = deliver(app, reply_to(ours, "undo"))
    assert inbound_status(app, row_id)[0] == "refused"
    assert "no move to take back" in text_of(latest_to(app, addr))
    assert events(app) == before


def test_a_usual_reply_is_two_units_of_work_its_claim_with_its_game_and_its_move(client, app):
    """The reply's game and seat are read in the transaction that claims it (issue 53: a unit
    of work of their own before, a pool checkout, BEGIN and COMMIT more), and its move with its
    outcome is the other; its emails are the relay's (left out here)."""
    from sqlalchemy import event
    start(client)
    _, ours = mover(app)
    svc = app.extensions["turnpost"]
    kick, svc.enqueue = svc.enqueue, play.services.run_nothing
    checkouts: list[int] = []
    listener = lambda *_: checkouts.append(1)   # noqa: E731
    try:
        row_id, _ = deliver(app, reply_to(ours, move_links(ours)[0][0]))
        event.listen(svc.db.engine, "checkout", listener)
        result = replies.process(svc, row_id)
    finally:
        event.remove(svc.db.engine, "checkout", listener)
        svc.enqueue = kick
    assert result.status == "applied", result
    assert len(checkouts) == 2
