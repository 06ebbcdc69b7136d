"""What the lobby tells a newcomer about each game: a short description (players, length, what
you do), its options in words with their defaults, and its rules as an HTML page made from the
original rule texts in docs/rules (their authors and licences: docs/rules/README.md)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import markdown

from service.games import registry
from service.games.contract import Game, Option
from service.mailwire.outbound.catalogs import N_, _, ngettext

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"


@dataclass(frozen=True)
class About:
    what: str        # what you do, in a sentence or two
    length: str      # how long a game runs, by mail
    author: str      # whose game it is (the rules page says more)


ABOUT: dict[str, About] = {
    "trees": About(
        N_("Grow trees of Decktet cards from their Aces: each turn you play a card under one "
        "that shares a suit, harvest a tree for its Crowns, or unroot one, then draw."),
        N_("about 15 turns each; the game ends when all six Aces are harvested"),
        N_("a tree-building idea for the Decktet")),
    "magnate": About(
        N_("Buy deeds and develop property in the districts between you; the dice pay your "
        "cards in resources. Control the most districts when the deck has run out twice."),
        N_("about 20 turns each"), "P.D. Magnus"),
    "magnate-roller": About(
        N_("Magnate with the modern rules: the same deeds, districts and dice, with Courts, "
        "variants for two Decktets (Mega) and a three-player game on a Y of districts."),
        N_("about 25 turns each"), N_("the Magnate Roller rules")),
    "suzerain": About(
        N_("A trick-taking duel: win tricks to claim the face-up cards, use the rights of your "
        "Pawns and Courts, and hold the majority of each rank at the end."),
        N_("16 tricks"), "Kenny VenOsdel"),
    "aristocracy": About(
        N_("Trade at the market stalls, build farms, estates and châteaux from matching cards, "
        "visit each other's buildings and bid at the ball, over rounds of King, Queen and "
        "Jack phases, until someone can end the game with a complete château."),
        N_("several rounds of three phases, each phase one turn for everyone"),
        "Felix Leeb"),
}

# Options that only one ruleset of an engine offers (Magnate: three players is Roller only,
# Pawns as properties classic only); the lobby leaves them out of the other entry.
NOT_FOR = {"magnate": {"three"}, "magnate-roller": {"pawn_properties"}}

# A default that depends on the entry's ruleset, said for that entry
DEFAULT_WORDS = {("magnate", "courts"): N_("off, as in the classic rules"),
                 ("magnate-roller", "courts"): N_("on, as in the Roller rules")}
# ...and the choice it resolves to, which the form then does not offer a second time
DEFAULT_IS = {("magnate", "courts"): "off", ("magnate-roller", "courts"): "on"}
_WORDS = {"default": N_("as the rules of this version say"), "random": N_("at random"),
          "first": N_("the first player"), "second": N_("the second player"),
          "on": N_("on"), "off": N_("off")}     # Magnate's Courts: words, not switches
_CODES = re.compile(r"\(\s*(?:seed \d+|[A-Z]\d+(?:,\s*[A-Z]\d+)*)\s*[;,]?\s*")


def plain_help(text: str) -> str:
    """An option's help without the rulings' codes: "(M15; classic only)" -> "(classic only)"."""
    text = _CODES.sub("(", text)
    text = re.sub(r"\s*\(\s*\)", "", text)
    text = text.strip().rstrip(".")   # the lobby adds ". Default: ..." after it
    return text[:1].upper() + text[1:]


def in_words(value) -> str:
    """An option's value as the lobby shows it, in the page's language (a number or an
    engine's own choice, "classic", as written)."""
    if isinstance(value, bool):
        return _("on") if value else _("off")
    if value == "" or value is None:
        return _("none")
    return _(_WORDS[str(value)]) if str(value) in _WORDS else str(value)


@dataclass(frozen=True)
class Field:
    """One option as a form field of the lobby."""
    name: str              # the form field's name: "<entry>.<option>"
    label: str
    help: str
    kind: str              # "switch" (a checkbox), "choice" (a select), "number", "text"
    default: str           # the default, in words
    choices: tuple[tuple[str, str], ...] = ()   # (value sent, words shown)


def field(entry: str, name: str, opt: Option) -> Field:
    # an engine's label and help are its English, marked for the catalogs (text.N_); the
    # help is translated with its rulings' codes, which plain_help then takes out
    label = _(opt.label) if opt.label else name.replace("_", " ").capitalize()
    help_text = plain_help(_(opt.help) if opt.help else "")   # gettext("") is the header
    default = _(DEFAULT_WORDS[entry, name]) if (entry, name) in DEFAULT_WORDS \
        else in_words(opt.default)
    if isinstance(opt.default, bool):
        return Field(f"{entry}.{name}", label, help_text, "switch", default)
    if opt.choices:
        # the default is sent as "" (the engine's own default), every other value as itself
        choices = tuple(("" if c == opt.default else str(c),
                         _("%(choice)s (default)", choice=default) if c == opt.default else in_words(c))
                        for c in opt.choices if c != DEFAULT_IS.get((entry, name)))
        return Field(f"{entry}.{name}", label, help_text, "choice", default, choices)
    kind = "number" if isinstance(opt.default, int) else "text"
    return Field(f"{entry}.{name}", label, help_text, kind, default)


def fields(entry: str, game: Game, preset: dict, hidden: frozenset[str]) -> list[Field]:
    skip = set(preset) | set(hidden) | NOT_FOR.get(entry, set())
    return [field(entry, name, opt) for name, opt in game.options.items() if name not in skip]


@dataclass(frozen=True)
class LobbyGame:
    entry: str
    label: str
    players: str           # as the rules state them: "2 players", "2 to 5 players"
    about: About | None
    has_rules: bool
    fields: list[Field]


def lobby(hidden: frozenset[str]) -> list[LobbyGame]:
    """Every game the lobby offers, described; `hidden` are options it must not offer."""
    return [LobbyGame(entry, label, players_wording(game, preset), _about(entry),
                      rules_path(entry) is not None, fields(entry, game, preset, hidden))
            for entry, label, game, preset in registry.lobby()]


def _about(entry: str) -> About | None:
    """A game's description in the page's language (ABOUT's words are the catalogs')."""
    about = ABOUT.get(entry)
    return About(_(about.what), _(about.length), _(about.author)) if about else None


def players_wording(game: Game, preset: dict) -> str:
    """registry.players_wording in the language of the moment ("2 Spieler", "2 à 5 joueurs"):
    the lobby's, and the refusals that name it, which reach players in their own language."""
    counts = registry.player_counts(game, preset)
    low, high = counts.start, counts.stop - 1
    if low == high:
        return ngettext("%(num)d player", "%(num)d players", low)
    if high == low + 1:
        return _("%(low)d or %(high)d players", low=low, high=high)
    return _("%(low)d to %(high)d players", low=low, high=high)


def rules_path(entry: str) -> Path | None:
    path = RULES / f"{entry}.md"
    return path if entry in ABOUT and path.is_file() else None


_FRONT_MATTER = re.compile(r"\A---\n(?:[A-Za-z_]+:.*\n)+(?:---\n)?")
_PICTURE = re.compile(r"^!\[[^\]]*\]\([^)]*\)\s*$", re.M)
# the Roller cheatsheet's switches: {{ mega ? "two" : "one" }}, {{ mega || three ? 20 : 12 }}
_SWITCH = re.compile(r"\{\{\s*[\w|& ]+\?\s*(\"[^\"]*\"|\d+)\s*:\s*(\"[^\"]*\"|\d+)\s*\}\}")


@cache
def rules_html(entry: str) -> str | None:
    """The rules text of a lobby entry as HTML, or None when there is none. The standard game
    is shown: every variant switch of the Roller cheatsheet is off."""
    path = rules_path(entry)
    if path is None:
        return None
    text = _FRONT_MATTER.sub("", path.read_text(encoding="utf-8"))
    text = _PICTURE.sub("", text)
    text = _SWITCH.sub(lambda m: m.group(2).strip('"'), text)
    return markdown.markdown(text, extensions=["sane_lists"])
