"""Plans in Trees and Magnate: the same promises as in Suzerain (tests/play/moves/test_plans.py),
in each game's own command words."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from service import play
from service.games.contract import replay
from service.games.magnate import GAME as MAGNATE
from service.games.trees import GAME as TREES
from service.mailwire.outbound.catalogs import unkept
from service.play import Intent
from service.play.errors import PlayError
from service.play.moves import runner
from service.store import EventRow, OutboxRow
from service.store.models import Plan
from tests.budgets import examples
from tests.play.helpers import PLAYERS, position, start
from tests.play.moves.test_plans import answer_to


def events_after(svc, game_id, seq):
    with svc.db.transaction() as s:
        return [tuple(r) for r in s.execute(
            select(EventRow.seat, EventRow.source).where(EventRow.game_id == game_id,
                                                         EventRow.seq > seq)
            .order_by(EventRow.seq))]


def mails_after(svc, game_id, seq, seat):
    with svc.db.transaction() as s:
        return list(s.scalars(select(OutboxRow).where(
            OutboxRow.game_id == game_id, OutboxRow.seat == seat, OutboxRow.seq > seq,
            OutboxRow.kind == "turn")))


def standing(svc, game_id):
    with svc.db.transaction() as s:
        return [(p.seat, p.status, p.why) for p in s.scalars(select(Plan)
                                                             .where(Plan.game_id == game_id))]


def after(engine, state, seat, move):
    return replay(engine, engine.decide(state, seat, move, random.Random(0)), state)


# --- Trees ----------------------------------------------------------------------------------

def trees_exchange(state):
    """A play of the seat to act and a play of the other seat legal after it."""
    mover = next(iter(TREES.to_act(state)))
    for move in TREES.legal_moves(state, mover):
        then = after(TREES, state, mover, move)
        answers = [m for m in TREES.legal_moves(then, 1 - mover) if m["type"] == "play"]
        if move["type"] == "play" and answers:
            return mover, move, answers[0]
    raise AssertionError("no such exchange in this deal")


def test_trees_a_play_is_answered_by_plan_at_once(services):
    svc = services
    game = start(svc, "trees", seed=5).game_id
    pos = position(svc, game)
    mover, move, answer = trees_exchange(pos.state)
    said = runner.run_line(svc, game, 1 - mover,
                           f"if they {TREES.describe(move)} then {TREES.describe(answer)}")
    assert said.text.startswith("Plan kept: if they play")
    play.submit(svc, Intent(game, mover, moves=[move], source="web"))
    sources = events_after(svc, game, pos.seq)
    assert {s for s in sources if s[1] == "plan"} == {(1 - mover, "plan")}
    assert sources[0] == (mover, "web")
    now = position(svc, game).state
    assert answer["card"] in now["trees"][0]["kids"] or answer["card"] in now["trees"][1]["kids"]
    assert mails_after(svc, game, pos.seq, 1 - mover) == []     # nothing to answer by mail
    assert standing(svc, game) == [(1 - mover, "played", None)]


def test_trees_a_plan_lapses_when_they_move_otherwise(services):
    svc = services
    game = start(svc, "trees", seed=5).game_id
    pos = position(svc, game)
    mover, move, answer = trees_exchange(pos.state)
    runner.run_line(svc, game, 1 - mover,
                    f"if they {TREES.describe(move)} then {TREES.describe(answer)}")
    otherwise = next(m for m in TREES.legal_moves(pos.state, mover) if m != move)
    play.submit(svc, Intent(game, mover, moves=[otherwise], source="web"))
    assert {s for _, s in events_after(svc, game, pos.seq)} == {"web"}
    [(_, status, why)] = standing(svc, game)
    assert status == "dropped" and unkept(why).endswith(" moved otherwise")
    [mail] = mails_after(svc, game, pos.seq, 1 - mover)
    assert unkept(mail.payload["plans_dropped"][0]["why"]).endswith(" moved otherwise")


def test_trees_next_is_played_when_the_turn_comes(services):
    svc = services
    game = start(svc, "trees", seed=5).game_id
    pos = position(svc, game)
    mover, move, answer = trees_exchange(pos.state)
    runner.run_line(svc, game, 1 - mover, f"next: {TREES.describe(answer)}")
    play.submit(svc, Intent(game, mover, moves=[move], source="web"))
    assert (1 - mover, "plan") in events_after(svc, game, pos.seq)
    assert position(svc, game).state["to_act"] == mover


def test_trees_the_clock_moving_for_them_drops_the_plan(services):
    svc = services
    game = start(svc, "trees", seed=5).game_id
    pos = position(svc, game)
    mover, move, answer = trees_exchange(pos.state)
    runner.run_line(svc, game, 1 - mover,
                    f"if they {TREES.describe(move)} then {TREES.describe(answer)}")
    play.submit(svc, Intent(game, mover, moves=[move], source="timer"))
    assert {s for _, s in events_after(svc, game, pos.seq)} == {"timer"}
    [(_, status, why)] = standing(svc, game)
    assert status == "dropped" and "time ran out" in why


def test_trees_a_card_the_writer_holds_is_no_condition(services):
    svc = services
    game = start(svc, "trees", seed=5).game_id
    pos = position(svc, game)
    writer = 1 - pos.state["to_act"]
    mine = pos.state["hands"][writer][0]
    under = pos.state["trees"][0]["root"]
    with pytest.raises(PlayError, match="in your own hand"):
        runner.run_line(svc, game, writer, f"if they play {mine} under {under} then harvest")
    assert standing(svc, game) == []


def _trees_midgame(seed, steps):
    rng = random.Random(seed)
    state = replay(TREES, TREES.start(2, {}, rng))
    for _ in range(steps):
        seat = state["to_act"]
        if seat is None:
            break
        state = after(TREES, state, seat, rng.choice(TREES.legal_moves(state, seat)))
    return state


def _trees_reshuffled(state, writer, rng):
    """The same position as `writer` sees it, the other hand's cards swapped with the draw's."""
    other = 1 - writer
    pool = list(state["hands"][other]) + list(state["draw"])
    rng.shuffle(pool)
    size = len(state["hands"][other])
    hands = [list(h) for h in state["hands"]]
    hands[other] = pool[:size]
    return {**state, "hands": hands, "draw": pool[size:]}


@pytest.mark.deep
@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 30), pick=st.integers(0, 37),
       under=st.integers(0, 43), shuffle=st.integers(0, 10_000))
def test_trees_a_plans_answer_is_the_same_whatever_the_hidden_hands(seed, steps, pick, under,
                                                                      shuffle):
    """Privacy: accepting or refusing a line depends only on what its writer may know."""
    from service.games.cards import decktet
    from service.games.trees.state import DRAW_CARDS
    state = _trees_midgame(seed, steps)
    if state["to_act"] is None:
        return
    writer = 1 - state["to_act"]
    nodes = [c for t in state["trees"] for c in t["kids"]] or ["1M"]
    target = nodes[under % len(nodes)] if under < 30 else decktet.ALL[under % len(decktet.ALL)]
    answer = (TREES.legal_moves(after(TREES, state, state["to_act"],
                                      TREES.legal_moves(state, state["to_act"])[0]), writer)
              or [{"type": "harvest", "root": "1M"}])[0]
    line = f"they play {DRAW_CARDS[pick]} under {target} then {TREES.describe(answer)}"
    other_world = _trees_reshuffled(state, writer, random.Random(shuffle))
    assert answer_to(TREES, state, writer, line) == answer_to(TREES, other_world, writer, line)


# --- Magnate --------------------------------------------------------------------------------

def magnate_turn(svc, game):
    pos = position(svc, game)
    mover = pos.state.turn
    return pos, mover, pos.state.players[mover].hand[0], pos.state.players[1 - mover].hand[0]


def test_magnate_a_whole_turn_is_answered_by_plan(services):
    """A reply is a whole turn (M9): their sale ends their turn, the plan's sale and the end
    of the writer's turn follow at once."""
    svc = services
    game = start(svc, "magnate", seed=5).game_id
    pos, mover, theirs, mine = magnate_turn(svc, game)
    said = runner.run_line(svc, game, 1 - mover,
                           f"if they sell {MAGNATE.describe({'type': 'sell', 'card': theirs})[5:]}"
                           f" then sell {MAGNATE.describe({'type': 'sell', 'card': mine})[5:]}")
    assert said.text.startswith("Plan kept: if they sell")
    play.submit(svc, Intent(game, mover, moves=[{"type": "sell", "card": theirs}],
                            source="email", whole_turn=True))
    now = position(svc, game).state
    assert mine in now.discard and theirs in now.discard
    assert now.turn == mover                         # the writer's turn ended too
    assert (1 - mover, "plan") in events_after(svc, game, pos.seq)
    assert standing(svc, game) == [(1 - mover, "played", None)]


def test_magnate_a_plan_met_in_an_open_turn_waits_for_the_writers_turn(services):
    svc = services
    game = start(svc, "magnate", seed=5).game_id
    pos, mover, theirs, mine = magnate_turn(svc, game)
    name = pos.row.seats[mover].player.name       # as the issue writes it: "if bob sells ..."
    said = runner.run_line(svc, game, 1 - mover, f"if {name} sells {theirs} then sell {mine}")
    assert said.text.startswith("Plan kept: if they sell")
    play.submit(svc, Intent(game, mover, moves=[{"type": "sell", "card": theirs}], source="web"))
    assert [s for _, s in events_after(svc, game, pos.seq)] == ["web"]      # turn still open
    assert [status for _, status, _ in standing(svc, game)] == ["standing"]
    play.submit(svc, Intent(game, mover, moves=[{"type": "end"}], source="web"))
    now = position(svc, game).state
    assert mine in now.discard and now.turn == mover
    assert standing(svc, game) == [(1 - mover, "played", None)]


def test_magnate_a_hidden_choice_out_of_turn_neither_meets_nor_drops_a_plan(services):
    """M19: a preference set out of turn is unseen by the writer, so no plan answers it."""
    svc = services
    game = start(svc, "magnate", seed=5, replace_ace=True).game_id
    pos, mover, theirs, mine = magnate_turn(svc, game)
    runner.run_line(svc, game, mover, f"if they sell {mine} then sell {theirs}")
    play.submit(svc, Intent(game, 1 - mover, moves=[{"type": "replace_aces", "mode": "always"}],
                            source="web"))
    assert [status for _, status, _ in standing(svc, game)] == ["standing"]


def test_magnate_a_card_played_already_is_no_condition(services):
    svc = services
    game = start(svc, "magnate", seed=5).game_id
    pos, mover, theirs, mine = magnate_turn(svc, game)
    play.submit(svc, Intent(game, mover, moves=[{"type": "sell", "card": theirs}],
                            source="email", whole_turn=True))
    with pytest.raises(PlayError, match="already been played"):
        runner.run_line(svc, game, mover, f"if they sell {theirs} then sell {mine}")
    held = position(svc, game).state.players[mover].hand[0]
    with pytest.raises(PlayError, match="in your own hand"):
        runner.run_line(svc, game, mover, f"if they sell {held} then sell {held}")
    assert standing(svc, game) == []


def _magnate_reshuffled(state, writer, rng):
    other = 1 - writer
    pool = list(state.players[other].hand) + list(state.draw)
    rng.shuffle(pool)
    size = len(state.players[other].hand)
    players = list(state.players)
    players[other] = replace(players[other], hand=tuple(pool[:size]))
    return replace(state, players=tuple(players), draw=tuple(pool[size:]))


@pytest.mark.deep
@settings(max_examples=examples(30), deadline=None)
@given(seed=st.integers(0, 10_000), pick=st.integers(0, 200), verb=st.sampled_from(
    ["sell", "deed", "buy"]), shuffle=st.integers(0, 10_000))
def test_magnate_a_plans_answer_is_the_same_whatever_the_hidden_hands(seed, pick, verb,
                                                                        shuffle):
    from service.games.magnate.state import SUITS  # noqa: F401  (the engine's own cards)
    state = replay(MAGNATE, MAGNATE.start(2, {}, random.Random(seed)))
    writer = 1 - state.turn
    cards = sorted(set(state.draw) | {c for p in state.players for c in p.hand})
    card = cards[pick % len(cards)]
    line = f"they {verb} {card} then sell {state.players[writer].hand[0]}"
    other_world = _magnate_reshuffled(state, writer, random.Random(shuffle))
    assert answer_to(MAGNATE, state, writer, line) == answer_to(MAGNATE, other_world, writer, line)


def test_trees_at_three_a_plan_met_waits_for_the_writers_turn(services):
    """At a larger table another player moves between: the answer is played when the
    writer's turn comes, if still allowed."""
    svc = services
    svc.chance = random.Random(7)
    game = play.start_game(svc, "trees", PLAYERS + ["cy@example.org"], {}).game_id
    pos = position(svc, game)
    mover = pos.state["to_act"]
    middle, writer = (mover + 1) % 3, (mover + 2) % 3

    def a_play(state, seat):
        return next(m for m in TREES.legal_moves(state, seat) if m["type"] == "play")
    move = a_play(pos.state, mover)
    then = after(TREES, pos.state, mover, move)
    between = a_play(then, middle)
    answer = a_play(after(TREES, then, middle, between), writer)
    name = pos.row.seats[mover].player.name
    said = runner.run_line(svc, game, writer, f"if {name} {TREES.describe(move)} then "
                                           f"{TREES.describe(answer)}")
    assert said.text.startswith(f"Plan kept: if {name} play")
    play.submit(svc, Intent(game, mover, moves=[move], source="web"))
    assert [s for _, s in events_after(svc, game, pos.seq)] == ["web"] * len(
        events_after(svc, game, pos.seq))
    assert [status for _, status, _ in standing(svc, game)] == ["standing"]
    play.submit(svc, Intent(game, middle, moves=[between], source="web"))
    assert (writer, "plan") in events_after(svc, game, pos.seq)
    assert standing(svc, game) == [(writer, "played", None)]


def test_magnate_the_clock_moving_for_them_drops_the_plan_and_plays_nothing(services):
    """A plan and a timeout never both happen: the clock's sale is no answer to a plan."""
    svc = services
    game = start(svc, "magnate", seed=5).game_id
    pos, mover, theirs, mine = magnate_turn(svc, game)
    runner.run_line(svc, game, 1 - mover, f"if they sell {theirs} then sell {mine}")
    play.submit(svc, Intent(game, mover, moves=[{"type": "sell", "card": theirs}],
                            source="timer", whole_turn=True))
    assert {s for _, s in events_after(svc, game, pos.seq)} == {"timer"}
    [(_, status, why)] = standing(svc, game)
    assert status == "dropped" and "time ran out" in why
    assert mine in position(svc, game).state.players[1 - mover].hand


def on_a_clock_with_a_plan_on_its_timeout_move(svc):
    """A Trees game on a 1-day clock (the bot's move on a timeout): its id, position, the seat
    to act, and the other seat's plan answering exactly the move the clock would play."""
    svc.chance = random.Random(5)
    game = play.start_game(svc, "trees", PLAYERS, {"clock": "1d", "on_timeout": "bot"}).game_id
    pos = position(svc, game)
    mover = pos.state["to_act"]
    timed = TREES.timeout_move(pos.state, mover)
    answer = TREES.legal_moves(after(TREES, pos.state, mover, timed), 1 - mover)[0]
    return game, pos, mover, f"if they {TREES.describe(timed)} then {TREES.describe(answer)}"


def test_trees_the_sweep_timeout_and_a_plan_never_both_happen(services):
    """The mover's deadline passes with a plan waiting on its move: the clock moves (the
    sweep takes the per-game way for a game with plans), the plan is dropped and not played;
    a second sweep does nothing more."""
    from service.play.time.sweep import timeouts
    svc = services
    game, pos, mover, plan = on_a_clock_with_a_plan_on_its_timeout_move(svc)
    runner.run_line(svc, game, 1 - mover, plan)
    svc.clock.advance(days=1)
    timeouts.run(svc)
    made = events_after(svc, game, pos.seq)
    assert made and {s for _, s in made} == {"timer"}
    assert [status for _, status, _ in standing(svc, game)] == ["dropped"]
    timeouts.run(svc)
    assert len(events_after(svc, game, pos.seq)) == len(made)


def test_trees_a_plan_written_as_the_sweep_finds_the_seat_is_dropped_by_its_timeout(
        services, monkeypatch):
    """A plan written between the sweep finding a due seat and its batch locking the game
    (the plan's writer locks the game too, and commits first): the batch reads the plans
    under the lock, so the game goes the per-game way, where the clock's move drops the plan
    waiting on it, as it would a plan written any earlier (docs/playing.md, "Plans": a plan
    lapses when the player's clock moves for them)."""
    from service.play.time.sweep import timeoutbatch, timeouts
    svc = services
    game, pos, mover, plan = on_a_clock_with_a_plan_on_its_timeout_move(svc)
    batch = timeoutbatch.timeouts

    def plan_written_first(*args, **kwargs):
        # the due seats are found (without the plan); the plan's writer commits before the
        # batch takes the game's lock
        runner.run_line(svc, game, 1 - mover, plan)
        return batch(*args, **kwargs)

    monkeypatch.setattr(timeoutbatch, "timeouts", plan_written_first)
    svc.clock.advance(days=1)
    report = timeouts.run(svc)
    assert report.timed_out == 1
    made = events_after(svc, game, pos.seq)
    assert made and {s for _, s in made} == {"timer"}
    [(_, status, why)] = standing(svc, game)
    assert status == "dropped" and "time ran out" in why
