"""`/me` as a player reads it: a game the service ended (a resignation, a forfeit: its row says
"ended" though its engine has no outcome) is finished, waiting on nobody; a practice game
started while signed in is listed with the others; a result sets each score apart from its
name."""
from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select

from service import play
from service.play import repository
from service.play.clock import ManualClock
from service.store.models import GameRow, OutboxRow
from tests.conftest import T0
from tests.web.helpers import form_client, post_form, sign_in, start_game

ANNA, BEN = "anna@example.org", "ben@example.org"


@pytest.fixture
def app(app_factory):
    return app_factory(TURNPOST_CLOCK=ManualClock(T0))


def section(page: str, heading: str) -> str:
    """The text of the card of /me under `heading`, up to the next card."""
    return page.split(heading, 1)[1].split('<div class="card', 1)[0]


def resign(client, app, gid: int, seat: int):
    path = app.extensions["turnpost"].urls.game_path(gid, seat)
    return post_form(client, path + "/resign", {"confirm": "yes"}, page=path)


def test_a_resigned_game_is_finished_for_both_players_and_waits_on_nobody(app):
    anna, ben = app.test_client(), app.test_client()
    sign_in(anna, app, ANNA)
    sign_in(ben, app, BEN)
    gid = start_game(app, "trees", [ANNA, BEN]).game_id
    assert resign(anna, app, gid, 0).status_code == 302
    for client, won in ((anna, "ben won"), (ben, "You won")):
        page = client.get("/me").text
        assert f"Trees #{gid}" not in section(page, "Waiting on others")
        assert f"Trees #{gid}" not in section(page, "Your move")
        finished = section(page, "<h2>Finished</h2>")
        assert f"Trees #{gid}" in finished and won in finished and "None yet" not in finished
        assert "resigned" in finished


def test_a_game_whose_row_says_ended_is_finished_even_without_a_result(app):
    """A forfeit (or any end the service decided) where the engine has no outcome."""
    anna = app.test_client()
    sign_in(anna, app, ANNA)
    gid = start_game(app, "trees", [ANNA, BEN]).game_id
    with app.extensions["turnpost"].db.transaction() as s:
        row = s.get(GameRow, gid)
        row.status, row.result = "ended", None
    page = anna.get("/me").text
    assert f"Trees #{gid}" not in section(page, "Waiting on others")
    assert f"Trees #{gid}" not in section(page, "Your move")
    assert f"Trees #{gid}" in section(page, "<h2>Finished</h2>")


def test_a_practice_game_started_while_signed_in_is_on_my_games_page(app):
    client = form_client(app)
    sign_in(client, app, ANNA)
    r = client.post("/practice", data={"game": "trees", "seats": "2", "level": "easy"})
    assert r.status_code == 302 and r.headers["Location"].startswith("/g/")
    page = client.get("/me").text
    assert "Trees #1" in page and "None yet" in page          # listed, not finished
    # and still nobody is mailed about it (a practice game mails only when asked)
    with app.extensions["turnpost"].db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(OutboxRow).where(
            OutboxRow.game_id == 1, OutboxRow.status != "skipped")) == 0


def play_to_the_end(app, gid: int) -> None:
    """Each person's first legal move until the game ends (the bots move by themselves)."""
    svc = app.extensions["turnpost"]
    for _ in range(500):
        with svc.db.transaction() as s:
            pos = repository.load(s, svc.states, gid)
        if pos.engine.outcome(pos.state) is not None:
            return
        seat = min(pos.engine.to_act(pos.state))
        move = pos.engine.legal_moves(pos.state, seat)[0]
        play.submit(svc, play.Intent(gid, seat, moves=[move], whole_turn=True))
    raise AssertionError("the game did not end")


def test_scores_are_set_apart_from_names_that_end_in_a_number(app):
    anna = app.test_client()
    sign_in(anna, app, ANNA)
    gid = start_game(app, "trees", [ANNA, "bot", "bot"], {"turn_cap": "2"}).game_id
    play_to_the_end(app, gid)
    finished = section(anna.get("/me").text, "<h2>Finished</h2>")
    # a table of three lists its places, each score in brackets after its name
    assert re.search(r"Normal bot 1 \(\d+\)", finished), finished
    assert re.search(r"Normal bot 2 \(\d+\)", finished), finished
    assert re.search(r"you \(\d+\)", finished)
    page = anna.get(app.extensions["turnpost"].urls.game_path(gid, 0)).text
    assert re.search(r"Normal bot 1 \(\d+\).*Normal bot 2 \(\d+\)|"
                     r"Normal bot 2 \(\d+\).*Normal bot 1 \(\d+\)", page)
    assert not re.search(r"Normal bot 1 \d", page.split('id="history"')[0])


def test_finished_games_come_newest_first_a_page_at_a_time(app, monkeypatch):
    """A player with many finished games: /me reads only the newest FINISHED_SHOWN of them
    (each is folded for its result), and a link leads to the older ones; games under way are
    all listed on every page."""
    from service.play.reads import mygames
    monkeypatch.setattr(mygames, "FINISHED_SHOWN", 2)
    anna = app.test_client()
    sign_in(anna, app, ANNA)
    ended = []
    for _ in range(3):
        gid = start_game(app, "trees", [ANNA, BEN]).game_id
        assert resign(anna, app, gid, 0).status_code == 302
        ended.append(gid)
    going = start_game(app, "trees", [ANNA, BEN]).game_id
    page = anna.get("/me").text
    finished = section(page, "<h2>Finished</h2>")
    shown = [int(n) for n in re.findall(r"Trees #(\d+)</a>", finished)]
    assert shown == [ended[2], ended[1]]
    older = re.search(r'href="(/me\?finished_before=\d+#finished)"', finished).group(1)
    assert f"Trees #{going}" in page
    page = anna.get(older.split("#")[0]).text
    finished = section(page, "<h2>Finished</h2>")
    assert [int(n) for n in re.findall(r"Trees #(\d+)</a>", finished)] == [ended[0]]
    assert "finished_before" not in finished
    assert f"Trees #{going}" in page


def test_my_page_reads_in_one_unit_of_work_what_the_separate_use_cases_read(app):
    """/me's games, own time and profile setting, read together (mygames.my_page), are what
    my_games, calendar.read_preferences and community.profile_setting each say."""
    from service.play import community
    from service.play.reads import mygames
    from service.play.time import calendar
    from service.store.models import Player
    svc = app.extensions["turnpost"]
    anna = app.test_client()
    sign_in(anna, app, ANNA)
    start_game(app, "trees", [ANNA, BEN])
    gid = start_game(app, "trees", [ANNA, BEN]).game_id
    assert resign(anna, app, gid, 0).status_code == 302
    with svc.db.transaction() as s:
        anna_id = s.scalar(select(Player.id).where(Player.email == ANNA))
    calendar.save_preferences(svc, {"quiet_hours": "22-08", "reminders": "4h",
                                    "auto_vacation": "off"}, player_id=anna_id)
    community.hide_profile(svc, anna_id, True)
    page = mygames.my_page(svc, anna_id)
    # the same lines, each link claiming the same seat: a link's text carries the second it
    # was signed in (itsdangerous), and the two reads may fall either side of one
    assert _claimed(svc, page.games) == _claimed(svc, mygames.my_games(svc, anna_id))
    assert page.games.your_move or page.games.waiting
    assert [g.game_id for g in page.games.finished] == [gid]
    assert page.own_time == calendar.read_preferences(svc, anna_id)
    assert page.own_time["quiet_hours"] == "22:00-08:00"
    assert page.profile == community.profile_setting(svc, anna_id)
    assert page.profile[1] is True


def _claimed(svc, games):
    """`games` with each line's signed link replaced by what it claims."""
    from dataclasses import fields, replace
    return {f.name: [replace(line, link=svc.urls.signer.loads("view", line.link.removeprefix("/g/"))
                             if line.link else "") for line in getattr(games, f.name)]
            if isinstance(getattr(games, f.name), list) else getattr(games, f.name)
            for f in fields(games)}
