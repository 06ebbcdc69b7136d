"""Clocks that know when mail failed: a seat whose turn email hard-bounced, or was not accepted
by the relay for 24 hours, has its clock stopped and the others are told; a later email
delivered to it, or its own move, starts the clock again with the time it had left."""
from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from sqlalchemy import select, update

from service import play
from service.play import repository
from service.play.mail import bounces, relay
from service.store.models import OutboxRow, Player
from tests.play.time.helpers import move, outbox, seats, start, to_act

DSN = (Path(__file__).resolve().parents[2] / "mail" / "fixtures" / "bounce.eml").read_bytes()


def turn_email(svc, game_id, seat):
    return [r for r in outbox(svc, game_id, "turn") if r["seat"] == seat][-1]


def message_id(svc, row_id):
    with svc.db.transaction() as s:
        return s.get(OutboxRow, row_id).message_id


def test_a_bounce_stops_the_seat_clock_and_the_next_delivery_starts_it(services):
    g = start(services, clock="2d")
    late = to_act(services, g.game_id)[0]
    deadline = seats(services, g.game_id)[late]["deadline"]
    services.clock.advance(hours=12)
    row = turn_email(services, g.game_id, late)
    assert bounces.handle(services, DSN, message_id(services, row["id"]))[0] == "bounced"
    assert seats(services, g.game_id)[late]["deadline"] is None
    told = [r for r in outbox(services, g.game_id, "timeout")]
    assert [r["seat"] for r in told] == [1 - late]
    assert "did not receive the turn email (it bounced)" in told[0]["payload"]["timeout"]["text"]
    # days pass: no timeout for a player who never got the turn
    services.clock.advance(days=5)
    assert play.timers(services).timed_out == 0
    # the address works again (an operator cleared it) and a later email is delivered: the
    # clock runs from there, with the 36 hours it had left
    with services.db.transaction() as s:
        s.execute(update(Player).values(bounced_at=None))
    with services.db.transaction() as s:
        game = repository.game_row(s, g.game_id)
        fresh = play.notify.queue(s, game, late, "timeout", game.seq, services.clock.now(),
                                  {"timeout": {"text": "hello", "seat": late}})
        s.flush()
        fresh_id = fresh.id
    assert relay.deliver(services, [fresh_id]) == {fresh_id: "sent"}
    assert seats(services, g.game_id)[late]["deadline"] == services.clock.now() + timedelta(hours=36)
    assert seats(services, g.game_id)[late]["deadline"] == deadline + timedelta(days=5)


def test_a_move_by_the_held_player_starts_their_clock_again(services):
    g = start(services, clock="2d")
    late = to_act(services, g.game_id)[0]
    row = turn_email(services, g.game_id, late)
    bounces.handle(services, DSN, message_id(services, row["id"]))
    assert seats(services, g.game_id)[late]["deadline"] is None
    services.clock.advance(days=3)
    move(services, g.game_id, late)
    mine = seats(services, g.game_id)[late]
    assert mine["clock"]["paused_since"] is None and mine["clock"].get("turn_started") is None
    with services.db.transaction() as s:
        from service.store.models import Seat
        assert s.scalar(select(Seat.mail_held_since).where(Seat.game_id == g.game_id,
                                                           Seat.seat == late)) is None


def test_a_turn_email_not_accepted_for_24_hours_stops_the_clock(services):
    g = start(services, clock="3d")
    late = to_act(services, g.game_id)[0]
    row = turn_email(services, g.game_id, late)
    # the relay was offered it and refused it, again and again
    with services.db.transaction() as s:
        s.execute(update(OutboxRow).where(OutboxRow.id == row["id"]).values(attempts=4))
    services.clock.advance(hours=23)
    play.timers(services)
    assert seats(services, g.game_id)[late]["deadline"] is not None
    services.clock.advance(hours=1)
    play.timers(services)
    assert seats(services, g.game_id)[late]["deadline"] is None
    told = [r for r in outbox(services, g.game_id, "timeout") if r["seat"] != late]
    assert "has not accepted it for 24 hours" in told[0]["payload"]["timeout"]["text"]
    play.timers(services)          # told once
    assert len([r for r in outbox(services, g.game_id, "timeout") if r["seat"] != late]) == 1
