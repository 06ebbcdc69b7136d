"""Undo by agreement, per game: a move that hid nothing and drew nothing is taken back when
everyone accepts (a `MoveTakenBack` event appended, every view as before the move), stays when
someone refuses, and a move that drew chance or turned up a hidden card cannot be taken back.
Two requests at once, nothing to undo, and a request after a later move: refused with words."""
from __future__ import annotations

import html
import random

import pytest
from sqlalchemy import func, select

from service.linking import freshness
from service.linking.signer import Claims
from service.play import repository
from service.store.models import EventRow, UndoRequest
from tests.web.helpers import form_client, table_game

GAMES = [("trees", 2, {}), ("magnate-roller", 2, {}), ("suzerain", 2, {}),
         ("aristocracy", 3, {"aristocracy.round_cap": "1"})]
IDS = [g[0] for g in GAMES]
# Every Trees move draws a card (T-rules: play then draw; a harvest starts a new tree from the
# shuffled roots and draws), so no Trees move can be taken back: only the refusal is tested.
TAKEABLE = GAMES[1:]


@pytest.fixture
def client(app):
    """Forms posted with the session's CSRF token, as the pages post them."""
    return form_client(app)


def _start(client, app, entry, seats, extra):
    players = [f"p{n}@example.org" for n in range(seats)]
    return table_game(app, entry, players, extra), app.extensions["turnpost"]


def _pos(svc, gid):
    with svc.db.transaction() as s:
        return repository.load(s, svc.states, gid)


def _move(client, svc, gid, seat, move):
    pos = _pos(svc, gid)
    token = svc.urls.signer.dumps("move", Claims(gid, seat, freshness.mark(pos.engine, pos.state,
                                                                        seat), move))
    r = client.post(f"/m/{token}", data={"then": "game"})
    assert r.status_code == 302, r.text


def _takeable(pos, seat, move) -> bool:
    events = pos.engine.decide(pos.state, seat, move, random.Random(0))
    after = pos.state
    for e in events:
        after = pos.engine.evolve(after, e)
    seats = len(pos.row.seats)
    revealed = any(pos.engine.secrets(pos.state, s) - pos.engine.secrets(after, s)
                   for s in [None, *range(seats)])
    if pos.engine.outcome(after) is not None:
        return None                 # a move that ends the game is neither: nothing follows
    return pos.engine.can_take_back(pos.state, events) and not revealed


def _play_until(client, svc, gid, want_takeable: bool, seed=5):
    """Random play until the seat to act has a move that can (or cannot) be taken back;
    returns (seat, move)."""
    rng = random.Random(seed)
    for _ in range(3000):
        pos = _pos(svc, gid)
        assert pos.engine.outcome(pos.state) is None, "the game ended first"
        for seat in sorted(pos.engine.to_act(pos.state)):
            moves = pos.engine.legal_moves(pos.state, seat)
            rng.shuffle(moves)
            for move in moves[:40]:
                if _takeable(pos, seat, move) == want_takeable:
                    return seat, move
        seat = rng.choice(sorted(pos.engine.to_act(pos.state)))
        _move(client, svc, gid, seat, pos.engine.bots["easy"](pos.state, seat, rng))
    pytest.fail("no such move found")


def _undo(client, svc, gid, seat, answer=""):
    return client.post(svc.urls.game_path(gid, seat) + "/undo", data={"answer": answer},
                       follow_redirects=True)


def _events(svc, gid) -> int:
    with svc.db.transaction() as s:
        return s.scalar(select(func.count()).select_from(EventRow).where(EventRow.game_id == gid))


@pytest.mark.parametrize("entry, seats, extra", TAKEABLE, ids=IDS[1:])
def test_a_move_is_taken_back_when_everyone_accepts(client, app, entry, seats, extra):
    gid, svc = _start(client, app, entry, seats, extra)
    seat, move = _play_until(client, svc, gid, want_takeable=True)
    before = _pos(svc, gid)
    views = [before.engine.view(before.state, s) for s in range(seats)]
    _move(client, svc, gid, seat, move)
    logged = _events(svc, gid)
    r = _undo(client, svc, gid, seat)
    assert "Asked the others" in r.text
    others = [s for s in range(seats) if s != seat]
    page = client.get(svc.urls.game_path(gid, others[0])).text
    assert "asks to take back their last move" in page
    for other in others:
        r = _undo(client, svc, gid, other, "accept")
        assert r.status_code == 200
    assert "The move was taken back." in r.text
    after = _pos(svc, gid)
    assert [after.engine.view(after.state, s) for s in range(seats)] == views
    assert _events(svc, gid) == logged + 1          # append-only: one MoveTakenBack more
    assert "took back a move" in client.get(svc.urls.game_path(gid, seat)).text


@pytest.mark.parametrize("entry, seats, extra", TAKEABLE, ids=IDS[1:])
def test_a_refused_request_leaves_the_move(client, app, entry, seats, extra):
    gid, svc = _start(client, app, entry, seats, extra)
    seat, move = _play_until(client, svc, gid, want_takeable=True)
    _move(client, svc, gid, seat, move)
    moved = _pos(svc, gid)
    _undo(client, svc, gid, seat)
    other = next(s for s in range(seats) if s != seat)
    assert "You refused" in _undo(client, svc, gid, other, "refuse").text
    now = _pos(svc, gid)
    assert now.seq == moved.seq and now.state == moved.state
    r = _undo(client, svc, gid, other, "accept")
    assert r.status_code == 422 and "no request to take back a move" in html.unescape(r.text)


@pytest.mark.parametrize("entry, seats, extra", GAMES, ids=IDS)
def test_a_move_that_drew_or_revealed_cannot_be_taken_back(client, app, entry, seats, extra):
    gid, svc = _start(client, app, entry, seats, extra)
    seat, move = _play_until(client, svc, gid, want_takeable=False)
    _move(client, svc, gid, seat, move)
    r = _undo(client, svc, gid, seat)
    assert r.status_code == 422
    assert "cannot be taken back" in html.unescape(r.text)
    with svc.db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(UndoRequest)) == 0


def test_nothing_to_undo_two_requests_and_expiry(client, app):
    gid, svc = _start(client, app, "magnate-roller", 2, {})
    pos = _pos(svc, gid)
    actor = min(pos.engine.to_act(pos.state))
    r = _undo(client, svc, gid, actor)
    assert r.status_code == 422 and "no move to take back" in html.unescape(r.text)
    seat, move = _play_until(client, svc, gid, want_takeable=True)
    _move(client, svc, gid, seat, move)
    assert "Asked the others" in _undo(client, svc, gid, seat).text
    other = 1 - seat
    r = _undo(client, svc, gid, seat)
    assert r.status_code == 422 and "already waiting" in r.text
    r = _undo(client, svc, gid, other)
    assert r.status_code == 422 and "already waiting" in r.text
    r = client.post(svc.urls.game_path(gid, other) + "/play", data={"commands": "undo maybe"})
    assert r.status_code == 422 and "undo accept" in r.text
    # the asker moves on: the request lapses with that move
    pos = _pos(svc, gid)
    mover = min(pos.engine.to_act(pos.state))
    _move(client, svc, gid, mover, pos.engine.bots["easy"](pos.state, mover, random.Random(1)))
    r = _undo(client, svc, gid, other, "accept")
    assert r.status_code == 422 and "no request to take back a move" in html.unescape(r.text)


def test_against_bots_a_take_back_needs_no_answers(client, app):
    r = client.post("/practice", data={"game": "magnate-roller", "seats": "2", "level": "easy"})
    svc = app.extensions["turnpost"]
    gid = _pos_gid(svc)
    seat, move = 0, None
    for _ in range(200):
        pos = _pos(svc, gid)
        moves = [m for m in pos.engine.legal_moves(pos.state, 0) if _takeable(pos, 0, m)]
        if moves and 0 in pos.engine.to_act(pos.state):
            move = moves[0]
            break
        _move(client, svc, gid, 0, pos.engine.bots["easy"](pos.state, 0, random.Random(2)))
    assert move is not None and r.status_code == 302
    before = _pos(svc, gid)
    _move(client, svc, gid, seat, move)
    assert "The move was taken back." in _undo(client, svc, gid, seat).text
    after = _pos(svc, gid)
    assert after.engine.view(after.state, 0) == before.engine.view(before.state, 0)


def _pos_gid(svc) -> int:
    with svc.db.transaction() as s:
        return s.scalar(select(func.max(EventRow.game_id)))
