"""Each player's own time, driven by the injected clock across two games and two time zones:
rest days carry a Friday deadline to Monday, quiet hours hold the mail and send it once after,
and each reminder a player asked for goes once, never to a seat that has moved."""
from __future__ import annotations

import email
import socket
from datetime import datetime, timedelta
from email.utils import parsedate_to_datetime
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from service import play
from service.mailwire.outbound.transports import SMTPTransport
from service.play.mail import relay
from service.play.players import seatchanges
from service.play.time import calendar, mailholds
from service.store.models import GameRow, OutboxRow, Player
from tests.play.time.helpers import move, outbox, seats, start, to_act

UTC_ = ZoneInfo("UTC")
ANNA, BEN, CLEO, DAN = ("anna@example.org", "ben@example.org", "cleo@example.org",
                        "dan@example.org")


def person(svc, addr, mail_mode="turn", **prefs):
    """A player who set their preferences before any game."""
    with svc.db.transaction() as s:
        s.add(Player(email=addr, name=addr.split("@")[0].title(), created_at=svc.clock.now(),
                     mail_mode=mail_mode))
    if prefs:
        calendar.save_preferences(svc, prefs, email=addr)


def at(svc, *when):
    svc.clock.set(datetime(*when, tzinfo=UTC_))


def game_where_acts(svc, people, addr, **options):
    """A game in which `addr` is to act (the others move first if it is not)."""
    g = start(svc, players=people, **options)
    for _ in range(len(people)):
        if seat_of(svc, g.game_id, addr) in to_act(svc, g.game_id):
            return g.game_id
        move(svc, g.game_id)
    raise AssertionError("never their turn")


def seat_of(svc, game_id, addr):
    return next(s["seat"] for s in seats(svc, game_id) if s["player"] == addr)


def deadline_of(svc, game_id, addr):
    return next(s["deadline"] for s in seats(svc, game_id) if s["player"] == addr)


def mails_to(svc, addr):
    return [m for m in (email.message_from_bytes(raw) for _, raw in svc.transport.messages())
            if addr in m["To"]]


# --- rest days -----------------------------------------------------------------------------

def test_a_friday_evening_deadline_is_carried_to_monday_in_each_players_zone(services):
    person(services, ANNA, tz="Europe/Berlin", rest_days="sat,sun")
    person(services, BEN, tz="America/New_York", rest_days="sat,sun")
    at(services, 2026, 11, 27, 18, 0)           # Friday 19:00 in Berlin
    berlin = game_where_acts(services, [ANNA, CLEO], ANNA, clock="1d")
    at(services, 2026, 11, 27, 23, 0)           # Friday 18:00 in New York
    new_york = game_where_acts(services, [BEN, CLEO], BEN, clock="1d")
    monday_berlin = datetime(2026, 11, 30, 19, 0, tzinfo=ZoneInfo("Europe/Berlin"))
    monday_new_york = datetime(2026, 11, 30, 18, 0, tzinfo=ZoneInfo("America/New_York"))
    assert deadline_of(services, berlin, ANNA) == monday_berlin
    assert deadline_of(services, new_york, BEN) == monday_new_york
    # the others read the deadline as it really is: Monday, in their own zone (Cleo's: UTC)
    page = play.read_game(services, berlin,
                          play.Reader.at(berlin, seat_of(services, berlin, CLEO))).page
    anna_clock = next(c for c in page.clocks if c["seat"] == seat_of(services, berlin, ANNA))
    assert anna_clock["deadline_text"].startswith("Mon 30 Nov, 18:00 UTC")
    services.clock.set(monday_berlin - timedelta(seconds=1))
    assert play.timers(services).timed_out == 0        # nothing ran out over the weekend
    services.clock.set(monday_berlin)
    assert play.timers(services).timed_out == 1
    services.clock.set(monday_new_york - timedelta(seconds=1))
    assert play.timers(services).timed_out == 0
    services.clock.set(monday_new_york)
    assert play.timers(services).timed_out == 1


def test_a_games_rest_days_apply_to_every_seat(services):
    at(services, 2026, 11, 27, 20, 0)           # Friday evening, UTC
    g = start(services, clock="1d", rest_days="sat,sun")
    seat = to_act(services, g.game_id)[0]
    assert seats(services, g.game_id)[seat]["deadline"] == datetime(2026, 11, 30, 20, 0,
                                                                    tzinfo=UTC_)
    with services.db.transaction() as s:
        assert s.get(GameRow, g.game_id).rest_days == "sat,sun"
    with services.db.transaction() as s:
        games = s.scalar(select(GameRow.id).order_by(GameRow.id.desc()).limit(1))
    with pytest.raises(play.BadStart, match="at least one day"):
        start(services, clock="1d", rest_days="mon,tue,wed,thu,fri,sat,sun")
    with services.db.transaction() as s:
        assert s.scalar(select(GameRow.id).order_by(GameRow.id.desc()).limit(1)) == games


def test_rest_days_change_once_a_week_and_from_the_next_turn(services):
    person(services, ANNA)
    game = game_where_acts(services, [ANNA, CLEO], ANNA, clock="2d")   # Tuesday 09:00
    due = deadline_of(services, game, ANNA)
    assert due == datetime(2026, 11, 26, 9, 0, tzinfo=UTC_)
    calendar.save_preferences(services, {"rest_days": "thu"}, email=ANNA)
    assert deadline_of(services, game, ANNA) == due          # this turn keeps its deadline
    with pytest.raises(calendar.CalendarRefused, match="once a week.*Tue 1 Dec"):
        calendar.save_preferences(services, {"rest_days": "fri", "quiet_hours": "22-08"},
                                  email=ANNA)
    with services.db.transaction() as s:
        anna = s.scalars(select(Player).where(Player.email == ANNA)).one()
        assert (anna.rest_days, anna.quiet_hours) == ("thu", None)     # nothing changed
    services.clock.advance(hours=1)
    move(services, game)                                     # Anna
    services.clock.advance(hours=1)
    move(services, game)                                     # Cleo, Tuesday 11:00
    # 37 hours to Thursday, Thursday rests, 11 hours on Friday
    assert deadline_of(services, game, ANNA) == datetime(2026, 11, 27, 11, 0, tzinfo=UTC_)
    services.clock.advance(days=7)
    assert calendar.save_preferences(services, {"rest_days": "fri"},
                                     email=ANNA)["rest_days"] == "fri"


# --- quiet hours ---------------------------------------------------------------------------

def test_mail_is_held_through_quiet_hours_and_sent_once_after(services):
    # Anna hears of every move (so two turn emails wait for her); Ben only of his turns
    person(services, ANNA, mail_mode="every", tz="Europe/Berlin", quiet_hours="22-08")
    person(services, BEN, tz="America/New_York", quiet_hours="23-07")
    first = game_where_acts(services, [ANNA, CLEO, DAN], CLEO, clock="3d")
    second = game_where_acts(services, [BEN, CLEO], CLEO, clock="3d")
    play.sweep(services)
    anna_before, ben_before = len(mails_to(services, ANNA)), len(mails_to(services, BEN))
    at(services, 2026, 11, 25, 5, 0)        # 06:00 in Berlin, 00:00 in New York: both quiet
    while seat_of(services, first, ANNA) not in to_act(services, first):
        move(services, first)               # Cleo, then Dan: two turn emails for Anna
    move(services, second)                  # Cleo: Ben's turn
    held = [r for r in outbox(services) if r["to"] in (ANNA, BEN) and r["id"]
            and status_of(services, r["id"]) == "quiet"]
    assert {r["to"] for r in held} == {ANNA, BEN} and len(held) >= 3
    play.sweep(services)
    assert (len(mails_to(services, ANNA)), len(mails_to(services, BEN))) == (anna_before,
                                                                            ben_before)
    at(services, 2026, 11, 25, 7, 0)        # 08:00 in Berlin: Anna's quiet hours end
    play.sweep(services)
    assert len(mails_to(services, ANNA)) == anna_before + 1     # the two merged into one
    assert len(mails_to(services, BEN)) == ben_before
    assert "YOUR TURN" in text_of(mails_to(services, ANNA)[-1])
    at(services, 2026, 11, 25, 12, 0)       # 07:00 in New York
    play.sweep(services)
    play.sweep(services)
    assert len(mails_to(services, BEN)) == ben_before + 1
    assert len(mails_to(services, ANNA)) == anna_before + 1     # once


def test_mail_held_for_quiet_hours_is_dated_when_it_goes(services):
    """Issue 49, item 16: an email held through quiet hours kept its queueing time as its
    Date, so a mail client filed the morning's turn email hours back, among the night's."""
    person(services, ANNA, tz="Europe/Berlin", quiet_hours="22-08")
    at(services, 2026, 11, 25, 5, 0)        # 06:00 in Berlin: quiet
    game_where_acts(services, [ANNA, CLEO], ANNA, clock="3d")
    play.sweep(services)
    assert mails_to(services, ANNA) == []
    at(services, 2026, 11, 25, 7, 30)       # 08:30 in Berlin
    play.sweep(services)
    sent = mails_to(services, ANNA)
    assert sent and "YOUR TURN" in text_of(sent[-1])
    assert {parsedate_to_datetime(m["Date"]) for m in sent} == {
        datetime(2026, 11, 25, 7, 30, tzinfo=UTC_)}


def text_of(message):
    part = next(p for p in message.walk() if p.get_content_type() == "text/plain")
    return part.get_payload(decode=True).decode()


def status_of(svc, row_id):
    with svc.db.transaction() as s:
        return s.get(OutboxRow, row_id).status


def test_a_deadline_just_after_quiet_hours_is_reminded_before_they_begin(services):
    person(services, ANNA, tz="Europe/Berlin", quiet_hours="22-08", reminders="4h,1h")
    at(services, 2026, 11, 24, 6, 0)                   # Tuesday 07:00 in Berlin
    game = game_where_acts(services, [ANNA, CLEO], ANNA, clock="2d")
    due = deadline_of(services, game, ANNA)            # Thursday 07:00 in Berlin: inside
    assert due.astimezone(ZoneInfo("Europe/Berlin")).hour == 7
    before = datetime(2026, 11, 25, 21, 30, tzinfo=ZoneInfo("Europe/Berlin"))
    assert next(s["remind_at"] for s in seats(services, game) if s["player"] == ANNA) == before
    sent = sweep_until(services, due, timedelta(minutes=30))
    assert sent == [before]                            # both reminders, once, before 22:00
    rows = outbox(services, game, "reminder")
    assert len(rows) == 1 and status_of(services, rows[0]["id"]) in ("pending", "sent")


def sweep_until(svc, end, step):
    """Run the timers every `step` until `end`; the instants at which reminders went."""
    sent = []
    while svc.clock.now() < end:
        if play.timers(svc).reminded:
            sent.append(svc.clock.now())
        svc.clock.advance(step)
    return sent


# --- reminders -----------------------------------------------------------------------------

def test_each_reminder_once_never_to_a_seat_that_has_moved(services):
    person(services, ANNA, tz="Europe/Berlin", reminders="24h,4h,1h")
    person(services, BEN, tz="America/New_York", reminders="12h,1h")
    first = game_where_acts(services, [ANNA, CLEO], ANNA, clock="2d")
    second = game_where_acts(services, [BEN, CLEO], BEN, clock="2d")
    anna_due, ben_due = deadline_of(services, first, ANNA), deadline_of(services, second, BEN)
    step = timedelta(minutes=15)
    sweep_until(services, ben_due - timedelta(hours=2), step)
    move(services, second)                   # Ben moves between his two reminders
    sweep_until(services, anna_due + step, step)
    hours = timedelta(hours=1)
    assert reminders_sent(services, first, ANNA) == [anna_due - h * hours for h in (24, 4, 1)]
    assert reminders_sent(services, second, BEN) == [ben_due - 12 * hours]   # not the 1h one


def reminders_sent(svc, game_id, addr):
    with svc.db.transaction() as s:
        return list(s.scalars(select(OutboxRow.created_at).where(
            OutboxRow.game_id == game_id, OutboxRow.kind == "reminder",
            OutboxRow.to_addr == addr).order_by(OutboxRow.id)))


def test_a_reminder_longer_than_the_time_per_move_is_refused(services):
    person(services, ANNA)
    game_where_acts(services, [ANNA, CLEO], ANNA, clock="2d")
    with pytest.raises(calendar.CalendarRefused, match="longer than the time per move.*2 days"):
        calendar.save_preferences(services, {"reminders": "3d,1h"}, email=ANNA)
    with pytest.raises(calendar.CalendarRefused, match="at most 16"):
        calendar.save_preferences(services, {"quiet_hours": "20-14"}, email=ANNA)
    with pytest.raises(calendar.CalendarRefused, match="not a preference.*tz, rest_days"):
        calendar.save_preferences(services, {"colour": "blue"}, email=ANNA)
    with services.db.transaction() as s:
        anna = s.scalars(select(Player).where(Player.email == ANNA)).one()
        assert (anna.reminders, anna.quiet_hours) == (None, None)


def player_id(svc, addr):
    with svc.db.transaction() as s:
        return s.scalar(select(Player.id).where(Player.email == addr))


def test_a_vacation_ending_on_a_rest_day_gives_back_working_time(services):
    """Paused on Thursday at 20:00 with 16 working hours left (a 1-day turn from Thursday
    noon), on vacation to the end of Friday: the clock runs again at Saturday's midnight, and
    Saturday and Sunday are rest days, so the turn is due Monday 16:00, not Saturday 16:00."""
    at(services, 2026, 11, 26, 12, 0)                     # Thursday noon, UTC
    g = game_where_acts(services, [ANNA, BEN], ANNA, clock="1d", rest_days="sat,sun")
    assert deadline_of(services, g, ANNA) == datetime(2026, 11, 27, 12, 0, tzinfo=UTC_)
    at(services, 2026, 11, 26, 20, 0)
    seatchanges.take_vacation(services, player_id(services, ANNA), "vacation 2")
    at(services, 2026, 11, 28, 0, 1)
    play.timers(services)
    assert deadline_of(services, g, ANNA) == datetime(2026, 11, 30, 16, 0, tzinfo=UTC_)


def test_a_vacation_ending_leaves_a_clock_stopped_for_undelivered_mail(services):
    """A seat whose clock stopped because its turn email never arrived stays stopped when the
    player's vacation ends: it runs again when an email reaches them (or they act)."""
    at(services, 2026, 11, 24, 9, 0)
    g = game_where_acts(services, [ANNA, BEN], ANNA, clock="2d")
    seat = seat_of(services, g, ANNA)
    with services.db.transaction() as s:
        mailholds.hold(s, services, g, seat, services.clock.now(), "it bounced")
    seatchanges.take_vacation(services, player_id(services, ANNA), "vacation 1")
    at(services, 2026, 11, 25, 0, 1)
    play.timers(services)
    assert deadline_of(services, g, ANNA) is None
    assert next(s for s in seats(services, g) if s["seat"] == seat)["clock"]["paused_since"]


def test_mail_arriving_during_a_vacation_leaves_the_clock_stopped_for_it(services):
    """The hold ends when an email reaches the player, but the player is on vacation: the clock
    stays stopped until the vacation ends, then runs with the time that was left."""
    at(services, 2026, 11, 24, 9, 0)
    g = game_where_acts(services, [ANNA, BEN], ANNA, clock="2d")
    seat = seat_of(services, g, ANNA)
    left = deadline_of(services, g, ANNA) - services.clock.now()
    with services.db.transaction() as s:
        mailholds.hold(s, services, g, seat, services.clock.now(), "it bounced")
    seatchanges.take_vacation(services, player_id(services, ANNA), "vacation 2")
    with services.db.transaction() as s:
        row = s.scalar(select(OutboxRow.id).where(OutboxRow.game_id == g,
                                                  OutboxRow.seat == seat).order_by(
            OutboxRow.id.desc()).limit(1))
    assert mailholds.delivered(services, [row]) == 1
    assert deadline_of(services, g, ANNA) is None          # still stopped: on vacation
    at(services, 2026, 11, 26, 0, 0)
    play.timers(services)
    assert deadline_of(services, g, ANNA) == services.clock.now() + left


def test_an_email_whose_retry_falls_in_quiet_hours_waits_for_their_end(services):
    """The relay is away when Anna's turn email goes at 21:59:30; its retry a minute later
    would be inside her quiet hours (22-08), so it is held to their end, as an email queued
    then would be, and goes at 08:00 once the relay is back."""
    person(services, ANNA, tz="UTC", quiet_hours="22-08")
    at(services, 2026, 11, 24, 21, 59, 30)
    working = services.transport
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        services.transport = SMTPTransport("127.0.0.1", s.getsockname()[1])   # nothing listens
    g = game_where_acts(services, [ANNA, BEN], ANNA, clock="3d")
    mine = [r for r in outbox(services, g, "turn") if r["to"] == ANNA]
    assert relay.deliver(services, [mine[-1]["id"]]) == {mine[-1]["id"]: "retry"}
    with services.db.transaction() as s:
        row = s.get(OutboxRow, mine[-1]["id"])
        assert (row.status, row.attempts) == ("quiet", 1)
        assert row.next_try == datetime(2026, 11, 25, 8, 0, tzinfo=UTC_)
    services.transport = working
    at(services, 2026, 11, 24, 23, 0)
    play.sweep(services)
    assert mails_to(services, ANNA) == []
    at(services, 2026, 11, 25, 8, 0)
    play.sweep(services)
    play.sweep(services)
    assert len(mails_to(services, ANNA)) == 1
