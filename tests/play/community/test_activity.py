"""Reliability (turns moved before the deadline, each timeout a turn missed) and quickness (the
median time to move) read from a game's log: a turn is the events written together for a
seat; what the clock plays after a seat resigned or forfeited is not the player's."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import select

from service import play
from service.play import community
from service.play.moves import undo
from service.play.players import seatchanges
from service.play.time.sweep import timeouts
from service.store.models import Player
from tests.play.time.helpers import move, start, to_act
from tests.play.time.test_undo_clocks import TWO, _suzerain_with_a_passing_follow

T = datetime(2026, 11, 1, 9, 0, tzinfo=timezone.utc)


def at(hours: float) -> datetime:
    return T + timedelta(hours=hours)


def test_turns_timeouts_and_the_median_time_to_move_from_a_log():
    log = [(1, None, "start", at(0)), (2, None, "start", at(0)),
           (3, 0, "web", at(2)), (4, 0, "web", at(2)),        # one turn of two events
           (5, 1, "email", at(3)),
           (6, 0, "timer", at(27)),                          # seat 0 missed its deadline
           (7, 1, "link", at(30)),
           (8, 0, "link", at(40))]
    mine = community.measure(log, 0)
    assert (mine.moved, mine.timeouts) == (2, 1)
    assert mine.reliability == 2 / 3
    assert mine.waits == (timedelta(hours=2), timedelta(hours=10))
    assert mine.quickness == timedelta(hours=6)
    theirs = community.measure(log, 1)
    assert (theirs.reliability, theirs.quickness) == (1.0, timedelta(hours=2))


def test_turns_played_for_a_seat_that_left_are_not_its_own():
    log = [(1, None, "start", at(0)), (2, 0, "web", at(1)), (3, 1, "web", at(2)),
           (4, 0, "timer", at(3)), (5, 1, "web", at(4)), (6, 0, "timer", at(5))]
    resigned = community.measure(log, 0, left_at=3)
    assert (resigned.moved, resigned.timeouts) == (1, 0)
    forfeited = community.measure(log, 0, left_at=3, forfeited=True)
    assert (forfeited.moved, forfeited.timeouts, forfeited.reliability) == (1, 1, 0.5)


def test_nothing_yet_is_no_figure():
    nothing = community.measure([(1, None, "start", at(0))], 0)
    assert nothing.reliability is None and nothing.quickness is None


def _activity(svc, email):
    with svc.db.transaction() as s:
        pid = s.scalars(select(Player.id).where(Player.email == email)).one()
        return community.activity(s, pid)


def test_a_players_figures_from_their_games_logs(services):
    g = start(services, clock="1d")                      # the default policy plays a move
    first = to_act(services, g.game_id)[0]
    services.clock.advance(hours=3)
    move(services, g.game_id)                            # 3 hours
    services.clock.advance(days=1, minutes=1)
    timeouts.run(services)                               # the other seat times out
    services.clock.advance(hours=1)
    move(services, g.game_id)                            # 1 hour after the timeout move
    emails = ["anna@example.org", "ben@example.org"]
    mover = _activity(services, emails[first])
    assert (mover.moved, mover.timeouts) == (2, 0)
    assert mover.quickness == timedelta(hours=2)         # the median of 3 and 1 hours
    late = _activity(services, emails[1 - first])
    assert (late.moved, late.timeouts, late.reliability) == (0, 1, 0.0)
    seatchanges.resign(services, g.game_id, 1 - first)
    assert _activity(services, emails[1 - first]).timeouts == 1


def _standing(svc, game_id: int, seat: int, move: dict) -> None:
    play.submit(svc, play.Intent(game_id, seat, moves=[move], source="web"))


@pytest.mark.parametrize("kind, options, choices", [
    # RULINGS P2: Magnate's Ace setting (M16), a standing choice made at any time
    ("magnate", {"replace_ace": "on"}, [{"type": "replace_aces", "mode": "always"},
                                         {"type": "replace_aces", "mode": "never"}]),
    # RULINGS P2: Aristocracy's choice to end when able (A19), private to its maker
    ("aristocracy", {}, [{"type": "end_choice", "end": False},
                         {"type": "end_choice", "end": True}]),
])
def test_a_standing_private_choice_is_no_move_and_moves_nobodys_time(services, kind, options,
                                                                      choices):
    """Toggling a private setting raised the chooser's figures (each toggle a turn moved in
    time) and shortened the next mover's time (counted from the toggle), which the table
    could read off the public profile."""
    g = start(services, kind=kind, **options)
    mover = to_act(services, g.game_id)[0]
    chooser = next(s for s in (0, 1) if s not in to_act(services, g.game_id)) \
        if kind == "magnate" else mover
    emails = ["anna@example.org", "ben@example.org"]
    for choice in choices * 2:                          # four toggles, an hour apart
        services.clock.advance(hours=1)
        _standing(services, g.game_id, chooser, choice)
    services.clock.advance(hours=1)
    move(services, g.game_id, seat=mover)               # 5 hours after the start
    figures = _activity(services, emails[chooser])
    if chooser != mover:
        assert (figures.moved, figures.timeouts) == (0, 0)
        assert figures.reliability is None and figures.quickness is None
    else:
        assert figures.moved == 1
    assert _activity(services, emails[mover]).quickness == timedelta(hours=5)


def test_a_take_back_is_no_move(services):
    """RULINGS P2: `undo` is a table word; its event is a write, but nobody's move."""
    game_id, leader, follower, choice = _suzerain_with_a_passing_follow(services, "3d")
    services.clock.advance(hours=1)
    play.submit(services, play.Intent(game_id, follower, moves=[choice], source="web"))
    email = TWO[follower].split("<")[1].rstrip(">")
    before = _activity(services, email)          # (the deals tried before this one count too)
    undo.ask(services, game_id, follower)
    assert undo.answer(services, game_id, leader, True).status == "done"
    assert _activity(services, email) == before
