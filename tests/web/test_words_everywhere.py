"""A player's words (service/play/moves/wordregistry.py) mean the same wherever they are written: the same
list of lines, one at a time, through a reply email, the game page's command box, the JSON API
and `flask move`, leaves the game the same and answers the same. docs/commands.md is the
registry's own table."""
from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from service import play
from service.play.moves import wordregistry
from service.play.players import personaltokens
from service.store.models import ChatMessage, GameRow, UndoRequest
from tests.play.mail.test_replies import reply_to
from tests.web.helpers import form_client, mails, start_game, text_of

ANNA, BEN = "anna@example.org", "ben@example.org"
MOVE = "<the seat's first legal move>"
# (line, words its answer has; None: nothing to answer, the line's effect is the answer).
# `undo` after a Trees move is refused (the move drew a card): the refusal is its answer
WORDS = [(MOVE, None), ("help", "Other words you can write"),
         ("view", "Here is the game as it stands."), ("Say good luck!", None),
         ("undo", "cannot be taken back"), ("resign", "You resigned from this game.")]


def _reply(app, gid, seat, addr, line):
    before = len(mails(app))
    ours = [m for m in mails(app) if m["To"] == addr][-1]
    play.accept_mail(app.extensions["turnpost"], reply_to(ours, line), "smtp")
    return "\n".join(text_of(m) for m in mails(app)[before:] if m["To"] == addr)


def _page(app, gid, seat, addr, line):
    path = app.extensions["turnpost"].urls.game_path(gid, seat)
    return form_client(app).post(path + "/play", data={"commands": line},
                                 follow_redirects=True).text


def _api(app, gid, seat, addr, line):
    token = personaltokens.create(app.extensions["turnpost"], addr, "words")[1]
    r = app.test_client().post(f"/api/v1/games/{gid}/moves", json={"command": line},
                               headers={"Authorization": f"Bearer {token}"})
    assert r.status_code in (200, 409), r.json
    return "\n".join(r.json["answers"]) if r.status_code == 200 else r.json["detail"]


def _cli(app, gid, seat, addr, line):
    result = app.test_cli_runner().invoke(args=["move", str(gid), str(seat), *line.split()])
    return result.output           # a refusal too ("Error: ...")


def _state(svc, gid) -> dict:
    """What the words can change: the log, the seats, the table's messages, undo requests."""
    with svc.db.transaction() as s:
        game = s.get(GameRow, gid)
        return {"seq": game.seq, "status": game.status, "result": game.result,
                "seats": sorted((r.seat, r.status) for r in game.seats),
                "said": [(m.from_seat, m.text) for m in s.scalars(
                    select(ChatMessage).where(ChatMessage.game_id == gid))],
                "undo": [(u.seat, u.status) for u in s.scalars(
                    select(UndoRequest).where(UndoRequest.game_id == gid))]}


@pytest.fixture
def outcomes(app_factory):
    """Each channel's (answer, state) after each line, every channel on a game of its own
    dealt alike (each app's chance starts from the same seed)."""
    found = {}
    for channel in (_reply, _page, _api, _cli):
        app = app_factory()
        svc = app.extensions["turnpost"]
        gid = start_game(app, "trees", [ANNA, BEN]).game_id
        seat = play.read_game(svc, gid, play.Reader.at(gid, None)).page.to_act[0]
        addr = (ANNA, BEN)[seat]
        steps = []
        for line, _ in WORDS:
            if line == MOVE:
                line = play.read_game(svc, gid, play.Reader.at(gid, seat)).page.all_moves[0]["text"]
            with app.app_context():
                answer = channel(app, gid, seat, addr, line)
            steps.append((answer, _state(svc, gid)))
        found[channel.__name__] = steps
    return found


def test_the_same_words_do_the_same_through_reply_page_api_and_cli(outcomes):
    reply = outcomes["_reply"]
    assert reply[0][1]["seq"] > 1                                   # the move went in
    assert [text for _, text in reply[3][1]["said"]] == ["good luck!"]
    assert reply[-1][1]["status"] == "ended"
    assert "resigned" in [status for _, status in reply[-1][1]["seats"]]
    for channel, steps in outcomes.items():
        assert [state for _, state in steps] == [state for _, state in reply], channel
        for (answer, _), (line, expected) in zip(steps, WORDS):
            if expected:
                assert expected in answer, (channel, line, answer[-600:])


def test_flask_move_resigns_as_a_reply_does(app):
    svc = app.extensions["turnpost"]
    gid = start_game(app, "trees", [ANNA, BEN]).game_id
    with app.app_context():
        result = app.test_cli_runner().invoke(args=["move", str(gid), "0", "resign"])
    assert result.exit_code == 0, result.output
    assert "You resigned from this game." in result.output
    assert _state(svc, gid)["seats"][0] == (0, "resigned")


def test_a_word_the_registry_does_not_know_is_a_move_for_the_engine(app):
    svc = app.extensions["turnpost"]
    gid = start_game(app, "trees", [ANNA, BEN]).game_id
    with app.app_context():
        result = app.test_cli_runner().invoke(args=["move", str(gid), "0", "resignation"])
    assert result.exit_code != 0 and _state(svc, gid)["seats"][0] == (0, "active")
    assert wordregistry.find("resign.")[0].name == "resign" and wordregistry.find("keep") is None


def test_help_lists_every_registered_word():
    text = wordregistry.help_text(_NoMoves(), None, 0)
    for command in wordregistry.COMMANDS.values():
        assert f"{wordregistry.usage(command)}: {command.summary}" in text


def test_docs_commands_md_is_the_registrys_table():
    written = (Path(__file__).parents[2] / "docs" / "commands.md").read_text()
    assert written == wordregistry.markdown(), "run `make commands-doc` and commit docs/commands.md"


class _NoMoves:
    def outcome(self, state):
        return "over"
