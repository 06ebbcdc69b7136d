"""Game id -> engine. Engines are imported on first use, so one broken engine cannot stop the
others from loading, and a process that plays only Trees never imports Aristocracy."""
from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from .contract import Game

# id -> (module, lobby title). Magnate's two rulesets are one engine with an option (docs/rules/rulings.md).
GAMES: dict[str, str] = {
    "trees": "service.games.trees",
    "magnate": "service.games.magnate",
    "suzerain": "service.games.suzerain",
    "aristocracy": "service.games.aristocracy",
}
_loaded: dict[str, Game] = {}


class UnknownGame(KeyError):
    pass


def get(game_id: str) -> Game:
    if game_id not in _loaded:
        if game_id not in GAMES:
            raise UnknownGame(game_id)
        _loaded[game_id] = importlib.import_module(GAMES[game_id]).GAME
    return _loaded[game_id]


def available() -> dict[str, Game]:
    """Every game whose engine is present, in lobby order."""
    out = {}
    for game_id in GAMES:
        try:
            out[game_id] = get(game_id)
        except (ModuleNotFoundError, AttributeError):
            continue   # an engine not (yet) present; tests/games/test_registry.py insists
    return out


# What the lobby offers: (entry id, label, engine id, preset options). Magnate's two rulesets
# are one engine but two games to a player (docs/rules/rulings.md, Magnate).
LOBBY: tuple[tuple[str, str, str, dict], ...] = (
    ("trees", "Trees", "trees", {}),
    ("magnate", "Magnate", "magnate", {"ruleset": "classic"}),
    ("magnate-roller", "Magnate (Roller rules)", "magnate", {"ruleset": "modern"}),
    ("suzerain", "Suzerain", "suzerain", {}),
    ("aristocracy", "Aristocracy", "aristocracy", {}),
)


#: the name a lobby entry's games go by in subjects, page titles and lists, where its label
#: ("Magnate (Roller rules)") would be long; an entry not here goes by its engine's title
NAMES = {"magnate-roller": "Magnate Roller"}
#: the options a lobby entry's preset sets: all a game's name depends on
PRESET_KEYS = tuple(sorted({key for *_, preset in LOBBY for key in preset}))


def title(kind: str, options: Mapping[str, Any] | None) -> str:
    """A game's name as its players read it everywhere (a subject, /me, a page's title): the
    name of the lobby entry whose preset its options hold ("Magnate Roller"), else its
    engine's title ("Magnate")."""
    options = options or {}
    for entry, _, engine_id, preset in LOBBY:
        if engine_id == kind and entry in NAMES and all(
                str(options.get(key)) == str(value) for key, value in preset.items()):
            return NAMES[entry]
    return get(kind).title


def lobby() -> list[tuple[str, str, Game, dict]]:
    """Lobby entries whose engine is present: (entry id, label, engine, preset options)."""
    games = available()
    return [(entry, label, games[kind], preset) for entry, label, kind, preset in LOBBY
            if kind in games]


def player_counts(game: Game, preset: dict) -> range:
    """The player counts a lobby entry allows: a ruleset may allow fewer than its engine
    (classic Magnate is a two-player game, seed 000; three players is a Roller variant)."""
    seats_for = getattr(game, "seats_for", None)
    if seats_for is None:
        return game.seats
    # a count any on/off variant of the entry allows counts too (Roller's three-player game)
    variants = [{**preset, name: True} for name, opt in game.options.items()
                if isinstance(opt.default, bool) and name not in preset]
    counts = set(seats_for(preset)).union(*(set(seats_for(v)) for v in variants))
    return range(min(counts), max(counts) + 1) if counts else game.seats


def players_wording(game: Game, preset: dict) -> str:
    """"2 players", "2 or 3 players", "2 to 4 players", as the rules state them."""
    counts = player_counts(game, preset)
    low, high = counts.start, counts.stop - 1
    if low == high:
        return f"{low} players"
    if high == low + 1:
        return f"{low} or {high} players"
    return f"{low} to {high} players"
