"""Forced moves: a seat's one legal move that shows it nothing new is played for it after
the bots' delay (source 'forced'), and its next email says so; nobody else is told."""
from __future__ import annotations

import email
import random

import pytest
from sqlalchemy import select, update

from service import play
from service.games.contract import replay
from service.games.suzerain import GAME as SUZERAIN
from service.play import Intent
from service.play.moves import tablebots
from service.play.reads import pagereads
from service.play.time.sweep import timeouts
from service.store import EventRow, OutboxRow
from service.store.models import Player
from tests.play.helpers import position

PLAYERS = ["Anna <anna@example.org>", "ben@example.org"]
ADDRS = ["anna@example.org", "ben@example.org"]


def worker(svc):
    """The background jobs run at once, as the embedded worker runs them; the bots' kicks
    are counted."""
    kicked = []

    def run(job, *args):
        kicked.append(job)
        if job == "deliver":
            play.deliver(svc, args[0])
        elif job == "bots":
            tablebots.move_bots(svc, args[0])
    svc.enqueue = run
    return kicked


def forced_deal(svc):
    """A game whose leader has a lead the follower can answer one way only."""
    for seed in range(200):
        svc.chance = random.Random(seed)
        state = replay(SUZERAIN, SUZERAIN.start(2, {}, random.Random(seed)))
        for card in state.hands[state.leader]:
            lead = {"type": "lead", "card": card}
            led = replay(SUZERAIN, SUZERAIN.decide(state, state.leader, lead, random.Random(0)),
                         state)
            if SUZERAIN.forced_move(led, 1 - state.leader) is not None:
                svc.chance = random.Random(seed)
                game = play.start_game(svc, "suzerain", PLAYERS, {}).game_id
                pos = position(svc, game)
                if pos.state == state:
                    return game, pos, lead
    raise AssertionError("no forced follow in 200 deals")


def events_after(svc, game_id, seq):
    with svc.db.transaction() as s:
        return [tuple(r) for r in s.execute(
            select(EventRow.seat, EventRow.source, EventRow.type)
            .where(EventRow.game_id == game_id, EventRow.seq > seq).order_by(EventRow.seq))]


def mails_to(svc, addr):
    return [m for m in (email.message_from_bytes(raw) for _, raw in svc.transport.messages())
            if addr in m["To"]]


def text(msg):
    part = next(p for p in msg.walk() if p.get_content_type() == "text/plain")
    return part.get_payload(decode=True).decode()


def play_until_acts(svc, game, seat):
    for _ in range(10):
        pos = position(svc, game)
        acting = sorted(pos.engine.to_act(pos.state))
        if seat in acting or not acting:
            return pos
        mover = acting[0]
        play.submit(svc, Intent(game, mover, moves=[pos.engine.legal_moves(pos.state, mover)[0]],
                                source="web"))
    raise AssertionError("never their turn")


def test_a_forced_follow_is_played_for_the_follower_and_its_next_email_says_so(services):
    svc = services
    kicked = worker(svc)
    game, pos, lead = forced_deal(svc)
    leader, follower = pos.state.leader, 1 - pos.state.leader
    play.submit(svc, Intent(game, leader, moves=[lead], source="web"))
    assert "bots" in kicked               # the bots' path, with the bots' delay
    after = events_after(svc, game, pos.seq)
    assert after[0] == (leader, "web", "Led")
    assert after[1] == (follower, "forced", "Followed")
    with svc.db.transaction() as s:     # no turn email asked the follower for its only card
        assert not s.scalar(select(OutboxRow.id).where(
            OutboxRow.game_id == game, OutboxRow.seat == follower,
            OutboxRow.seq == pos.seq + 1))
    play_until_acts(svc, game, follower)
    told = text(mails_to(svc, ADDRS[follower])[-1])
    assert "Played for you, as your only move" in told
    assert all("only move" not in text(m) for m in mails_to(svc, ADDRS[leader]))


def test_only_the_follower_reads_that_its_move_was_forced(services):
    """Privacy: 'forced' says the follower held one card of the led suit."""
    svc = services
    worker(svc)
    game, pos, lead = forced_deal(svc)
    leader, follower = pos.state.leader, 1 - pos.state.leader
    play.submit(svc, Intent(game, leader, moves=[lead], source="web"))
    now = position(svc, game)
    names = [s.player.name for s in now.row.seats]
    with svc.db.transaction() as s:
        mine, _ = pagereads.history_page(s, now, follower, names, None)
        theirs, _ = pagereads.history_page(s, now, leader, names, None)
    assert any("your only move, played for you" in e["text"] for e in mine)
    assert not any("only move" in e["text"] for e in theirs)


def test_a_player_who_turned_forced_moves_off_is_asked_as_before(services):
    svc = services
    worker(svc)
    game, pos, lead = forced_deal(svc)
    leader, follower = pos.state.leader, 1 - pos.state.leader
    with svc.db.transaction() as s:
        s.execute(update(Player).where(Player.email == ADDRS[follower])
                  .values(forced_moves=False))
    play.submit(svc, Intent(game, leader, moves=[lead], source="web"))
    assert [e[1] for e in events_after(svc, game, pos.seq)] == ["web"]
    with svc.db.transaction() as s:
        assert s.scalar(select(OutboxRow.id).where(
            OutboxRow.game_id == game, OutboxRow.seat == follower,
            OutboxRow.seq == pos.seq + 1))


def test_a_move_that_shows_a_card_is_never_forced():
    """A take refills the display from the deck (or is blind): not forced even when it is
    the only move; nor is a right declined (rules 3 offers it on public facts alone); a lead
    of the only card in hand is."""
    state = replay(SUZERAIN, SUZERAIN.start(2, {}, random.Random(3)))
    for _ in range(400):
        acting = sorted(SUZERAIN.to_act(state))
        if not acting or SUZERAIN.outcome(state) is not None:
            break
        seat = acting[0]
        moves = SUZERAIN.legal_moves(state, seat)
        forced = SUZERAIN.forced_move(state, seat)
        if forced is not None:
            assert moves == [forced] and forced["type"] in ("lead", "play")
        if len(moves) == 1 and moves[0]["type"] in ("take", "take_blind", "discard",
                                                    "decline"):
            assert forced is None
        state = replay(SUZERAIN, SUZERAIN.decide(state, seat, moves[-1], random.Random(1)),
                       state)


def timed_forced_deal(svc):
    """A game on a 1-day clock whose leader's timeout move (the engine's default) is a lead
    the follower can answer one way only."""
    for seed in range(200):
        svc.chance = random.Random(seed)
        state = replay(SUZERAIN, SUZERAIN.start(2, {}, random.Random(seed)))
        lead = SUZERAIN.timeout_move(state, state.leader)
        led = replay(SUZERAIN, SUZERAIN.decide(state, state.leader, lead, random.Random(0)),
                     state)
        if SUZERAIN.forced_move(led, 1 - state.leader) is not None:
            svc.chance = random.Random(seed)
            game = play.start_game(svc, "suzerain", PLAYERS, {"clock": "1d"}).game_id
            pos = position(svc, game)
            if pos.state == state:
                return game, pos
    raise AssertionError("no forced follow after a timeout lead in 200 deals")


@pytest.mark.parametrize("bulk", [True, False], ids=["batched sweep", "per-game sweep"])
def test_a_forced_follow_after_a_timeout_sends_the_follower_no_turn_email(services, bulk):
    """The seat whose only move is played for it is not asked for it, whichever path gave it
    the turn: here the leader's timeout (the sweep's batch, or its per-game path)."""
    svc = services
    kicked = worker(svc)
    game, pos = timed_forced_deal(svc)
    leader, follower = pos.state.leader, 1 - pos.state.leader
    svc.clock.advance(days=1, minutes=1)
    timeouts.run(svc, bulk=bulk)
    assert "bots" in kicked
    after = events_after(svc, game, pos.seq)
    assert after[0] == (leader, "timer", "Led")
    assert after[1] == (follower, "forced", "Followed")
    with svc.db.transaction() as s:     # told of the timeout, never asked for its only card
        asked = s.scalars(select(OutboxRow.kind).where(
            OutboxRow.game_id == game, OutboxRow.seat == follower,
            OutboxRow.seq == pos.seq + 1)).all()
    assert asked == ["timeout"]
