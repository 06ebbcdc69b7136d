"""One reminder when a quarter of the time per move is left (at most 24 hours before the
deadline, at least 1 hour), with the turn email's links; never twice, never after the move."""
from __future__ import annotations

from datetime import timedelta

from service import play
from service.play.time.sweep import timeouts
from tests.play.time.helpers import move, outbox, start, to_act


def test_reminder_at_the_right_moment_once_with_the_deadline(services):
    g = start(services, clock="2d")            # a quarter of 2 days: 12 hours before
    seat = to_act(services, g.game_id)[0]
    services.clock.advance(hours=36, seconds=-1)
    assert play.timers(services).reminded == 0
    services.clock.advance(seconds=1)
    assert play.timers(services).reminded == 1
    assert play.timers(services).reminded == 0
    rows = outbox(services, g.game_id, "reminder")
    assert [r["seat"] for r in rows] == [seat]
    results = play.deliver(services, [r["id"] for r in rows])
    assert set(results.values()) == {"sent"}
    mail = services.transport.messages()[-1][1].decode()
    assert "REMINDER: your move is due by Thu 26 Nov, 09:00 UTC (in 12 hours)" in mail
    assert "/m/" in mail                         # the same move links as a turn email
    assert "Subject: Reminder: your move " in mail    # told apart from the turn email


def test_reminder_lead_is_at_most_a_day(services):
    g = start(services, clock="14d")
    services.clock.advance(days=13, seconds=-1)
    assert play.timers(services).reminded == 0
    services.clock.advance(seconds=1)
    assert play.timers(services).reminded == 1
    assert outbox(services, g.game_id, "reminder")


def test_no_reminder_to_a_seat_that_has_moved(services):
    g = start(services, clock="2d")
    services.clock.advance(hours=30)
    move(services, g.game_id)
    services.clock.advance(hours=7)        # the mover's reminder time has passed
    play.timers(services)
    first_mover_rows = [r for r in outbox(services, g.game_id, "reminder")]
    assert first_mover_rows == []


def test_turn_email_says_the_deadline(services):
    g = start(services, clock="3d")
    seat = to_act(services, g.game_id)[0]
    play.deliver(services, g.outbox_ids)
    mails = [raw.decode() for _, raw in services.transport.messages()]
    mine = [m for m in mails if "YOUR TURN" in m]
    assert len(mine) == 1
    assert "Your move by Fri 27 Nov, 09:00 UTC (in 3 days)" in mine[0]
    assert seat in (0, 1)


def test_deadline_in_the_players_zone_keeps_its_instant_across_dst(services):
    from datetime import datetime, timezone

    from service.play.time import clocks
    # a 3-day clock started the Friday before Europe's clocks go back (25 Oct 2026)
    start_at = datetime(2026, 10, 23, 12, 0, tzinfo=timezone.utc)
    tc = clocks.parse_clock("3d")
    clock = clocks.start_turn(tc, clocks.SeatClock(), start_at)
    assert clock.deadline - start_at == timedelta(days=3)
    text = clocks.format_deadline(clock.deadline, start_at, "Europe/Berlin")
    assert text.startswith("Mon 26 Oct, 13:00 CET")  # 14:00 CEST at the start, 13:00 CET after
    services.clock.set(start_at)
    g = start(services, clock="3d")
    from tests.play.time.helpers import seats
    seat = to_act(services, g.game_id)[0]
    assert seats(services, g.game_id)[seat]["deadline"] == start_at + timedelta(days=3)


def test_a_sweep_late_past_the_deadline_sends_no_reminder_and_ends(services):
    for seed in range(3):
        start(services, clock="1d", seed=seed)
    services.clock.advance(days=2)
    report = timeouts.run(services, batch=1)
    assert report.reminded == 0 and report.timed_out == 3
    assert timeouts.run(services, batch=1).reminded == 0


def test_a_muted_seat_gets_no_reminder(services):
    from service.play.reads import admin
    g = start(services, clock="2d")
    seat = to_act(services, g.game_id)[0]
    admin.mute_seat(services, g.game_id, seat)
    services.clock.advance(hours=36)
    play.timers(services)
    with services.db.transaction() as s:
        from service.store.models import OutboxRow
        rows = s.query(OutboxRow).filter_by(kind="reminder").all()
        assert [r.status for r in rows] == ["skipped"]


def test_the_deadline_stands_right_under_the_headline_before_the_hand(services):
    from email import message_from_bytes, policy
    g = start(services, clock="3d")
    play.deliver(services, g.outbox_ids)
    mine = [message_from_bytes(raw, policy=policy.default)
            for _, raw in services.transport.messages() if b"YOUR TURN" in raw]
    text = mine[0].get_body(("plain",)).get_content().splitlines()
    headline = next(i for i, line in enumerate(text) if "YOUR TURN" in line)
    assert text[headline + 1].startswith("Your move by Fri 27 Nov, 09:00 UTC")
    html = mine[0].get_body(("html",)).get_content()
    assert html.index("<h1") < html.index("Your move by") < html.index("Your moves")
