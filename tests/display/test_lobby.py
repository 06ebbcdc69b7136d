"""The lobby explains each game: players as the rules state them, what you do, how long it
runs, a link to its rules, and every option in words with its default; the rules pages are
served from the original texts."""
from __future__ import annotations

import re

from service.display import rulebook
from tests.web.helpers import lobby_game, mails


def _text(html: str) -> str:
    html = re.sub(r"<style.*?</style>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_lobby_describes_every_game_and_links_its_rules(client):
    page = client.get("/").text
    text = _text(page)
    for g in rulebook.lobby(frozenset()):
        assert f"{g.label} · {g.players}" in text
        assert g.about.what.replace("'", "&#39;") in page
        assert f'href="/rules/{g.entry}"' in page
    assert "Aristocracy · 2 to 5 players" in text
    assert "Magnate (Roller rules) · 2 or 3 players" in text


def test_options_are_in_words_with_their_defaults(client):
    text = _text(client.get("/").text)
    for bad in ("True", "False", "None", "(default default)", "courts", "(M1", "(seed"):
        assert bad not in text, bad
    assert "Default: off." in text
    assert "Default: 300; leave empty for the default." in text
    assert "off, as in the classic rules (default)" in text
    assert "Deck order" not in text       # table-only options fix the deal: never offered


def test_only_the_chosen_game_shows_its_options_without_script(client):
    page = client.get("/").text
    main = page.split("<main", 1)[1].split("</main>", 1)[0]   # the base's script only dates
    assert "<script" not in main
    assert page.count('type="radio" name="game"') == len(rulebook.lobby(frozenset()))
    assert page.count("checked") >= 1
    assert ".game-choice:not(:has(input[name=game]:checked)) .options { display: none; }" in page


def test_a_switch_from_the_lobby_starts_the_variant(app):
    _, made = lobby_game(app, "a@example.org", ["b@example.org", "c@example.org"],
                         game="magnate-roller", **{"magnate-roller.three": "true"})
    assert made.status_code == 302 and made.location.endswith("/me"), made.text
    # all three accepted: the three-player game started and mailed its third seat
    assert any("Magnate" in m["Subject"] for m in mails(app) if m["To"] == "c@example.org"
               and "invites you" not in m["Subject"])


def test_rules_pages_show_the_original_texts_with_attribution(client):
    page = client.get("/rules/suzerain").text
    assert "Kenny VenOsdel" in page and "trick" in page
    roller = client.get("/rules/magnate-roller").text
    assert "{{" not in roller and "all four Pawns" in roller      # the standard game
    assert "assets/" not in client.get("/rules/aristocracy").text
    assert "date: 07/10/2013" not in client.get("/rules/trees").text
    assert client.get("/rules/chess").status_code == 404


def test_an_option_whose_default_is_one_of_its_choices_offers_it_once(client):
    page = client.get("/").text
    for entry, default, same in (("magnate", "off, as in the classic rules (default)", "off"),
                                 ("magnate-roller", "on, as in the Roller rules (default)",
                                  "on")):
        select = re.search(rf"<select id=\"{entry}.courts\".*?</select>", page, re.S).group(0)
        shown = [html.strip() for html in re.findall(r"<option[^>]*>([^<]*)</option>", select)]
        assert default in shown and same not in shown, shown
