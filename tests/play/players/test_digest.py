"""A daily digest player's turn emails wait for its hour (its own time zone), then one email per
game goes out with all the news; the sweep does it once a day."""
from __future__ import annotations

from sqlalchemy import select

from service import play
from service.play import repository
from service.play.clock import ManualClock
from service.store.models import OutboxRow, Player
from tests.conftest import T0
from tests.web.helpers import start_game

ANNA, BEN = "anna@example.org", "ben@example.org"


def test_a_digest_player_gets_one_email_a_day_at_its_hour(app_factory):
    clock = ManualClock(T0)                       # 09:00 UTC = 10:00 in Paris
    app = app_factory(TURNPOST_CLOCK=clock)
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        s.add(Player(email=ANNA, name="anna", mail_mode="digest", digest_hour=18,
                     zone="Europe/Paris", created_at=clock.now()))
    gid = start_game(app, "trees", [ANNA, BEN], mail_mode="turn").game_id

    def statuses():
        with svc.db.transaction() as s:
            return [r.status for r in s.scalars(select(OutboxRow).where(
                OutboxRow.to_addr == ANNA).order_by(OutboxRow.id))]

    # play a few moves: Anna's turn emails are held, nothing is sent to her
    for _ in range(4):
        with svc.db.transaction() as s:
            pos = repository.load(s, svc.states, gid)
        seat = min(pos.engine.to_act(pos.state))
        play.submit(svc, play.Intent(gid, seat, source="email", whole_turn=True,
                                     moves=[pos.engine.legal_moves(pos.state, seat)[0]]))
    assert statuses() and set(statuses()) == {"held"}
    play.sweep(svc)
    assert set(statuses()) == {"held"}            # 10:00 in Paris: not yet
    clock.advance(hours=8)                        # 18:00 in Paris
    play.sweep(svc)
    assert statuses()[-1] == "sent" and set(statuses()[:-1]) <= {"skipped"}
    sent = svc.transport.messages()
    play.sweep(svc)                               # once a day
    assert len(svc.transport.messages()) == len(sent)
