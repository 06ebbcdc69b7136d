"""A take-back asked and refused reaches the players as a notice from the game, not as a chat
line that a player seems to have written ("carol says: carol did not agree...")."""
from __future__ import annotations

from service import play
from service.play.moves import undo
from tests.play.moves.helpers import mail_of, suzerain_at_a_takeable_move
from tests.play.time.helpers import outbox


def test_a_take_back_asked_and_refused_are_notices_from_the_game(services):
    game_id, mover, move = suzerain_at_a_takeable_move(services)
    other = 1 - mover
    names = {0: "carol", 1: "alice"}
    play.submit(services, play.Intent(game_id, mover, moves=[move], source="web"))
    asked = undo.ask(services, game_id, mover)
    (ask_row,) = asked.outbox_ids
    msg, text, html = mail_of(services, ask_row)
    assert msg["To"] == f"{names[other]}@example.org"
    assert msg["Subject"].startswith(f"{names[mover]} asks to take back a move · Suzerain")
    assert f"{names[mover]} asks to take back their last move." in text
    assert "says" not in text and "says" not in msg["Subject"] and "says" not in html
    refused = undo.answer(services, game_id, other, False)
    (refusal_row,) = refused.outbox_ids
    msg, text, html = mail_of(services, refusal_row)
    assert msg["To"] == f"{names[mover]}@example.org"
    assert msg["Subject"].startswith(f"Take-back refused by {names[other]} · Suzerain")
    assert f"{names[other]} did not agree to take back your last move; it stands." in text
    assert "says" not in text and "says" not in msg["Subject"] and "says" not in html
    assert "say ..." not in text           # no invitation to answer a chat line
    kinds = {r["id"]: r["kind"] for r in outbox(services, game_id)}
    assert kinds[ask_row] == kinds[refusal_row] == "undo"
