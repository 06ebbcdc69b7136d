"""A player who set a time zone reads every deadline in it, and the email says which zone:
"Fri 27 Nov, 10:00 CET", never a bare "10:00" (read as local wherever the email is opened)."""
from __future__ import annotations

from email import message_from_bytes, policy

from service import play
from service.store.models import Player
from tests.play.time.helpers import outbox, seats, start, to_act


def _zone(svc, email, zone):
    with svc.db.transaction() as s:
        s.query(Player).filter_by(email=email).one().zone = zone


def _sent(svc, row_ids):
    before = len(svc.transport.messages())
    play.deliver(svc, row_ids)
    return [message_from_bytes(raw, policy=policy.default)
            for _, raw in svc.transport.messages()[before:]]


def _text(msg):
    return msg.get_body(("plain",)).get_content()


def test_the_turn_email_and_the_reminder_name_the_players_zone(services):
    g = start(services, clock="3d")                 # T0 09:00 UTC: due Fri 27 Nov, 09:00 UTC
    (seat,) = to_act(services, g.game_id)
    email = seats(services, g.game_id)[seat]["player"]
    _zone(services, email, "Europe/Paris")
    (mail,) = [m for m in _sent(services, g.outbox_ids) if m["To"] == email]
    assert "Your move by Fri 27 Nov, 10:00 CET (in 3 days)." in _text(mail)
    assert "Fri 27 Nov, 10:00 CET" in mail.get_body(("html",)).get_content()
    services.clock.advance(days=2, hours=6)          # the reminder: 18 hours before
    play.timers(services)
    (reminder,) = [r["id"] for r in outbox(services, g.game_id, "reminder")]
    (mail,) = _sent(services, [reminder])
    assert "REMINDER: your move is due by Fri 27 Nov, 10:00 CET (in 18 hours)." in _text(mail)


def test_the_page_shows_every_clock_in_the_readers_zone(services):
    g = start(services, clock="3d")
    (seat,) = to_act(services, g.game_id)
    other = 1 - seat
    _zone(services, seats(services, g.game_id)[other]["player"], "America/New_York")
    page = play.read_game(services, g.game_id, play.Reader.at(g.game_id, other)).page
    assert page.clocks[seat]["deadline_text"] == "Fri 27 Nov, 04:00 EST (in 3 days)"
    spectator = play.read_game(services, g.game_id, play.Reader.at(g.game_id, None)).page
    assert spectator.clocks[seat]["deadline_text"] == "Fri 27 Nov, 09:00 UTC (in 3 days)"
