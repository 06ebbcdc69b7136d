"""Vacation across two games, resign, replace, and every bad input refused with words and
nothing changed."""
from __future__ import annotations

from datetime import timedelta

import pytest

from service import play
from service.play.players import seatchanges
from tests.play.time.helpers import changes, move, outbox, seats, start, to_act

THREE = ["Anna <anna@example.org>", "Ben <ben@example.org>", "Carla <carla@example.org>"]


def anna(svc, game_id):
    with svc.db.transaction() as s:
        from service.store.models import Player
        return s.query(Player).filter_by(email="anna@example.org").one().id


def test_vacation_stops_and_restarts_clocks_in_two_games(services):
    g1 = start(services, clock="3d")
    g2 = start(services, clock="3d", seed=5)
    a = anna(services, g1.game_id)
    anna_seat = {g: 0 for g in (g1.game_id, g2.game_id)}
    before = {g: seats(services, g)[0]["clock"] for g in anna_seat}
    services.clock.advance(hours=10)
    done = seatchanges.take_vacation(services, a, "vacation 5")
    assert "to the end of 28 Nov" in done.text and "25 vacation days left" in done.text
    for g in anna_seat:
        row = seats(services, g)[0]
        assert row["clock"]["paused_since"] is not None
        assert row["deadline"] is None and row["remind_at"] is None
        told = [r for r in outbox(services, g, "timeout")
                if "on vacation to the end of 28 Nov" in r["payload"]["timeout"]["text"]]
        assert [r["seat"] for r in told] == [1]
    # nothing times out while away, however long
    services.clock.advance(days=4)
    assert play.timers(services).timed_out == 0
    # the vacation ends at midnight after its last day: clocks run again, later by the pause
    services.clock.set(services.clock.now().replace(day=29, hour=0, minute=30))
    report = play.timers(services)
    assert report.resumed == 1
    from datetime import datetime, timezone
    midnight = datetime(2026, 11, 29, tzinfo=timezone.utc)
    for g in anna_seat:
        row = seats(services, g)[0]
        if before[g].get("deadline"):
            paused = midnight - (datetime(2026, 11, 24, 19, tzinfo=timezone.utc))
            old = datetime.fromisoformat(before[g]["deadline"])
            assert row["deadline"] == old + paused


def test_back_ends_a_vacation_and_bad_requests_change_nothing(services):
    g = start(services, clock="3d")
    a = anna(services, g.game_id)
    with pytest.raises(play.PlayError) as exc:
        seatchanges.take_vacation(services, a, "back")
    assert "You are not on vacation" in exc.value.detail
    with pytest.raises(play.PlayError) as exc:
        seatchanges.take_vacation(services, a, "vacation 40")
    assert "You have 30 vacation days left this year; `vacation 30`" in exc.value.detail
    assert seats(services, g.game_id)[0]["clock"]["paused_since"] is None
    seatchanges.take_vacation(services, a, "vacation until 2026-11-30")
    services.clock.advance(days=1)
    done = seatchanges.take_vacation(services, a, "back")
    assert "clocks run again" in done.text
    assert seats(services, g.game_id)[0]["clock"]["paused_since"] is None


def test_resign_two_players_ends_the_game_and_twice_is_refused(services):
    g = start(services, clock="3d")
    seatchanges.resign(services, g.game_id, 1)
    page = play.read_game(services, g.game_id, play.Reader.at(g.game_id, 0)).page
    assert page.outcome["winners"] == [0]
    anna = play.Reader.at(g.game_id, 0)
    assert "Ben resigned" in play.read_game(services, g.game_id, anna).history[-1]["text"]
    with pytest.raises(play.GameOver) as exc:
        seatchanges.resign(services, g.game_id, 1)
    assert "finished" in exc.value.detail
    with pytest.raises(play.GameOver):
        seatchanges.resign(services, g.game_id, 0)


def test_resign_with_three_players_plays_the_seat_by_timeout_and_replace_hands_it_over(services):
    g = start(services, kind="aristocracy", players=THREE, clock="3d")
    seatchanges.resign(services, g.game_id, 1)
    with pytest.raises(play.PlayError) as exc:
        seatchanges.resign(services, g.game_id, 1)
    assert "already left" in exc.value.detail
    # its turns are due at once: the next sweep plays them
    if 1 in to_act(services, g.game_id):
        play.timers(services)
        assert 1 not in to_act(services, g.game_id)
    # an address already at the table is refused; a new one is invited
    with pytest.raises(play.PlayError) as exc:
        seatchanges.invite_replacement(services, g.game_id, 0, 1, "carla@example.org")
    assert "already at this table" in exc.value.detail
    with pytest.raises(play.PlayError) as exc:
        seatchanges.invite_replacement(services, g.game_id, 0, 2, "dora@example.org")
    assert "still playing" in exc.value.detail
    seatchanges.invite_replacement(services, g.game_id, 0, 1, "Dora@example.org")
    invite = outbox(services, None, "invite")[-1]
    assert invite["to"] == "dora@example.org"
    assert play.deliver(services, [invite["id"]]) == {invite["id"]: "sent"}
    sent = services.transport.messages()[-1][1].decode()
    assert "will you take over a seat?" in sent and "Nothing was changed" not in sent
    token = invite["payload"]["why"].rsplit("/i/", 1)[1].split()[0]
    old_link = services.urls.game_path(g.game_id, 1, 0)
    seatchanges.accept_replacement(services, token)
    row = seats(services, g.game_id)[1]
    assert (row["player"], row["holder"], row["status"]) == ("dora@example.org", 1, "active")
    # the old holder's links no longer act; the history records the handover
    claims = services.urls.signer.loads("view", old_link.split("/g/")[1])
    with pytest.raises(play.NotYourSeat) as exc:
        play.read_game(services, g.game_id, play.Reader.at(g.game_id, 1, claims.holder))
    assert "previous player" in exc.value.detail
    with pytest.raises(play.NotYourSeat):
        play.submit(services, play.Intent(g.game_id, 1, lines=["pass"], holder=0))
    assert any("took over Ben's seat" in h["text"]
               for h in play.read_game(services, g.game_id, play.Reader.at(g.game_id, 0)).history)
    assert [k for _, k in changes(services, g.game_id)] == ["resigned", "invited", "replaced"]
    with pytest.raises(play.PlayError):          # the invitation is used up
        seatchanges.accept_replacement(services, token)


@pytest.mark.parametrize("option, words", [
    ("0d", "too short"), ("3x", "not a time control"), ("400d", "too long")])
def test_bad_clock_options_are_refused_with_words(services, option, words):
    with pytest.raises(play.BadStart) as exc:
        start(services, clock=option)
    assert words in exc.value.detail and "such as" in exc.value.detail
    assert outbox(services) == []


def test_bad_timeout_policy_is_refused(services):
    with pytest.raises(play.BadStart) as exc:
        start(services, clock="3d", on_timeout="sleep")
    assert "bot" in exc.value.detail and "forfeit" in exc.value.detail


def test_a_game_without_clock_has_no_deadline(services):
    g = start(services)
    assert all(r["deadline"] is None for r in seats(services, g.game_id))
    services.clock.advance(days=400)
    assert play.timers(services).timed_out == 0
    move(services, g.game_id)
    assert services.clock.now() - timedelta(days=1) < services.clock.now()


def test_a_game_started_while_on_vacation_starts_with_the_clock_stopped(services):
    g1 = start(services, clock="3d")
    seatchanges.take_vacation(services, anna(services, g1.game_id), "vacation 3")
    g2 = start(services, clock="3d", seed=11)
    row = seats(services, g2.game_id)[0]
    assert row["clock"]["paused_since"] is not None and row["deadline"] is None
