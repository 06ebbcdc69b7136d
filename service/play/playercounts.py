"""How many players a game takes, in words of the language of the moment ("2 players",
"2 oder 3 Spieler", "de 2 à 4 joueurs"): the refusals that name it reach players in their own
language, while service.games.registry.players_wording stays the rules' English."""
from __future__ import annotations

from service.games import registry
from service.games.contract import Game
from service.mailwire.outbound.catalogs import _, ngettext


def wording(game: Game, preset: dict) -> str:
    counts = registry.player_counts(game, preset)
    low, high = counts.start, counts.stop - 1
    if low == high:
        return ngettext("%(num)s player", "%(num)s players", low)
    if high == low + 1:
        return _("%(low)s or %(high)s players", low=low, high=high)
    return _("%(low)s to %(high)s players", low=low, high=high)
