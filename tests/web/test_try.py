"""`try` (issue 50): the seat's view after moves of its own, by API, reply, page and CLI, with
a card it would draw shown as unknown, and nothing written: the game's events, clocks and
outbox are as they were. (That the answer tells the seat nothing it cannot know is
tests/games/test_hidden_information.py's: it asks `try` in worlds dealt again.)"""
from __future__ import annotations

from sqlalchemy import func, select

from service import play
from service.play import repository
from service.play.players import personaltokens
from service.store.models import EventRow, GameRow, OutboxRow, Seat
from tests.play.mail.test_replies import reply_to
from tests.web.helpers import form_client, latest_to, start_game, text_of

ME, BEN = "me@example.org", "ben@example.org"


def _game(app):
    """A Trees game and the seat to act, with one of its moves (every Trees action draws)."""
    svc = app.extensions["turnpost"]
    gid = start_game(app, "trees", [ME, BEN]).game_id
    with svc.db.transaction() as s:
        pos = repository.load(s, svc.states, gid)
        (seat,) = pos.engine.to_act(pos.state)
        move = next(m for m in pos.engine.legal_moves(pos.state, seat) if m["type"] == "play")
        return gid, seat, pos.engine.describe(move), (ME, BEN)[seat]


def _written(app, gid) -> tuple:
    """Everything a try must leave as it was: the log, the seats' clocks, the outbox."""
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        return (s.get(GameRow, gid).seq, s.scalar(select(func.count()).select_from(EventRow)),
                tuple(s.execute(select(Seat.seat, Seat.clock, Seat.deadline, Seat.to_act)
                                .where(Seat.game_id == gid).order_by(Seat.seat)).all()),
                s.scalar(select(func.count()).select_from(OutboxRow)))


def _api(app, addr):
    return {"Authorization": "Bearer " + personaltokens.create(app.extensions["turnpost"], addr,
                                                       "try")[1]}


def test_the_api_tries_and_writes_nothing(app):
    gid, seat, move, addr = _game(app)
    before = _written(app, gid)
    r = app.test_client().post(f"/api/v1/games/{gid}/try", json={"command": move},
                               headers=_api(app, addr))
    assert r.status_code == 200, r.json
    assert r.json["moves"] == [move] and "Tried (nothing was played" in r.json["text"]
    view = r.json["view"]
    # the card the play would draw is unknown, the played card is out of the hand
    assert "?" in view["hand"] and view["to_act"] != [seat]
    assert "an unknown card" in r.json["text"]
    assert _written(app, gid) == before


def test_the_api_refuses_a_move_that_cannot_be_played_and_writes_nothing(app):
    gid, seat, move, addr = _game(app)
    before = _written(app, gid)
    r = app.test_client().post(f"/api/v1/games/{gid}/try", json={"command": "fly away"},
                               headers=_api(app, addr))
    assert r.status_code == 422 and "fly away" in r.json["detail"]
    r = app.test_client().post(f"/api/v1/games/{gid}/try", json={"command": ""},
                               headers=_api(app, addr))
    assert r.status_code == 400 and "command" in r.json["detail"]
    assert _written(app, gid) == before


def test_a_stranger_cannot_try_in_a_game_not_theirs(app):
    gid, _, move, _ = _game(app)
    start_game(app, "trees", ["eve@example.org", "cleo@example.org"])
    r = app.test_client().post(f"/api/v1/games/{gid}/try", json={"command": move},
                               headers=_api(app, "eve@example.org"))
    assert r.status_code == 404


def test_try_by_reply_answers_by_email_and_writes_nothing_else(app):
    gid, seat, move, addr = _game(app)
    before = _written(app, gid)
    svc = app.extensions["turnpost"]
    play.accept_mail(svc, reply_to(latest_to(app, addr), "try " + move), "smtp")
    answer = text_of(latest_to(app, addr))
    assert "Tried (nothing was played" in answer and move in answer
    seq, events, clocks, outbox = _written(app, gid)
    # the answer email is the one row added; the game and its clocks are as they were
    assert (seq, events, clocks) == before[:3] and outbox == before[3] + 1
    other = (BEN, ME)[seat]
    assert "Tried" not in text_of(latest_to(app, other))


def test_the_page_try_button_tries_the_typed_lines(app):
    gid, seat, move, _ = _game(app)
    before = _written(app, gid)
    path = app.extensions["turnpost"].urls.game_path(gid, seat)
    page = form_client(app).get(path).text
    assert 'id="try"' in page
    after = form_client(app).post(path + "/play", data={"commands": move, "try": "1"},
                                  follow_redirects=True).text
    assert "Tried (nothing was played" in after
    assert _written(app, gid) == before


def test_the_cli_tries(app):
    gid, seat, move, _ = _game(app)
    before = _written(app, gid)
    with app.app_context():
        result = app.test_cli_runner().invoke(args=["move", str(gid), str(seat), "try",
                                                    *move.split()])
    assert "Tried (nothing was played" in result.output, (result.output, result.exception)
    assert _written(app, gid) == before


def test_several_lines_stop_after_a_card_would_be_drawn(app):
    svc = app.extensions["turnpost"]
    gid, seat, move, _ = _game(app)
    # two try lines of one batch are one try of two moves (`try` is a joined word)
    text = play.runner.run(svc, play.Intent(gid, seat, lines=[f"try {move}", "try help"],
                                            source="web")).texts[0]
    assert "the lines after it were not tried" in text
