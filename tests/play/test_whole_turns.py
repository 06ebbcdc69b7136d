"""A Magnate turn stays open after the card play (RULINGS M9 as amended, rules version 2): a
reply's lines and a one-click email link are each one whole turn, ended for the player unless
the reply's last line is `keep`; the game page's buttons compose a turn step by step."""
from __future__ import annotations

import random

import pytest

from service import play
from service.play import repository

PLAYERS = ["anna@example.org", "ben@example.org"]


def start(svc):
    svc.chance = random.Random(11)
    return play.start_game(svc, "magnate", PLAYERS, {"ruleset": "classic"}).game_id


def position(svc, gid):
    with svc.db.transaction() as s:
        return repository.load(s, svc.states, gid)


def a_sale(svc, gid):
    pos = position(svc, gid)
    (seat,) = pos.engine.to_act(pos.state)
    sale = next(m for m in pos.engine.legal_moves(pos.state, seat) if m["type"] == "sell")
    return pos, seat, sale


@pytest.mark.parametrize("whole_turn, keep, still_mine", [
    (True, False, False),      # a reply "sell ...": the turn ends with it
    (True, True, True),        # a reply "sell ... / keep": the turn stays open
    (False, False, True),      # the page's button: one step, the turn stays open
])
def test_a_card_play_ends_the_turn_only_when_the_submission_is_a_whole_turn(
        services, whole_turn, keep, still_mine):
    # RULINGS M9
    gid = start(services)
    pos, seat, sale = a_sale(services, gid)
    lines = [pos.engine.describe(sale)] + (["keep"] if keep else [])
    applied = play.submit(services, play.Intent(gid, seat, lines=lines, source="email",
                                                whole_turn=whole_turn))
    after = position(services, gid)
    assert (seat in after.engine.to_act(after.state)) is still_mine
    ended = [m for m in applied.moves if m["type"] == "end"]
    if still_mine:
        assert ended == [] and after.engine.view(after.state, seat).get("turn_open")
    else:
        assert ended == [{"type": "end"}]


def test_the_open_turn_is_ended_by_an_end_line_later(services):
    # RULINGS M9: "end" closes a turn left open
    gid = start(services)
    pos, seat, sale = a_sale(services, gid)
    play.submit(services, play.Intent(gid, seat, moves=[sale], source="web"))
    assert seat in position(services, gid).engine.to_act(position(services, gid).state)
    play.submit(services, play.Intent(gid, seat, lines=["end"], source="email",
                                      whole_turn=True))
    after = position(services, gid)
    assert seat not in after.engine.to_act(after.state)


def test_an_email_link_plays_the_card_and_ends_the_turn(client, app):
    # RULINGS M9: one click on a card play link plays it and ends the turn
    from ..web.helpers import latest_to, move_links, start_game
    start_game(app, "magnate", PLAYERS)
    mover = next(a for a in PLAYERS if move_links(latest_to(app, a)))
    text, path = next((t, p) for t, p in move_links(latest_to(app, mover)) if "sell" in t.lower())
    assert client.post(path).status_code == 200
    other = next(a for a in PLAYERS if a != mover)
    assert move_links(latest_to(app, other)), "the turn passed to the other player"


def test_keep_alone_answers_the_ace_question_instead_of_keeping_the_turn_open():
    # RULINGS M16 ("ask" keeps the turn open for the answer) against M9 (a last line `keep`
    # keeps a turn open): `keep` as the whole answer to the Ace question keeps the Ace
    from dataclasses import replace
    from types import SimpleNamespace

    from service.games import registry
    from service.games.contract import replay
    from service.play.moves.submit import Intent, decide_all

    engine, rng = registry.get("magnate"), random.Random(3)
    state = replay(engine, engine.start(2, {"ruleset": "classic", "replace_ace": True}, rng))
    seat = state.turn
    players = list(state.players)
    players[seat] = replace(players[seat], hand=tuple(c for c in players[seat].hand
                                                      if c != "1M"),
                            aces="ask")   # rules 3 start at "never" (M16 amended)
    state = replace(state, players=tuple(players),
                    draw=("1M",) + tuple(c for c in state.draw if c != "1M"))   # an Ace next
    sale = next(m for m in engine.legal_moves(state, seat) if m["type"] == "sell")
    pos = SimpleNamespace(engine=engine, state=state)
    _, _, state = decide_all(pos, Intent(1, seat, moves=[sale], source="email",
                                         whole_turn=True), rng)
    assert state.phase == "ask", "the end-of-turn draw was the Ace, and the player is asked"
    pos = SimpleNamespace(engine=engine, state=state)
    _, moves, after = decide_all(pos, Intent(1, seat, lines=["keep"], source="email",
                                             whole_turn=True), rng)
    assert moves == [{"type": "keep", "card": "1M"}]
    assert "1M" in after.players[seat].hand


@pytest.mark.parametrize("source, whole_turn", [
    ("api", False),        # one step through the API: the turn stays open
    ("cli", False),
    ("web", False),
    ("email", True),       # a reply: the turn ends with it
    ("link", True),
])
def test_nobody_is_mailed_about_their_own_move_whatever_the_way_in(services, source, whole_turn):
    from sqlalchemy import select

    from service.store.models import OutboxRow, Player
    gid = start(services)
    with services.db.transaction() as s:         # every change is mailed to these players
        for player in s.scalars(select(Player).where(Player.email.in_(PLAYERS))):
            player.mail_mode = "every"
    pos, seat, sale = a_sale(services, gid)
    applied = play.submit(services, play.Intent(gid, seat, moves=[sale], source=source,
                                                whole_turn=whole_turn))
    with services.db.transaction() as s:
        mailed = {r.seat for r in s.scalars(select(OutboxRow).where(
            OutboxRow.id.in_(applied.outbox_ids)))}
    assert seat not in mailed
    assert mailed == ({1 - seat} if whole_turn else set())   # the next to move hears of it
