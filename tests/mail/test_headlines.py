"""What a turn email names first: the move that matters, and the game by the name its players
chose it by (issue 49, item 12)."""
from __future__ import annotations

from tests.web.helpers import game_link, latest_to, move_links, sign_in, start_game, text_of

ANNA, BEN, CLEO = "anna@example.org", "ben@example.org", "cleo@example.org"


def _mover(app, people):
    return next((a, m) for a in people if move_links(m := latest_to(app, a)))


def test_a_trees_headline_names_the_move_not_the_draw_after_it(client, app):
    """Every Trees action is followed by a draw (RULINGS T7); the headline (the subject's
    preview, the HTML's first line, the text's top line) names the action."""
    start_game(app, "trees", [ANNA, BEN])
    addr, msg = _mover(app, [ANNA, BEN])
    move = move_links(msg)[0]
    assert client.post(move[1]).status_code == 200
    other = BEN if addr == ANNA else ANNA
    news = latest_to(app, other)
    html = news.get_body(("html",)).get_content()
    headline = html.split('<h1 class="status"', 1)[1].split("</h1>", 1)[0]
    played = f"{addr.split('@')[0]} played "
    assert played in headline and "drew a card" not in headline
    top = [ln for ln in text_of(news).splitlines() if "YOUR TURN" in ln]
    assert top and top[0].startswith(played)
    assert "drew a card" in text_of(news), "the draw is still told, below"


def test_a_roller_game_is_named_magnate_roller_in_subjects_pages_and_lists(client, app):
    started = start_game(app, "magnate-roller", [ANNA, BEN])
    subject = str(latest_to(app, ANNA)["Subject"])
    assert f"Magnate Roller #{started.game_id}" in subject
    page = client.get(game_link(latest_to(app, ANNA))).text
    assert f"<title>Magnate Roller #{started.game_id}" in page
    sign_in(client, app, ANNA)
    assert "Magnate Roller" in client.get("/me").text
    classic = start_game(app, "magnate", [ANNA, CLEO])
    assert "Magnate Roller" not in str(latest_to(app, CLEO)["Subject"])
    assert f"Magnate #{classic.game_id}" in str(latest_to(app, CLEO)["Subject"])
