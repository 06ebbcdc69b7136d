"""A take-back asked and refused reaches the players as a notice from the game, not as a chat
line that a player seems to have written ("carol says: carol did not agree...")."""
from __future__ import annotations

import random
from email import message_from_bytes, policy

from service import play
from service.play.moves import undo
from tests.play.time.helpers import outbox, position, start, to_act

PLAYERS = ["carol <carol@example.org>", "alice <alice@example.org>"]


def _takeable(svc, game_id, seat):
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


def _mail_of(svc, row_id):
    before = len(svc.transport.messages())
    assert play.deliver(svc, [row_id]) == {row_id: "sent"}
    raw = svc.transport.messages()[before][1]
    msg = message_from_bytes(raw, policy=policy.default)
    return msg, " ".join(msg.get_body(("plain",)).get_content().split()), \
        msg.get_body(("html",)).get_content()


def test_a_take_back_asked_and_refused_are_notices_from_the_game(services):
    for seed in range(40):
        game_id = start(services, kind="suzerain", players=PLAYERS, seed=seed).game_id
        (mover,) = to_act(services, game_id)
        move = _takeable(services, game_id, mover)
        if move is not None:
            break
    other = 1 - mover
    names = {0: "carol", 1: "alice"}
    play.submit(services, play.Intent(game_id, mover, moves=[move], source="web"))
    asked = undo.ask(services, game_id, mover)
    (ask_row,) = asked.outbox_ids
    msg, text, html = _mail_of(services, ask_row)
    assert msg["To"] == f"{names[other]}@example.org"
    assert msg["Subject"].startswith(f"{names[mover]} asks to take back a move · Suzerain")
    assert f"{names[mover]} asks to take back their last move." in text
    assert "says" not in text and "says" not in msg["Subject"] and "says" not in html
    refused = undo.answer(services, game_id, other, False)
    (refusal_row,) = refused.outbox_ids
    msg, text, html = _mail_of(services, refusal_row)
    assert msg["To"] == f"{names[mover]}@example.org"
    assert msg["Subject"].startswith(f"Take-back refused by {names[other]} · Suzerain")
    assert f"{names[other]} did not agree to take back your last move; it stands." in text
    assert "says" not in text and "says" not in msg["Subject"] and "says" not in html
    assert "say ..." not in text           # no invitation to answer a chat line
    kinds = {r["id"]: r["kind"] for r in outbox(services, game_id)}
    assert kinds[ask_row] == kinds[refusal_row] == "undo"
