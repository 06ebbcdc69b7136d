"""Bots at the table: every kind of game and player count, played to its end by one person
moving by signed links while bots fill the other seats (in the worker: in process in tests).
Bots are never mailed; their moves are recorded with source "bot"; bad bot entries are refused
with words and change nothing."""
from __future__ import annotations

import html
import random

import pytest
from sqlalchemy import func, select

from service import play
from service.games import registry
from service.linking import freshness
from service.linking.signer import Claims
from service.play import repository
from service.store.models import EventRow, GameRow, OutboxRow
from tests.web.helpers import form_client, mails, table_game

SHORT = {"aristocracy": {"round_cap": "1"}, "trees": {"turn_cap": "40"}}
CASES = [(entry, n) for entry, _, game, preset in registry.lobby()
         for n in registry.player_counts(game, preset)]


@pytest.fixture
def client(app):
    """Forms posted with the session's CSRF token, as the pages post them."""
    return form_client(app)


def _start(app, entry, players, **extra):
    """As `flask start-game` starts a game: seats in the order given, bots included."""
    form = {f"{entry}.{k}": v for k, v in SHORT.get(entry, {}).items()}
    form.update(extra)
    return table_game(app, entry, players, form)


@pytest.mark.parametrize("entry, seats", CASES, ids=[f"{e}-{n}" for e, n in CASES])
def test_one_person_plays_bots_to_the_end_by_links(client, app, entry, seats):
    rng = random.Random(seats)
    human = rng.randrange(seats)
    levels = ["bot:easy", "bot:normal", "bot"]
    players = [("me@example.org" if s == human else levels[s % 3]) for s in range(seats)]
    three = {"magnate-roller.three": "True"} if entry == "magnate-roller" and seats == 3 else {}
    gid = _start(app, entry, players, **three)
    svc = app.extensions["turnpost"]
    for step in range(2000):
        with svc.db.transaction() as s:
            pos = repository.load(s, svc.states, gid)
        if pos.engine.outcome(pos.state) is not None:
            break
        # the bots have moved already: whoever is to act now is the person
        assert pos.engine.to_act(pos.state) <= {human}, f"step {step}: a bot did not move"
        move = pos.engine.bots["easy"](pos.state, human, rng)
        token = svc.urls.signer.dumps("move", Claims(gid, human,
                                                     freshness.mark(pos.engine, pos.state, human),
                                                     move))
        resp = client.post(f"/m/{token}", data={"then": "game"})
        assert resp.status_code == 302, f"step {step}: {resp.text}"
    else:
        pytest.fail("the game did not end")
    page = client.get(svc.urls.game_path(gid, human)).text
    assert "Game over" in page and ("won" in page or "Shared win" in page)
    with svc.db.transaction() as s:
        sources = set(s.scalars(select(EventRow.source).where(EventRow.game_id == gid)))
        to_bots = s.scalar(select(func.count()).select_from(OutboxRow).where(
            OutboxRow.game_id == gid, OutboxRow.to_addr.like("%.invalid")))
        assert s.get(GameRow, gid).status == "ended"
    assert "bot" in sources
    assert to_bots == 0
    assert {m["To"] for m in mails(app)} == {"me@example.org"}


@pytest.mark.parametrize("players, words", [
    (["me@example.org", "bot:unknown"], "no bot called 'unknown'"),
    (["me@example.org", "bot:anna@example.org"], "a bot has no email address"),
    (["me@example.org", "bot-normal-1@bots.invalid"], "cannot be used with email"),
    (["bot", "bot:easy"], "at least one person"),
])
def test_bad_bot_entries_are_refused_and_nothing_starts(client, app, players, words):
    with pytest.raises(play.PlayError) as refused:
        _start(app, "trees", players)
    assert words in refused.value.detail
    with app.extensions["turnpost"].db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(GameRow)) == 0


def test_cli_start_game_with_a_bot_prints_the_seat_link(app):
    with app.app_context():     # as the flask command line runs it
        result = app.test_cli_runner().invoke(args=["start-game", "trees", "you@example.org",
                                                    "bot"])
    assert result.exit_code == 0, result.output
    assert "seat 1 (you@example.org): http://turnpost.test/g/" in result.output
    assert "seat 2" not in result.output


def test_play_against_bots_goes_to_the_seat_page_and_mails_nobody(client, app):
    r = client.post("/practice", data={"game": "trees", "seats": "3", "level": "easy"})
    assert r.status_code == 302
    assert r.headers["Location"].startswith("/g/")
    page = client.get(r.headers["Location"]).text
    assert "You (you)" in page and "Easy bot 1" in page and "Easy bot 2" in page
    assert "Your turn" in page          # the bots before the person's turn have moved
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(OutboxRow).where(
            OutboxRow.status != "skipped")) == 0
    assert mails(app) == []


def test_practice_mails_the_person_only_when_asked(client, app):
    r = client.post("/practice", data={"game": "suzerain", "seats": "2", "level": "normal",
                                       "email": "me@example.org", "mail": "on"})
    assert r.status_code == 302
    assert {m["To"] for m in mails(app)} == {"me@example.org"}


@pytest.mark.parametrize("data, words", [
    ({"game": "trees", "mail": "on"}, "give your email address"),
    ({"game": "trees", "level": "hard"}, "no bot called 'hard'"),
    ({"game": "trees", "seats": "1"}, "at least one bot"),
    ({"game": "trees", "seats": "9"}, "players"),
    ({"game": "chess"}, "no game called 'chess'"),
])
def test_practice_refusals(client, app, data, words):
    r = client.post("/practice", data=data)
    assert r.status_code == 400
    assert words in html.unescape(r.text)
    with app.extensions["turnpost"].db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(GameRow)) == 0
