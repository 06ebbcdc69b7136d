"""What resigning says before and after the button: a tournament's game withdraws from the
tournament (issue 49, item 14), and the one who resigned is told in their own words (item 20:
never "the default move will be played for them")."""
from __future__ import annotations

from service.play import community
from tests.web.helpers import csrf, latest_to, start_game, text_of


def _seat_path(app, game_id: int, seat: int) -> str:
    return app.extensions["turnpost"].urls.game_path(game_id, seat)


def test_resigning_a_tournament_game_says_it_withdraws_before_the_button(client, app):
    svc = app.extensions["turnpost"]
    made = community.create(svc, "trees", "round-robin", None,
                            ["ann@example.org", "bot:easy", "bot:normal", "bot:easy"])
    table = next(t for t in community.show(svc, made.tournament_id).played[0].tables
                 if "ann" in t.players)
    path = _seat_path(app, table.game_id, table.players.index("ann"))
    page = client.get(path + "/resign").text
    said = "resigning it also withdraws you from the tournament"
    assert said in page and page.index(said) < page.index("Yes, resign")
    assert f'href="/tournaments/{made.tournament_id}"' in page
    done = client.post(path + "/resign", data={"confirm": "yes", "csrf_token": csrf(client, path)},
                       follow_redirects=True).text
    assert "You have withdrawn from its tournament too" in done


def test_an_ordinary_game_says_nothing_of_a_tournament(client, app):
    started = start_game(app, "trees", ["ann@example.org", "bob@example.org"])
    page = client.get(_seat_path(app, started.game_id, 0) + "/resign").text
    assert "The game ends and the other player wins." in page
    assert "tournament" not in page.split('id="seat"', 1)[1]


def test_the_one_who_resigns_a_table_of_three_is_told_in_their_own_words(client, app):
    people = ["ann@example.org", "bob@example.org", "cy@example.org"]
    started = start_game(app, "aristocracy", people)
    path = _seat_path(app, started.game_id, 2)
    client.post(path + "/resign", data={"confirm": "yes", "csrf_token": csrf(client, path)})
    own = text_of(latest_to(app, "cy@example.org"))
    assert "You resigned; the default move will be played for you" in own
    assert "played for them" not in own
    other = text_of(latest_to(app, "ann@example.org"))
    assert "cy resigned; the default move will be played for them, and they rank last" in other
