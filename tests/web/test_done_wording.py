"""What the pages and answers say after a move reads true: a bot is not promised an email, a
name ending in a full stop gets no second one, the clock's move for your own seat says the
clock played it, a move out of turn says whose move it is, a turn that ended by itself says
so, and the API's 409 carries the position it speaks of."""
from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from service import play
from service.play import repository
from service.store.models import Player
from tests.web.helpers import form_client, latest_to, move_links, start_game

ME = "me@example.org"


def _position(app, gid):
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        return repository.load(s, svc.states, gid)


def test_the_done_page_promises_a_bot_no_email(app):
    client = form_client(app)
    start_game(app, "trees", [ME, "bot:normal"])
    _, path = move_links(latest_to(app, ME))[0]
    done = client.post(path).text
    assert "Normal bot" in done and "plays by itself" in done
    assert "They get an email" not in done


def test_a_name_ending_in_a_full_stop_gets_no_second_one(app):
    client = form_client(app)
    start_game(app, "trees", [ME, "alice@example.org"])
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        s.scalars(select(Player).where(Player.email == "alice@example.org")).one().name = \
            "Alice A."
    mover = next(a for a in (ME, "alice@example.org") if move_links(latest_to(app, a)))
    if mover != ME:
        client.post(move_links(latest_to(app, mover))[0][1])
    done = re.sub(r"<[^>]+>", "", client.post(move_links(latest_to(app, ME))[0][1]).text)
    assert "Next to move: Alice A." in done and "Alice A.." not in done


def test_the_clocks_move_for_your_own_seat_says_the_clock_played_it(app):
    gid = start_game(app, "trees", [ME, "ben@example.org"]).game_id
    svc = app.extensions["turnpost"]
    pos = _position(app, gid)
    (seat,) = pos.engine.to_act(pos.state)
    move = pos.engine.legal_moves(pos.state, seat)[0]
    play.submit(svc, play.Intent(gid, seat, moves=[move], source="timer"))
    mine = [h["text"] for h in play.read_game(svc, gid, play.Reader.at(gid, seat)).history
            if h["kind"] == "event"]
    theirs = [h["text"] for h in play.read_game(svc, gid, play.Reader.at(gid, 1 - seat)).history
              if h["kind"] == "event"]
    assert any(t.startswith("Your time ran out, so the clock played for you: ") for t in mine)
    assert not any("(played by the clock" in t for t in mine)
    assert any(t.endswith("(played by the clock: out of time)") for t in theirs)


def test_a_move_out_of_turn_says_whose_move_it_is(app):
    gid = start_game(app, "trees", [ME, "ben@example.org"]).game_id
    svc = app.extensions["turnpost"]
    pos = _position(app, gid)
    (seat,) = pos.engine.to_act(pos.state)
    first = pos.engine.legal_moves(pos.state, seat)[0]
    play.submit(svc, play.Intent(gid, seat, moves=[first], source="link"))
    with pytest.raises(play.PositionChanged) as late:
        play.submit(svc, play.Intent(gid, seat, lines=[pos.engine.describe(first)],
                                     expected_seq=pos.seq, source="email", whole_turn=True))
    other = _position(app, gid).row.seats[1 - seat].player.name
    assert f"it is {other}'s move now" in late.value.detail


def test_a_turn_that_ended_by_itself_says_so(app):
    gid = start_game(app, "trees", [ME, "ben@example.org"]).game_id
    svc = app.extensions["turnpost"]
    pos = _position(app, gid)
    (seat,) = pos.engine.to_act(pos.state)
    lines = [pos.engine.describe(m) for m in pos.engine.legal_moves(pos.state, seat)[:2]]
    with pytest.raises(play.Refused) as refused:
        play.submit(svc, play.Intent(gid, seat, lines=lines, source="email", whole_turn=True))
    assert "ended by itself" in refused.value.detail
