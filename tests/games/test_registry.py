"""Every game the project promises is present and keeps the contract's shape."""
from __future__ import annotations

from service.games import registry


def test_all_four_games_are_registered_and_import():
    assert set(registry.available()) == {"trees", "magnate", "suzerain", "aristocracy"}


def test_lobby_offers_both_magnate_rulesets():
    labels = {label: preset for _, label, _, preset in registry.lobby()}
    assert labels["Magnate"] == {"ruleset": "classic"}
    assert labels["Magnate (Roller rules)"] == {"ruleset": "modern"}


def test_each_engine_has_the_contract_methods_and_both_bots():
    for game in registry.available().values():
        for name in ("validate_options", "start", "evolve", "to_act", "legal_moves", "menu",
                     "decide", "view", "redact", "parse", "describe", "outcome", "zones",
                     "secrets"):
            assert callable(getattr(game, name)), f"{game.id} lacks {name}"
        assert "random" in game.bots and len(game.bots) >= 2, game.id


def test_the_lobby_states_each_rulesets_own_player_counts():
    # RULINGS M21: three players is the Roller variant; seed 000 is a two-player game
    words = {entry: registry.players_wording(game, preset)
             for entry, _, game, preset in registry.lobby()}
    assert words["trees"] == "2 to 4 players"
    assert words["suzerain"] == "2 players"
    assert words["magnate-roller"] == "2 or 3 players"
    assert words["magnate"] == "2 players"
