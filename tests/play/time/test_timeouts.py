"""A missed deadline, for each policy: bot (the timeout move, source 'timer', everyone told),
forfeit (two players: the game ends), wait (nothing played; extend once, or switch to bot);
and a sealed Aristocracy round, every unchosen seat on its own clock."""
from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from service import play
from service.play.time import deadlines
from service.play.time.sweep import timeouts
from service.store.models import EventRow
from tests.play.time.helpers import changes, outbox, position, seats, start, to_act


def sources(svc, game_id):
    with svc.db.transaction() as s:
        return [r.source for r in s.scalars(select(EventRow).where(EventRow.game_id == game_id)
                                            .order_by(EventRow.seq))]


def test_game_start_starts_the_clock_of_the_seat_to_act(services):
    g = start(services, clock="3d")
    first = to_act(services, g.game_id)[0]
    rows = seats(services, g.game_id)
    assert rows[first]["deadline"] == services.clock.now() + timedelta(days=3)
    assert rows[first]["remind_at"] == services.clock.now() + timedelta(days=3, hours=-18)
    assert rows[1 - first]["deadline"] is None


def test_no_deadline_passes_before_it_is_due(services):
    g = start(services, clock="3d")
    services.clock.advance(days=3, seconds=-1)
    assert play.timers(services).timed_out == 0
    assert set(sources(services, g.game_id)) == {"start"}


def test_bot_plays_the_timeout_move_at_the_deadline_and_tells_everyone(services):
    g = start(services, clock="3d")
    late = to_act(services, g.game_id)[0]
    services.clock.advance(days=3)
    report = play.timers(services)
    assert report.timed_out == 1
    assert sources(services, g.game_id)[-1] == "timer"
    assert to_act(services, g.game_id) == [1 - late]
    told = [r for r in outbox(services, g.game_id) if "timeout" in r["payload"]]
    assert {r["seat"] for r in told} == {0, 1}
    assert "ran out of time; the default move was played" in told[0]["payload"]["timeout"]["text"]
    # the next seat's clock runs from now; a second sweep does nothing more
    assert seats(services, g.game_id)[1 - late]["deadline"] == \
        services.clock.now() + timedelta(days=3)
    assert play.timers(services).timed_out == 0
    assert seats(services, g.game_id)[late]["clock"]["missed_in_a_row"] == 1


def test_forfeit_in_a_two_player_game_ends_it(services):
    g = start(services, clock="1d", on_timeout="forfeit")
    late = to_act(services, g.game_id)[0]
    services.clock.advance(days=1, minutes=5)
    assert play.timers(services).outcomes == {"ended": 1}
    with services.db.transaction() as s:
        game = s.get(deadlines.GameRow, g.game_id)
        assert game.status == "ended"
        assert game.result["winners"] == [1 - late]
    assert (late, "forfeited") in changes(services, g.game_id)
    page = play.read_game(services, g.game_id, play.Reader.at(g.game_id, 1 - late)).page
    assert page.outcome["winners"] == [1 - late]
    try:
        from tests.play.time.helpers import move
        move(services, g.game_id, late)
        raise AssertionError("a move after the end")
    except play.GameOver:
        pass


def test_wait_plays_nothing_and_offers_extend_once_then_bot(services):
    g = start(services, clock="2d", on_timeout="wait")
    late = to_act(services, g.game_id)[0]
    other = 1 - late
    services.clock.advance(days=2)
    assert play.timers(services).outcomes == {"waiting": 1}
    assert set(sources(services, g.game_id)) == {"start"}
    offers = [r for r in outbox(services, g.game_id, "timeout")]
    assert [r["seat"] for r in offers] == [other]
    assert [a["text"] for a in offers[0]["payload"]["timeout"]["actions"]] == [
        "Extend the deadline once", "Play the default move for them from now on"]
    assert play.timers(services).timed_out == 0          # told once
    done = timeouts.seat_action(services, g.game_id, other, 0, "extend", late)
    assert "now has until" in done
    assert seats(services, g.game_id)[late]["deadline"] == services.clock.now() + timedelta(days=2)
    try:
        timeouts.seat_action(services, g.game_id, other, 0, "extend", late)
        raise AssertionError("extended twice")
    except play.PlayError as exc:
        assert "already been extended once" in exc.detail
    services.clock.advance(days=2)
    assert play.timers(services).outcomes == {"waiting": 1}
    timeouts.seat_action(services, g.game_id, other, 0, "bot", late)
    assert sources(services, g.game_id)[-1] == "timer"
    assert to_act(services, g.game_id) == [other]


def test_three_missed_turns_mark_a_seat_absent(services):
    g = start(services, clock="1d", on_timeout="bot")
    late = to_act(services, g.game_id)[0]
    from tests.play.time.helpers import move
    for _ in range(3):
        services.clock.advance(days=1)
        play.timers(services)
        if position(services, g.game_id).engine.outcome(position(services, g.game_id).state):
            return
        move(services, g.game_id, 1 - late)
    assert seats(services, g.game_id)[late]["status"] == "absent"
    assert (late, "absent") in changes(services, g.game_id)


def test_sealed_aristocracy_round_times_out_every_unchosen_seat(services):
    players = ["a@example.org", "b@example.org", "c@example.org"]
    g = start(services, kind="aristocracy", players=players, clock="1d")
    waiting = to_act(services, g.game_id)
    assert len(waiting) > 1                  # a sealed round: each seat its own clock
    rows = seats(services, g.game_id)
    assert all(rows[s]["deadline"] is not None for s in waiting)
    # one seat chooses in time; the others run out
    from tests.play.time.helpers import move
    services.clock.advance(hours=2)
    move(services, g.game_id, waiting[0])
    assert seats(services, g.game_id)[waiting[0]]["deadline"] is None
    services.clock.advance(days=1)
    report = play.timers(services)
    assert report.timed_out == len(waiting) - 1
    assert sources(services, g.game_id).count("timer") >= len(waiting) - 1


def test_timeout_and_wait_emails_render_with_the_news_and_links(services):
    g = start(services, clock="1d")
    services.clock.advance(days=1)
    play.timers(services)
    w = start(services, clock="1d", on_timeout="wait", seed=9)
    services.clock.advance(days=1)
    play.timers(services)
    ids = [r["id"] for r in outbox(services)]
    assert set(play.deliver(services, ids).values()) == {"sent"}
    texts = [raw.decode() for _, raw in services.transport.messages()]
    assert any("Anna ran out of time; the default move was played for Anna" in t
               or "Ben ran out of time; the default move was played for Ben" in t for t in texts)
    assert any("You ran out of time; the default move was played for you" in t for t in texts)
    assert any("Extend the deadline once: http://turnpost.test/s/" in t for t in texts)
    history = play.read_game(services, g.game_id, play.Reader.at(g.game_id, 0)).history
    assert any("(played by the clock: out of time)" in h["text"] for h in history)
    assert w.game_id != g.game_id


def test_forfeit_with_three_players_plays_the_seat_on_and_ranks_it_last(services):
    players = ["a@example.org", "b@example.org", "c@example.org"]
    g = start(services, kind="aristocracy", players=players, clock="1d", on_timeout="forfeit")
    waiting = to_act(services, g.game_id)
    from tests.play.time.helpers import move
    for seat in waiting[1:]:
        move(services, g.game_id, seat)
    late = waiting[0]
    services.clock.advance(days=1)
    assert play.timers(services).outcomes == {"forfeited": 1}
    rows = seats(services, g.game_id)
    assert rows[late]["status"] == "forfeited"
    with services.db.transaction() as s:
        assert s.get(deadlines.GameRow, g.game_id).status == "active"
    # the clock played the forfeited seat's move
    assert sources(services, g.game_id)[-1] == "timer"
    # from now on its turns are due at once: whenever it is to act, the next sweep plays it
    for _ in range(5):
        if late in to_act(services, g.game_id):
            assert seats(services, g.game_id)[late]["deadline"] <= services.clock.now()
            play.timers(services)
            assert late not in to_act(services, g.game_id)
        others = [s for s in to_act(services, g.game_id) if s != late]
        if not others:
            break
        move(services, g.game_id, others[0])


def test_a_timeout_move_that_hands_the_turn_to_a_bot_kicks_the_bot(services):
    """The bot's turn follows the timeout move at once, not at the next periodic sweep
    (which kicks only bots whose kick was lost, a minute and more later)."""
    kicked = []
    services.enqueue = lambda job, *args: kicked.append((job, args))
    for seed in range(20):          # Trees' first player is drawn: deal until the person begins
        g = start(services, players=["bot", "Anna <anna@example.org>"], seed=seed, clock="1d")
        if not g.bots_next:
            break
    assert to_act(services, g.game_id) == [1]
    services.clock.advance(days=1, minutes=1)
    kicked.clear()
    report = play.timers(services)
    assert g.game_id in report.moved_games
    assert sources(services, g.game_id)[-1] == "timer"
    assert to_act(services, g.game_id) == [0]
    assert ("bots", (g.game_id,)) in kicked
    # a pass with nothing timed out kicks no bot
    kicked.clear()
    play.timers(services)
    assert not [k for k in kicked if k[0] == "bots"]
