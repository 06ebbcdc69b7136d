"""Ladders: join at the bottom; challenge up to three places above (not below, not further,
not someone on vacation, at most three open ladder games each); the challenge waits for the
defender, whose accepting starts the game as any game (or the ladder's stated time lapses);
when it ends with the challenger the winner they take the defender's place and the places
between step down, by the hook every end calls (or the catch-up when it was missed)."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select

from service.play import repository
from service.play.community import LadderRefused, ladders
from service.play.players import blocks, seatchanges
from service.play.time.sweep import periodic, timeouts
from service.store.models import GameRow, LadderChallenge, LadderGame, OutboxRow, Seat
from tests.play.community.helpers import player

NAMES = ("Anna", "Ben", "Cleo", "Dan", "Eve", "Finn")


@pytest.fixture
def ladder(services):
    """Six players on the Trees ladder, in the order of NAMES (Anna on top)."""
    ids = {n: player(services, n) for n in NAMES}
    for n in NAMES:
        ladders.join(services, ids[n], "trees")
    return ids


def started(services, ladder, challenger: str, defender: str) -> int:
    """A ladder challenge its defender accepts: its game's id."""
    challenge_id = ladders.challenge(services, ladder[challenger], "trees", ladder[defender])
    return ladders.accept(services, ladder[defender], challenge_id)


def order(services, viewer=None):
    return [r.name for r in ladders.view(services, "trees", viewer).rungs]


def end(services, game_id, winner_seat):
    """The loser resigns: a two-player game ends through the service's end."""
    seatchanges.resign(services, game_id, 1 - winner_seat)


def test_players_join_at_the_bottom_once(services, ladder):
    assert order(services) == list(NAMES)
    with pytest.raises(LadderRefused, match="already, in place 2"):
        ladders.join(services, ladder["Ben"], "trees")


def test_a_challenge_starts_a_normal_game(services, ladder):
    game_id = started(services, ladder, "Dan", "Anna")
    with services.db.transaction() as s:
        game = s.get(GameRow, game_id)
        assert game.status == "active" and game.clock == ladders.LADDER_CLOCK
        assert [r.player_id for r in game.seats] == [ladder["Anna"], ladder["Dan"]]


@pytest.mark.parametrize("challenger, defender, words", [
    ("Eve", "Anna", "4 places above yours (5); you may challenge at most 3"),
    ("Ben", "Cleo", "below yours"),
    ("Ben", "Ben", "yourself"),
])
def test_a_challenge_out_of_reach_is_refused_with_the_reason(services, ladder, challenger,
                                                             defender, words):
    with pytest.raises(LadderRefused) as refused:
        ladders.challenge(services, ladder[challenger], "trees", ladder[defender])
    assert words in refused.value.detail
    with services.db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(GameRow)) == 0


def test_the_viewer_sees_whom_they_may_challenge(services, ladder):
    rungs = ladders.view(services, "trees", ladder["Eve"]).rungs
    assert [r.name for r in rungs if r.challengeable] == ["Ben", "Cleo", "Dan"]


def test_the_winning_challenger_takes_the_higher_place(services, ladder):
    game_id = started(services, ladder, "Dan", "Ben")
    end(services, game_id, winner_seat=1)
    with services.db.transaction() as s:          # by the end's own transaction (the hook)
        assert s.get(LadderGame, game_id).settled
    assert order(services) == ["Anna", "Dan", "Ben", "Cleo", "Eve", "Finn"]


def test_a_defender_who_wins_keeps_the_place(services, ladder):
    game_id = started(services, ladder, "Dan", "Ben")
    end(services, game_id, winner_seat=0)
    assert order(services) == list(NAMES)


def test_an_end_the_hook_missed_is_settled_by_the_catch_up(services, ladder):
    game_id = started(services, ladder, "Cleo", "Anna")
    with services.db.transaction() as s:          # ended as a process without the hook would
        game = s.get(GameRow, game_id)
        game.status, game.result = "ended", {"winners": [1], "last": [0], "how": "x"}
    assert order(services) == ["Cleo", "Anna", "Ben", "Dan", "Eve", "Finn"]


def test_a_shared_result_changes_nothing(services, ladder):
    game_id = started(services, ladder, "Cleo", "Anna")
    with services.db.transaction() as s:
        game = s.get(GameRow, game_id)
        game.status, game.result = "ended", {"winners": [0, 1], "last": [], "how": "x"}
    assert order(services) == list(NAMES)


def test_at_most_three_open_ladder_games_each(services, ladder):
    for defender in ("Cleo", "Dan", "Eve"):
        started(services, ladder, "Finn", defender)
    with pytest.raises(LadderRefused, match="You have 3 ladder games open"):
        ladders.challenge(services, ladder["Finn"], "trees", ladder["Cleo"])
    # an ended game frees its place in the count
    with services.db.transaction() as s:
        game_id = s.scalar(select(LadderGame.game_id).where(
            LadderGame.challenger_id == ladder["Finn"]).order_by(LadderGame.game_id))
    end(services, game_id, winner_seat=0)
    ladders.challenge(services, ladder["Finn"], "trees", ladder["Dan"])


def test_a_defender_with_three_open_ladder_games_is_not_challenged(services, ladder):
    started(services, ladder, "Ben", "Anna")
    for challenger in ("Cleo", "Dan"):
        started(services, ladder, challenger, "Ben")
    with pytest.raises(LadderRefused, match="That player has 3 ladder games open"):
        ladders.challenge(services, ladder["Eve"], "trees", ladder["Ben"])


def test_a_player_on_vacation_shows_so_and_cannot_be_challenged_until_back(services, ladder):
    seatchanges.take_vacation(services, ladder["Ben"], "vacation 5")
    rungs = {r.name: r for r in ladders.view(services, "trees", ladder["Dan"]).rungs}
    assert rungs["Ben"].on_vacation and not rungs["Ben"].challengeable
    with pytest.raises(LadderRefused, match="on vacation"):
        ladders.challenge(services, ladder["Dan"], "trees", ladder["Ben"])
    seatchanges.take_vacation(services, ladder["Ben"], "back")
    assert not ladders.view(services, "trees").rungs[1].on_vacation
    ladders.challenge(services, ladder["Dan"], "trees", ladder["Ben"])


def test_blocked_players_do_not_challenge_each_other(services, ladder):
    blocks.block(services, ladder["Anna"], ladder["Ben"])
    with pytest.raises(LadderRefused, match="blocked"):
        ladders.challenge(services, ladder["Ben"], "trees", ladder["Anna"])


def test_a_ladder_of_an_unknown_game_is_refused(services):
    with pytest.raises(LadderRefused, match="no game called"):
        ladders.view(services, "chess")


def test_seats_of_a_challenge(services, ladder):
    game_id = started(services, ladder, "Ben", "Anna")
    with services.db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(Seat).where(Seat.game_id == game_id)) == 2


@pytest.mark.parametrize("bulk", [True, False])
def test_a_ladder_game_ended_by_the_clock_is_settled_by_the_sweep(services, ladder, bulk):
    """A seat that runs out of time forfeits (two players: the end), by the batched sweep or
    the per-game one; the end's own transaction settles the ladder."""
    game_id = started(services, ladder, "Dan", "Ben")
    with services.db.transaction() as s:
        s.get(GameRow, game_id).on_timeout = "forfeit"
        for row in s.scalars(select(Seat).where(Seat.game_id == game_id)):
            row.on_timeout = "forfeit"
    with services.db.transaction() as s:
        loaded = repository.load(s, services.states, game_id)
        late = sorted(loaded.engine.to_act(loaded.state))
    services.clock.advance(days=3, minutes=1)
    timeouts.run(services, bulk=bulk)
    with services.db.transaction() as s:
        assert s.get(GameRow, game_id).status == "ended"
        assert s.get(LadderGame, game_id).settled
    expected = list(NAMES) if late == [1] else ["Anna", "Dan", "Ben", "Cleo", "Eve", "Finn"]
    assert order(services) == expected


def test_a_player_who_leaves_frees_the_place_and_those_below_step_up(services, ladder):
    assert ladders.leave(services, ladder["Cleo"], "trees") == 0
    assert order(services) == ["Anna", "Ben", "Dan", "Eve", "Finn"]
    assert [r.place for r in ladders.view(services, "trees").rungs] == [1, 2, 3, 4, 5]
    with pytest.raises(LadderRefused, match="not on this ladder"):
        ladders.leave(services, ladder["Cleo"], "trees")
    assert ladders.join(services, ladder["Cleo"], "trees") == 6      # back at the bottom


def test_a_leavers_open_ladder_games_play_on_outside_the_ladder(services, ladder):
    game_id = started(services, ladder, "Dan", "Ben")
    started(services, ladder, "Eve", "Dan")
    assert ladders.leave(services, ladder["Dan"], "trees") == 2
    rungs = {r.name: r for r in ladders.view(services, "trees", ladder["Eve"]).rungs}
    assert rungs["Ben"].open_games == 0 and rungs["Eve"].open_games == 0
    with services.db.transaction() as s:
        assert s.get(GameRow, game_id).status == "active"       # the game itself goes on
    end(services, game_id, winner_seat=1)                        # Dan, the challenger, wins
    assert order(services) == ["Anna", "Ben", "Cleo", "Eve", "Finn"]


# -- the defender's consent (issue 49, item 17) ------------------------------------------------

def _games(services) -> int:
    with services.db.transaction() as s:
        return s.scalar(select(func.count()).select_from(GameRow))


def test_a_challenge_waits_for_the_defender_who_is_told_and_accepts(services, ladder):
    challenge_id = ladders.challenge(services, ladder["Dan"], "trees", ladder["Ben"])
    assert _games(services) == 0, "no game without the defender's consent"
    with services.db.transaction() as s:
        told = s.scalars(select(OutboxRow).where(OutboxRow.kind == "ladder_challenge")).all()
        assert [r.to_addr for r in told] == ["ben@example.org"]
        assert told[0].payload["challenger"] == "Dan" and told[0].payload["place"] == 2
    seen = ladders.view(services, "trees", ladder["Ben"])
    assert [(w.id, w.opponent) for w in seen.to_answer] == [(challenge_id, "Dan")]
    mine = ladders.view(services, "trees", ladder["Dan"])
    assert [w.opponent for w in mine.asked] == ["Ben"]
    assert not next(r for r in mine.rungs if r.name == "Ben").challengeable
    with pytest.raises(LadderRefused, match="challenged that player already"):
        ladders.challenge(services, ladder["Dan"], "trees", ladder["Ben"])
    with pytest.raises(LadderRefused, match="not a ladder challenge to you"):
        ladders.accept(services, ladder["Dan"], challenge_id)       # only the defender
    game_id = ladders.accept(services, ladder["Ben"], challenge_id)
    with services.db.transaction() as s:
        game = s.get(GameRow, game_id)
        assert [r.player_id for r in game.seats] == [ladder["Ben"], ladder["Dan"]]
        assert s.get(LadderChallenge, challenge_id).game_id == game_id
    with pytest.raises(LadderRefused, match="started already"):
        ladders.accept(services, ladder["Ben"], challenge_id)
    assert _games(services) == 1


def test_a_challenge_not_accepted_in_the_stated_time_starts_by_itself(services, ladder):
    ladders.challenge(services, ladder["Cleo"], "trees", ladder["Anna"])
    services.clock.advance(seconds=ladders.ANSWER_WITHIN.total_seconds() - 60)
    periodic.sweep(services)
    assert _games(services) == 0
    services.clock.advance(minutes=2)
    periodic.sweep(services)                     # the sweep's pass
    assert _games(services) == 1
    assert ladders.start_lapsed(services) == 0, "once"


def test_a_withdrawn_or_void_challenge_never_starts(services, ladder):
    first = ladders.challenge(services, ladder["Cleo"], "trees", ladder["Anna"])
    ladders.withdraw(services, ladder["Cleo"], first)
    with pytest.raises(LadderRefused, match="withdrawn by its challenger"):
        ladders.accept(services, ladder["Anna"], first)
    second = ladders.challenge(services, ladder["Dan"], "trees", ladder["Ben"])
    ladders.leave(services, ladder["Ben"], "trees")
    with pytest.raises(LadderRefused, match="no longer stands"):
        ladders.accept(services, ladder["Ben"], second)
    services.clock.advance(days=4)
    assert ladders.start_lapsed(services) == 0 and _games(services) == 0
