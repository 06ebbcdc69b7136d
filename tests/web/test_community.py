"""Profiles and leaderboards as people and operators meet them: /players/<handle> shows the
display name, ratings with an accessible chart, games, reliability and quickness, never the
address; a hidden profile answers 404 to others as a missing one; /ratings/<game> and
`flask ratings GAME` list established ratings first; the API gives the same; the lobby's
"rated" box decides whether a game is rated."""
from __future__ import annotations

import re

from sqlalchemy import select, update

from service import play
from service.play import community
from service.play.players import seatchanges
from service.store.models import GameRow, Player, Rating
from tests.web.helpers import post_form, sign_in

ANNA, BEN, CARLA = "anna@example.org", "ben@example.org", "carla@example.org"


def _handle(svc, email):
    with svc.db.transaction() as s:
        return s.scalars(select(Player.handle).where(Player.email == email)).one()


def _resigned_game(svc, players, loser):
    g = play.start_game(svc, "trees", players, {})
    seatchanges.resign(svc, g.game_id, loser)
    return g


def test_a_profile_shows_name_ratings_and_figures_never_the_address(app, client):
    svc = app.extensions["turnpost"]
    _resigned_game(svc, [f"Anna <{ANNA}>", BEN], 1)
    handle = _handle(svc, ANNA)
    assert "@" not in handle and handle.startswith("anna-")
    r = client.get(f"/players/{handle}")
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assert ANNA not in page and "example.org" not in page
    assert "Anna" in page and "Trees" in page and "(provisional)" in page
    assert re.search(r'<svg[^>]*role="img"[^>]*aria-labelledby="chart-trees-t chart-trees-d"',
                     page)
    assert '<title id="chart-trees-t">Trees rating history</title>' in page
    assert "1 rated game: from" in page                       # the chart's <desc>
    assert "1 game played, 1 finished" in page
    assert client.get("/players/nobody-1").status_code == 404


def test_a_game_its_player_resigned_counts_as_finished_once_it_ends(app, client):
    """Issue 49 item 18: a resigned game counted as played but never finished ("5 played,
    1 finished"); it has a result, a loss, once the game has ended."""
    svc = app.extensions["turnpost"]
    _resigned_game(svc, [f"Ben <{BEN}>", ANNA], 0)              # two players: it ends
    three = play.start_game(svc, "trees", [f"Ben <{BEN}>", ANNA, CARLA], {})
    seatchanges.resign(svc, three.game_id, 0)                     # the other two play on
    page = client.get(f"/players/{_handle(svc, BEN)}").get_data(as_text=True)
    assert "2 games played, 1 finished" in page


def test_a_hidden_profile_is_missing_to_others_but_shown_to_its_owner(app, client):
    svc = app.extensions["turnpost"]
    _resigned_game(svc, [ANNA, BEN], 1)
    handle = _handle(svc, ANNA)
    sign_in(client, app, ANNA)
    me = client.get("/me").get_data(as_text=True)
    assert f"/players/{handle}" in me and "Hide my profile" in me
    assert post_form(client, "/me/profile#profile", {"hidden": "on"}, page="/me").status_code == 302
    assert client.get(f"/players/{handle}").status_code == 200      # its owner still sees it
    stranger = app.test_client()
    assert stranger.get(f"/players/{handle}").status_code == 404
    assert stranger.get(f"/api/v1/players/{handle}").status_code == 404
    board = stranger.get("/ratings/trees").get_data(as_text=True)
    assert "anna" in board and f"/players/{handle}" not in board    # listed, not linked
    assert post_form(client, "/me/profile#profile", {}, page="/me").status_code == 302
    assert stranger.get(f"/players/{handle}").status_code == 200


def test_the_leaderboard_lists_established_ratings_first(app, client, monkeypatch):
    svc = app.extensions["turnpost"]
    _resigned_game(svc, [ANNA, BEN], 1)
    _resigned_game(svc, [CARLA, BEN], 1)
    with svc.db.transaction() as s:          # Ben is established (his games counted so)
        ben = s.scalars(select(Player.id).where(Player.email == BEN)).one()
        s.execute(update(Rating).where(Rating.rater == f"player:{ben}").values(games=10))
    lines = community.board(svc, "trees").lines
    assert [x.place for x in lines] == [1, None, None]
    assert lines[0].name == "ben" and not lines[0].provisional
    assert lines[1].rating >= lines[2].rating and lines[1].rating > lines[0].rating
    page = client.get("/ratings/trees").get_data(as_text=True)
    assert page.index(">ben<") < page.index(">anna<")
    api = client.get("/api/v1/ratings/trees").json
    assert [p["name"] for p in api["players"]] == [x.name for x in lines]
    assert client.get("/ratings/chess").status_code == 404
    out = app.test_cli_runner().invoke(args=["ratings", "trees"]).output.splitlines()
    assert out[0].startswith("ben\t") and "(provisional)" not in out[0]
    assert all("(provisional)" in line for line in out[1:3])
    assert out[-1] == "3 rated players in Trees"


def test_flask_ratings_rebuild_and_its_refusals(app):
    svc = app.extensions["turnpost"]
    _resigned_game(svc, [ANNA, BEN], 1)
    runner = app.test_cli_runner()
    before = community.board(svc, "trees").lines
    out = runner.invoke(args=["ratings", "rebuild", "trees"])
    assert out.exit_code == 0 and "from 1 rated games" in out.output
    assert community.board(svc, "trees").lines == before
    assert runner.invoke(args=["ratings", "rebuild", "chess"]).exit_code != 0
    assert runner.invoke(args=["ratings", "chess"]).exit_code != 0


def test_start_game_rated_off_and_the_lobby_box(app, client):
    svc = app.extensions["turnpost"]
    with app.app_context():     # as the flask command line runs it
        out = app.test_cli_runner().invoke(args=["start-game", "trees", ANNA, BEN,
                                                 "-o", "rated=off"])
    assert out.exit_code == 0, out.output
    sign_in(client, app, ANNA)
    form = {"game": "trees", "players": BEN, "open_seats": "0", "clock": "3d"}
    assert post_form(client, "/games", form, page="/").status_code == 302
    assert post_form(client, "/games", {**form, "rated": "on"}, page="/").status_code == 302
    with svc.db.transaction() as s:
        assert s.scalars(select(GameRow.rated).order_by(GameRow.id)).all() == \
            [False, False, True]
    assert 'name="rated" checked' in client.get("/").get_data(as_text=True)


def test_an_imported_finished_game_is_not_rated_again_even_by_a_rebuild(app):
    from service.play.reads import gamefile
    svc = app.extensions["turnpost"]
    from tests.play.time.helpers import move, to_act
    g = play.start_game(svc, "trees", [ANNA, BEN], {"turn_cap": "2"})
    while to_act(svc, g.game_id):            # to the engine's end (not a service result)
        move(svc, g.game_id)
    before = community.board(svc, "trees").lines
    assert [x.games for x in before] == [1, 1]
    copy = gamefile.import_game(svc, gamefile.export(svc, g.game_id, play.OPERATOR))
    with svc.db.transaction() as s:
        assert s.get(GameRow, copy).status == "ended"
    assert community.rebuild(svc) == 1
    assert community.board(svc, "trees").lines == before
