"""The bots' use case without the web: a lost kick is made good by the sweep, and a game
waiting for its person is not looked at again."""
from __future__ import annotations

from service import play
from service.play import repository
from service.play.moves import tablebots


def test_the_sweep_finds_bots_whose_kick_was_lost_and_not_games_waiting_for_a_person(services):
    kicked = []
    services.enqueue = lambda job, *args: kicked.append((job, args))
    # Trees' first player is drawn: deal until the bot begins
    for _ in range(20):
        started = play.start_game(services, "trees", ["bot", "me@example.org"], {})
        if started.bots_next:
            break
    with services.db.transaction() as s:
        assert tablebots.stalled(s, services.clock.now()) == []          # too recent
    services.clock.advance(minutes=2)
    with services.db.transaction() as s:
        # only the game whose bot is to act, not those waiting for their person
        assert tablebots.stalled(s, services.clock.now()) == [started.game_id]
    kicked.clear()
    play.sweep(services)
    assert ("bots", (started.game_id,)) in kicked
    # the bot moves (the worker's job); now the person is to act and the game is not stalled
    tablebots.move_bots(services, started.game_id)
    with services.db.transaction() as s:
        pos = repository.load(s, services.states, started.game_id)
        assert pos.engine.to_act(pos.state) == {1}
    services.clock.advance(hours=5)
    with services.db.transaction() as s:
        assert tablebots.stalled(s, services.clock.now()) == []
