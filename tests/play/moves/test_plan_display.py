"""A seat's standing plans in its emails and on its page, and the plans offered it ("plan
replies"), which come from its own knowledge only."""
from __future__ import annotations

import email
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import select, update

from service import play
from service.games.contract import replay
from service.games.suzerain import GAME as SUZERAIN
from service.games.trees import GAME as TREES
from service.play import Intent
from service.play.moves import runner, standingplans
from service.store import OutboxRow
from service.store.models import Player
from tests.budgets import examples
from tests.play.helpers import position

PEOPLE = ["Anna <anna@example.org>", "ben@example.org", "cy@example.org"]


def text_to(svc, addr):
    found = [m for m in (email.message_from_bytes(raw) for _, raw in svc.transport.messages())
             if addr in m["To"]]
    part = next(p for p in found[-1].walk() if p.get_content_type() == "text/plain")
    return part.get_payload(decode=True).decode()


def test_standing_plans_ride_in_the_writers_email_and_on_its_page_only(services):
    svc = services
    svc.enqueue = lambda job, *args: play.deliver(svc, args[0]) if job == "deliver" else None
    svc.chance = random.Random(7)
    game = play.start_game(svc, "trees", PEOPLE, {}).game_id
    pos = position(svc, game)
    mover = pos.state["to_act"]
    middle, writer = (mover + 1) % 3, (mover + 2) % 3
    addr = PEOPLE[writer].split("<")[-1].rstrip(">")
    with svc.db.transaction() as s:       # the writer watches every move
        s.execute(update(Player).where(Player.email == addr).values(mail_mode="every"))
    first, second = (TREES.describe({"type": "harvest", "root": t["root"]})
                     for t in pos.state["trees"])
    name = pos.row.seats[middle].player.name
    said = runner.run_line(svc, game, writer, f"if {name} {first} then {second}")
    assert said.text == f"Plan kept: if {name} {first} then {second}."
    move = next(m for m in TREES.legal_moves(pos.state, mover) if m["type"] == "play")
    play.submit(svc, Intent(game, mover, moves=[move], source="web"))
    with svc.db.transaction() as s:
        payloads = {r.seat: r.payload for r in s.scalars(select(OutboxRow).where(
            OutboxRow.game_id == game, OutboxRow.seq > pos.seq))}
    assert payloads[writer]["plans"] == [f"if {name} {first} then {second}"]
    assert all("plans" not in p for seat, p in payloads.items() if seat != writer)
    mail = text_to(svc, addr)
    assert "Your plans (nobody else sees them" in mail and f"then {second}" in mail
    assert play.read_game(svc, game, play.Reader.at(game, writer)).plans == [
        f"if {name} {first} then {second}"]
    assert play.read_game(svc, game, play.Reader.at(game, middle)).plans == []


def _suzerain_after(seed, steps):
    rng = random.Random(seed)
    state = replay(SUZERAIN, SUZERAIN.start(2, {}, rng))
    for _ in range(steps):
        acting = sorted(SUZERAIN.to_act(state))
        if not acting:
            break
        seat = acting[0]
        state = replay(SUZERAIN, SUZERAIN.decide(
            state, seat, rng.choice(SUZERAIN.legal_moves(state, seat)), rng), state)
    return state


def _hidden_shuffled(state, seat, rng):
    """The opponent's unseen hand cards swapped with the deck's: what `seat` cannot tell."""
    other = 1 - seat
    hidden = [c for c in state.hands[other] if c not in state.public]
    pool = hidden + list(state.deck)
    rng.shuffle(pool)
    hands = list(state.hands)
    hands[other] = tuple(sorted([c for c in state.hands[other] if c in state.public]
                                + pool[:len(hidden)]))
    return replace(state, hands=tuple(hands), deck=tuple(pool[len(hidden):]))


@pytest.mark.deep
@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 40), shuffle=st.integers(0, 10_000))
def test_plan_replies_come_from_the_seats_own_knowledge_and_are_plans_it_may_write(
        seed, steps, shuffle):
    state = _suzerain_after(seed, steps)
    for seat in (0, 1):
        offered = standingplans.hints(SUZERAIN, state, seat, ["a", "b"])
        assert offered == standingplans.hints(SUZERAIN, _hidden_shuffled(state, seat,
                                                                 random.Random(shuffle)),
                                      seat, ["a", "b"])
        for line in offered:
            assert standingplans.judge(SUZERAIN, state, seat, ["a", "b"], "if", line[3:]).kind == "if"


def test_the_loser_about_to_discard_is_offered_answers_to_the_known_leads():
    for seed in range(50):
        state = _suzerain_after(seed, 0)
        while sorted(SUZERAIN.to_act(state)) and state.phase != "discard":
            seat = sorted(SUZERAIN.to_act(state))[0]
            state = replay(SUZERAIN, SUZERAIN.decide(state, seat, SUZERAIN.legal_moves(
                state, seat)[0], random.Random(seed)), state)
        if state.phase == "discard" and state.next_leader == state.winner:
            offered = standingplans.hints(SUZERAIN, state, state.loser, ["a", "b"])
            assert offered and all(line.startswith("if they lead ") for line in offered)
            return
    raise AssertionError("no discard with the winner leading next")
