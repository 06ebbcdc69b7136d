"""Options, their combinations, and the opening deal (seed 000 "Setup", M14-M21).

District order (shown in every view, used by "in 3"):
* two players: the four Pawns in the RULINGS order with the Excuse in the middle,
  1 Watchman, 2 Light Keeper, 3 Excuse, 4 Harvest, 5 Borderland (the Roller's line "centered
  around the Excuse"). With Pawn properties (M15) districts 1, 2, 4, 5 are plain districts.
* mega (M20): the same line twice around one Excuse: 1-4 the first deck's Pawns, 5 the Excuse,
  6-9 the second deck's Pawns.
* three players (M21): 1 the Excuse (all three), then each arm of the Y: 2-3 between seats 0
  and 1, 4-5 between seats 1 and 2, 6-7 between seats 2 and 0.
"""
from __future__ import annotations

from ..cards import decktet
from ..contract import Event, Option, OptionError
from ..text import N_

OPTIONS = {
    "ruleset": Option("classic", "classic (seed 000) or modern Roller rules (seed 002)",
                      ("classic", "modern"), "Rules"),
    "courts": Option("default", N_("Courts as properties (M14); default: off in classic, on "
                                   "in modern"), ("default", "on", "off"), N_("Courts")),
    "pawn_properties": Option(False, N_("Pawns are properties, every district unrestricted "
                                        "(M15; classic only, needs Courts off)"), (False, True),
                              N_("Pawn properties")),
    "replace_ace": Option(False, N_("an Ace drawn at the end of a turn may be replaced (M16)"),
                          (False, True), N_("Replace the Ace")),
    "double_taxation": Option(False, N_("two tax dice (M11); always on in mega"),
                              (False, True), N_("Double taxation")),
    "mega": Option(False, N_("two Decktets, nine districts, two plays a turn (M20)"),
                   (False, True), N_("Mega Magnate")),
    "three": Option(False, N_("three players on a Y of districts (M21; modern only)"),
                    (False, True), N_("Three players")),
    "deck": Option("", "fixed deck order, comma-separated card ids, top first (tests, "
                   "replaying a table game); may end with the Crowns in dealing order", None,
                   "Deck order"),
}


def _check_layout(opts: dict, seats: int, modern: bool) -> None:
    """M20, M21: the three-player Y is modern only, needs exactly three seats, and no mega."""
    if opts["three"] and not modern:
        raise OptionError(N_("the three-player game exists only in the modern rules (M21)"))
    if opts["three"] != (seats == 3):
        raise OptionError(N_("three players need the 'three' option, and it needs exactly "
                             "three seats (M21)"))
    if opts["three"] and opts["mega"]:
        raise OptionError(N_("mega and the three-player layout cannot be combined: the rules "
                             "give no district layout for both (M20, M21)"))


def _check_pawns(opts: dict, modern: bool) -> None:
    """M15: Pawn properties are classic only, without Courts, and not in mega."""
    if not opts["pawn_properties"]:
        return
    if modern:
        raise OptionError(N_("Pawn properties are a classic-rules variant (M15)"))
    if opts["courts"] == "on":
        raise OptionError(N_("Pawn properties cannot be used with Courts (M15)"))
    if opts["mega"]:
        raise OptionError(N_("Pawn properties cannot be used in mega, whose districts are "
                             "all eight Pawns (M20)"))


def _check_deck(opts: dict) -> None:
    """A fixed deck lists every property card once, optionally followed by the Crowns."""
    if not opts["deck"]:
        return
    order = [c.strip() for c in opts["deck"].split(",") if c.strip()]
    props, crowns = property_deck(opts), crown_set(opts)
    if sorted(order) not in (sorted(props), sorted(props + crowns)):
        raise OptionError(N_("deck must list each of these {count} cards once (optionally "
                             "followed by the Crowns): {cards}"), count=len(props),
                          cards=", ".join(sorted(props)))


def check(opts: dict, seats: int) -> dict:
    """Refuse impossible combinations; resolve the Courts default; force mega's taxation."""
    modern = opts["ruleset"] == "modern"
    _check_layout(opts, seats, modern)
    if opts["courts"] == "default":
        opts["courts"] = "on" if modern else "off"
    _check_pawns(opts, modern)
    if opts["mega"]:
        opts["double_taxation"] = True      # M11/M20: forced by mega
    _check_deck(opts)
    return opts


def _ids(cards, opts) -> list[str]:
    return decktet.double_deck(cards) if opts["mega"] else list(cards)


def property_deck(opts: dict) -> list[str]:
    cards = list(decktet.ACES + decktet.NUMERALS)
    if opts["courts"] == "on":
        cards += decktet.COURTS
    if opts["pawn_properties"]:
        cards += decktet.PAWNS
    return _ids(cards, opts)


def crown_set(opts: dict) -> list[str]:
    return _ids(decktet.CROWNS, opts)


def _cards(opts: dict, chance) -> tuple[list[str], list[str]]:
    """The property deck and the Crowns, shuffled, or in the fixed `deck` order."""
    deck = property_deck(opts)
    crowns = crown_set(opts)
    if not opts["deck"]:
        chance.shuffle(deck)
        chance.shuffle(crowns)
        return deck, crowns
    order = [c.strip() for c in opts["deck"].split(",") if c.strip()]
    given = [c for c in order if c.startswith("N")]
    if not given:
        chance.shuffle(crowns)
    return [c for c in order if not c.startswith("N")], given or crowns


def _layout(opts: dict, seats: int, chance) -> tuple[list[str], list, list[str]]:
    """(districts, who contests each, removed cards): the line, mega's double line (M20) or
    the three-player Y (M21), in the order the module docstring gives."""
    if opts["three"]:
        extra = [p + ".2" for p in decktet.PAWNS]
        chance.shuffle(extra)
        pawns = list(decktet.PAWNS) + extra[:2]
        chance.shuffle(pawns)
        contest = [[0, 1, 2], [0, 1], [0, 1], [1, 2], [1, 2], [2, 0], [2, 0]]
        return [decktet.EXCUSE] + pawns, contest, []
    if opts["mega"]:
        districts = ([p + ".1" for p in decktet.PAWNS] + ["0.1"]
                     + [p + ".2" for p in decktet.PAWNS])
        return districts, [list(range(seats))] * 9, ["0.2"]
    pawns = [""] * 4 if opts["pawn_properties"] else list(decktet.PAWNS)
    return pawns[:2] + [decktet.EXCUSE] + pawns[2:], [list(range(seats))] * 5, []


def start(seats: int, opts: dict, chance, rules: int) -> list[Event]:
    """The deal (seed 000 "Setup"); the first event records the rules version (`rules`)."""
    deck, crowns = _cards(opts, chance)
    districts, contest, removed = _layout(opts, seats, chance)
    per_hand = 6 if opts["mega"] else 3
    hands = [deck[s * per_hand:(s + 1) * per_hand] for s in range(seats)]
    draw = deck[seats * per_hand:]
    dealt = [crowns[s::seats] for s in range(seats)]   # round robin: evenly (M20, M21)
    first = chance.randint(0, seats - 1)                # M17
    return [Event("GameStarted", {
        "options": dict(opts), "seats": seats, "districts": districts, "contest": contest,
        "crowns": dealt, "hands": hands, "draw": draw, "removed": removed, "first": first,
        "piles": 3 if opts["three"] else 2, "rules": rules})]
