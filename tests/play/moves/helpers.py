"""The moves family's shared test helpers: a game at a move that can be taken back, and an
outbox row delivered and read."""
from __future__ import annotations

import random
from email import message_from_bytes, policy

from service import play
from tests.play.time.helpers import position, start, to_act

PLAYERS = ["carol <carol@example.org>", "alice <alice@example.org>"]


def takeable(svc, game_id, seat):
    """A legal move of `seat` that the engine lets be taken back and that shows nobody a card
    they did not see before (a take-back cannot hide a card again), or None."""
    pos = position(svc, game_id)
    for move in pos.engine.legal_moves(pos.state, seat):
        events = pos.engine.decide(pos.state, seat, move, random.Random(0))
        after = pos.state
        for event in events:
            after = pos.engine.evolve(after, event)
        if pos.engine.can_take_back(pos.state, events) and not any(
                pos.engine.secrets(pos.state, s) - pos.engine.secrets(after, s)
                for s in (None, 0, 1)):
            return move
    return None


def suzerain_at_a_takeable_move(svc):
    """(game, the seat to move, its takeable move): the first seeded Suzerain deal whose first
    mover has one."""
    for seed in range(40):
        game_id = start(svc, kind="suzerain", players=PLAYERS, seed=seed).game_id
        (mover,) = to_act(svc, game_id)
        move = takeable(svc, game_id, mover)
        if move is not None:
            return game_id, mover, move
    raise AssertionError("no seeded Suzerain deal in 40 opens with a move that can be taken back")


def mail_of(svc, row_id):
    """Deliver one outbox row; its email, its plain text on one line, and its HTML."""
    before = len(svc.transport.messages())
    assert play.deliver(svc, [row_id]) == {row_id: "sent"}
    raw = svc.transport.messages()[before][1]
    msg = message_from_bytes(raw, policy=policy.default)
    return msg, " ".join(msg.get_body(("plain",)).get_content().split()), \
        msg.get_body(("html",)).get_content()
