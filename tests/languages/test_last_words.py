"""The last of the English (issue 51): option values the lobby refuses, the answers to `try`
and to plans, the clause naming who ended an Aristocracy game, and Suzerain's prompt on the
replay page, each in the reader's language; English readers keep the English word for word."""
from __future__ import annotations

import html

import pytest

from service.games import registry
from service.games.contract import OptionError
from service.mailwire.outbound import catalogs
from tests.languages.test_refusals import _untranslated
from tests.web.helpers import form_client

#: options no game takes, for each game: the shared checks' (an unknown name, a bad number,
#: a value not among the choices, a table too big) and the engine's own combinations
BAD_OPTIONS = {
    "trees": [(2, {"zzyzx": 1}), (2, {"turn_cap": "x"}), (2, {"turn_cap": "0"}),
              (9, {}), (2, {"turn_cap": 1.5}), (2, {"deck": "1M,1M"}),
              (2, {"roots": "1M,9Z"}), (2, {"roots": "1M"}), (2, {"deck": "zz"})],
    "suzerain": [(2, {"deck": "the Mill, the Mill"}), (2, {"deck": "zzyzx"}),
                 (2, {"deck": "the Mill"}), (2, {"dealer": "nobody"}),
                 (2, {"aces": "mill"})],
    "magnate": [(2, {"three": True}), (3, {"ruleset": "modern"}),
                (3, {"ruleset": "modern", "three": True, "mega": True}),
                (2, {"ruleset": "modern", "pawn_properties": True}),
                (2, {"courts": "on", "pawn_properties": True}),
                (2, {"mega": True, "pawn_properties": True}), (2, {"deck": "x"}),
                (2, {"mega": 7})],
    "aristocracy": [(3, {"round_cap": "0"}), (3, {"deck": "x"})],
}


def _option_refusals(game_id: str) -> dict[str, OptionError]:
    game, seen = registry.get(game_id), {}
    for seats, options in BAD_OPTIONS[game_id]:
        with pytest.raises(OptionError) as refused:
            game.validate_options(seats, options)
        seen.setdefault(refused.value.template, refused.value)
    return seen


@pytest.mark.parametrize("game_id", sorted(BAD_OPTIONS))
def test_every_option_an_engine_refuses_is_in_the_catalogs(game_id):
    """An option's refusal whose template the catalogs lack reaches a German or French
    player in English."""
    seen = _option_refusals(game_id)
    assert len(seen) >= 2, sorted(seen)
    left = {t: langs for t, exc in seen.items() if (langs := _untranslated(t, exc.values))}
    assert not left


@pytest.mark.parametrize(("lang", "said"), [
    ("de", ["Die Option 'turn_cap' muss mindestens 1 sein",
            "Die Option 'turn_cap' muss eine ganze Zahl sein, nicht 'viele'"]),
    ("fr", ["L’option 'turn_cap' doit valoir au moins 1",
            "L’option 'turn_cap' doit être un nombre entier, pas 'viele'"]),
    ("en", ["option 'turn_cap' must be at least 1",
            "option 'turn_cap' must be a whole number, not 'viele'"])])
def test_an_option_the_lobby_refuses_is_in_the_pages_language(app, lang, said):
    client = form_client(app)
    for value, words in zip(("0", "viele"), said, strict=True):
        page = client.post("/practice", data={"table": "trees:2", "trees.turn_cap": value},
                           headers={"Accept-Language": lang})
        assert page.status_code == 400 and words in html.unescape(page.text), words


def test_an_option_refusal_keeps_its_english_word_for_word():
    with pytest.raises(OptionError) as refused:
        registry.get("trees").validate_options(2, {"zzyzx": 1})
    with catalogs.speaking("en"):
        said = catalogs.spoken(refused.value.template, refused.value.values)
    assert said == refused.value.why == ("Trees has no option 'zzyzx' (its options: bonus, "
                                         "deck, roots, turn_cap)")
