"""A vacation day taken for a player whose clock runs out (on by default, as Little Golem): the
seat is not timed out, all the player's clocks stop for 24 hours, the email says how many days
are left, a warning comes at 3 or fewer, and the timeout comes when none is left. Both sweep
paths (batched and per game) decide alike."""
from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from service import play
from service.play.time.sweep import timeouts
from service.store.models import Player, Vacation
from tests.play.time.helpers import PLAYERS, changes, move, outbox, seats, start, to_act

CAROL = ["Anna <anna@example.org>", "Carla <carla@example.org>"]


@pytest.fixture
def services(services):
    services.settings = dataclasses.replace(services.settings, AUTO_VACATION=True,
                                            VACATION_DAYS=5)
    return services


def vacations(svc):
    with svc.db.transaction() as s:
        return [(v.player_id, v.first_day, v.last_day, v.open)
                for v in s.scalars(select(Vacation).order_by(Vacation.id))]


def run(svc, bulk):
    return play.timers(svc) if bulk else timeouts.run(svc, bulk=False)


@pytest.mark.parametrize("bulk", [True, False], ids=["batched", "per-game"])
def test_a_day_is_taken_instead_of_the_timeout_and_every_clock_of_the_player_stops(
        services, bulk):
    g = start(services, clock="2d", on_timeout="forfeit")
    late = to_act(services, g.game_id)[0]
    late_email = seats(services, g.game_id)[late]["player"]
    # a second game of the same player, in another zone's company
    other_players = [p for p in PLAYERS if late_email in p] + ["Carla <carla@example.org>"]
    h = start(services, clock="3d", players=other_players[::-1] if late else other_players)
    deadline = seats(services, g.game_id)[late]["deadline"]
    services.clock.advance(days=2)
    report = run(services, bulk)
    assert report.outcomes == {"vacation": 1} and report.timed_out == 0
    row = seats(services, g.game_id)[late]
    assert row["status"] == "active" and row["deadline"] is None      # paused, not forfeited
    assert len(vacations(services)) == 1
    told = [r for r in outbox(services, g.game_id, "timeout")]
    assert sorted(r["seat"] for r in told) == [0, 1], "one notice each"
    text = {r["seat"]: r["payload"]["timeout"]["text"] for r in told}
    assert "a vacation day was taken instead of a timeout" in text[1 - late]
    assert "4 vacation days are left this year" in text[1 - late]
    # the player in their own words (issue 49, item 15), never "the clocks of you"
    assert text[late].startswith("Your time ran out, so one of your vacation days was taken")
    assert "your clocks stop until" in text[late]
    assert "You have 4 vacation days left this year." in text[late]
    # the other game hears of it only from the seat waiting on that player's clock, if any
    mine_in_h = next(r["seat"] for r in seats(services, h.game_id) if r["player"] == late_email)
    told_h = outbox(services, h.game_id, "timeout")
    if mine_in_h in to_act(services, h.game_id):
        assert [r["seat"] for r in told_h] == [1 - mine_in_h]
        assert "is away for a vacation day taken in another game, so " in \
            told_h[0]["payload"]["timeout"]["text"]
        assert "clock here stops too until" in told_h[0]["payload"]["timeout"]["text"]
    else:
        assert told_h == [], "the player whose move it is reads of a clock that changes nothing"
    # the other game's clocks of the same player stop too
    mine = next(r for r in seats(services, h.game_id) if r["player"] == late_email)
    assert mine["clock"]["paused_since"] is not None
    # the day is 24 hours from the deadline: nothing happens within it...
    services.clock.advance(hours=23, minutes=59)
    assert run(services, bulk).outcomes == {}
    assert seats(services, g.game_id)[late]["deadline"] is None
    # ...and at its end the clocks run again, with the deadline 24 hours later: still not
    # moved, so the next day is taken
    services.clock.advance(minutes=1)
    sent = len(outbox(services)), len(outbox(services, g.game_id))
    report = run(services, bulk)
    assert report.resumed == 1 and report.outcomes == {"vacation": 1}
    assert len(vacations(services)) == 2
    # one notice for one event: the next day taken, not "back from vacation; clocks run
    # again" in the same second (issue 49, item 15), in either game
    new = outbox(services, g.game_id)[sent[1]:]
    assert sorted((r["seat"], r["payload"]["timeout"]["text"].split(",")[0]) for r in new) == [
        (late, "Your time ran out"), (1 - late, f"{{p{late}}} ran out of time")]
    assert not any("back from vacation" in r["payload"]["timeout"]["text"]
                   for r in outbox(services)[sent[0]:])
    with services.db.transaction() as s:
        until = s.scalars(select(Vacation.resumes_at).order_by(Vacation.id)).all()
    assert until == [deadline + timedelta(days=1), deadline + timedelta(days=2)]


@pytest.mark.parametrize("bulk", [True, False], ids=["batched", "per-game"])
def test_one_game_waits_at_most_its_days_for_a_player_then_times_them_out(services, bulk):
    """Issue 49, item 19: with the year's 30 days, a vanished opponent held a one-day game
    for 30 days. A game takes at most TURNPOST_AUTO_VACATION_PER_GAME (3) for one player:
    the table is told which day it is and when the last was taken; then the timeout. Their
    other games keep their own days."""
    services.settings = dataclasses.replace(services.settings, VACATION_DAYS=30,
                                            AUTO_VACATION_PER_GAME=3)
    g = start(services, clock="1d", on_timeout="wait")
    late = to_act(services, g.game_id)[0]
    outcomes = []
    for _ in range(4):
        services.clock.advance(days=1)
        outcomes.append(run(services, bulk).outcomes)
    assert outcomes == [{"vacation": 1}] * 3 + [{"waiting": 1}]
    told = [r["payload"]["timeout"]["text"] for r in outbox(services, g.game_id, "timeout")
            if r["seat"] != late and "a vacation day was taken" in r["payload"]["timeout"]["text"]]
    assert ["1 of the 3 this game takes" in told[0], "2 of the 3" in told[1],
            "the last of the 3 this game takes for a player: the next time the clock runs "
            "out, it is a timeout" in told[2]] == [True] * 3
    assert [k for s, k in changes(services, g.game_id) if s == late].count("vacation_day") == 3
    assert len(vacations(services)) == 3        # 27 of the year's days are left
    # the same player's next game takes days of its own
    email = seats(services, g.game_id)[late]["player"]
    h = start(services, clock="1d", on_timeout="wait",
              players=[p for p in PLAYERS if email in p] + CAROL[1:])
    first = to_act(services, h.game_id)[0]
    if seats(services, h.game_id)[first]["player"] != email:
        move(services, h.game_id)
    services.clock.advance(days=1)
    assert run(services, bulk).outcomes.get("vacation") == 1


def test_the_timeout_comes_when_no_day_is_left_and_a_warning_before(services):
    # the year's allowance, not a game's bound, runs out here
    services.settings = dataclasses.replace(services.settings, AUTO_VACATION_PER_GAME=30)
    g = start(services, clock="1d", on_timeout="wait")
    late = to_act(services, g.game_id)[0]
    email = seats(services, g.game_id)[late]["player"]
    with services.db.transaction() as s:
        player_id = s.scalar(select(Player.id).where(Player.email == email))
    outcomes = []
    for _ in range(6):
        services.clock.advance(days=1)
        outcomes.append(play.timers(services).outcomes)
    # five days a year here: five taken, one a day, then the timeout itself
    assert outcomes[:5] == [{"vacation": 1}] * 5
    assert outcomes[5] == {"waiting": 1}
    assert len([v for v in vacations(services) if v[0] == player_id]) == 5
    own = [r["payload"]["timeout"]["text"] for r in outbox(services, g.game_id, "timeout")
           if r["seat"] == late]
    # one notice a day, the warning in it: at 3, 2, 1 and 0 days left
    assert len(own) == 5 and all(t.startswith("Your time ran out") for t in own)
    warnings = [t.split(". ", 1)[1] for t in own[:5] if ". Only " in t or ". That was" in t]
    assert [w.split(" left")[0] for w in warnings] == [
        "Only 3 vacation days", "Only 2 vacation days", "Only 1 vacation day",
        "That was your last vacation day this year: from now on, a clock that runs out is a "
        "timeout."]


def test_a_player_who_turned_it_off_times_out(services):
    g = start(services, clock="1d", on_timeout="wait")
    with services.db.transaction() as s:
        s.execute(update(Player).values(auto_vacation=False))
    services.clock.advance(days=1)
    assert play.timers(services).outcomes == {"waiting": 1}
    assert vacations(services) == []
    assert g.game_id
