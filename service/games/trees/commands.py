"""Trees commands: what players type (docs/rules/rulings.md, "Commands accept names ...") and the
canonical text of every move.

    play the Sea under the Mill     sea under mill      play sea on the mill    sea on mill
    harvest the Moons tree          harvest moons       harvest moon tree       harvest 1M
    harvest ace of moons            unroot waves        unroot the Waves tree

`parse(describe(m)) == [m]` for every move. Names are read the shared way (service.games.text):
any case, with or without "the", ids, unambiguous prefixes; a prefix that fits several cards is
settled by the cards that could mean something here (your hand, the trees) when that leaves one.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

from ..cards import decktet
from ..contract import CommandError
from ..text import N_, match
from . import rules
from .state import ACES, DRAW_CARDS, card_name, tree_name

PLAY_RE = re.compile(r"^(?:play\s+|put\s+|place\s+)?(?P<card>.+?)\s+"
                     r"(?:under|on|onto|on to|beneath|below|beside)\s+(?P<under>.+)$")
PLAY_ALONE_RE = re.compile(r"^(?:play|put|place)\s+(?P<card>.+)$")
TREE_RE = re.compile(r"^(?P<verb>harvest|unroot)(?:\s+(?P<tree>.+))?$")

CARD_NAMES = {c: decktet.aliases(c) for c in DRAW_CARDS}
NODE_NAMES = {c: decktet.aliases(c) for c in ACES + DRAW_CARDS}


def _tree_spellings(ace: str) -> list[str]:
    plural, single = decktet.SUIT_NAMES[ace[1]].lower(), decktet.SUIT_SINGULAR[ace[1]].lower()
    out = set(decktet.aliases(ace))
    for word in {plural, single}:
        out |= {word, f"{word} tree", f"the {word} tree", f"tree of {word}"}
    out |= {f"{ace} tree", f"ace of {plural} tree", tree_name(ace)}
    return sorted(out)


TREE_NAMES = {a: _tree_spellings(a) for a in ACES}


def describe(move: Mapping) -> str:
    kind = move.get("type")
    if kind == "play":
        return f"play {card_name(move['card'])} under {card_name(move['under'])}"
    if kind in ("harvest", "unroot"):
        return f"{kind} {tree_name(move['root'])}"
    raise ValueError(f"not a Trees move: {move!r}")


def _resolve(query: str, names: Mapping[str, list[str]], likely: list[str], what: str) -> str:
    """Match against every card; if that is ambiguous, against the `likely` ones alone."""
    try:
        return match(query, names, what)
    except CommandError as err:
        near = {c: names[c] for c in likely if c in names}
        if near:
            try:
                return match(query, near, what)
            except CommandError:
                pass
        raise err


def _first_line(text: str) -> str:
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(">"):
            return line
    return ""


def parse(state: Mapping, seat: int, text: str) -> list[dict]:
    line = _first_line(text)
    words = re.sub(r"[^a-z0-9.' ]+", " ", line.lower())
    words = re.sub(r"\s+", " ", words).strip().rstrip(". ")   # a sentence's full stop
    legal = rules.legal_moves(state, seat)
    hint = [describe(m) for m in legal[:5]]
    if not words:
        raise CommandError(N_("the message holds no move"), hint)
    m = TREE_RE.match(words)
    if m:
        return _parse_tree(state, m, legal)
    hand = list(state["hands"][seat]) if seat is not None else []
    m = PLAY_RE.match(words)
    if m:
        return _parse_play(state, m, hand, legal)
    m = PLAY_ALONE_RE.match(words)
    if m and not re.search(r"\b(under|on|onto)\b", m["card"]):
        return _parse_play_alone(m, hand, legal, hint)
    raise CommandError(N_("Trees moves read \"play <card> under <card>\", \"harvest <tree>\" "
                          "or \"unroot <tree>\""), hint)


#: asked when `harvest` or `unroot` comes without its tree (a sentence each: the verb is a
#: move word, not a parameter a translation could place)
WHICH_TREE = {"harvest": N_("harvest which tree?"), "unroot": N_("unroot which tree?")}


def _parse_tree(state: Mapping, m: re.Match, legal: list[dict]) -> list[dict]:
    """harvest / unroot, with the tree named, or alone when only one such move is legal."""
    verb, query = m["verb"], m["tree"]
    in_play = [t["root"] for t in state["trees"]]
    if not query:
        kinds = [mv for mv in legal if mv["type"] == verb]
        if len(kinds) == 1:
            return [kinds[0]]
        raise CommandError(WHICH_TREE[verb], [describe({"type": verb, "root": r}) for r in in_play])
    try:
        root = match(re.sub(r"\btree$", "", query).strip() or query, TREE_NAMES, "tree")
    except CommandError as err:
        sugg = [describe({"type": verb, "root": r})
                for r in ([c for c in in_play if tree_name(c) in err.suggestions] or in_play)]
        raise err.suggesting(sugg) from None
    return [{"type": verb, "root": root}]


def _parse_play(state: Mapping, m: re.Match, hand: list[str], legal: list[dict]) -> list[dict]:
    """play <card> under <card>."""
    nodes = [c for t in state["trees"] for c in t["kids"]]
    try:
        under = _resolve(m["under"], NODE_NAMES, nodes, "card")
    except CommandError as err:
        under, under_err = None, err
    # a card that does not read is refused with the plays going under the card named, when
    # that name reads
    card = _card(m["card"], hand, legal, under)
    if under is None:
        targets = [describe(mv) for mv in legal if mv["type"] == "play" and mv["card"] == card]
        raise under_err.suggesting(targets or under_err.suggestions) from None
    return [{"type": "play", "card": card, "under": under}]


def _parse_play_alone(m: re.Match, hand: list[str], legal: list[dict],
                      hint: list[str]) -> list[dict]:
    """play <card>: fine when the card has exactly one place to go."""
    card = _card(m["card"], hand, legal)
    targets = [mv for mv in legal if mv["type"] == "play" and mv["card"] == card]
    if len(targets) == 1:
        return [targets[0]]
    if not targets:
        raise CommandError(N_("{card} has nowhere to go"), hint, card=card_name(card))
    raise CommandError(N_("under which card should {card} go?"),
                       [describe(mv) for mv in targets], card=card_name(card))


def _card(query: str, hand: list[str], legal: list[dict], under: str | None = None) -> str:
    try:
        return _resolve(query, CARD_NAMES, hand, "card")
    except CommandError as err:
        named = [c for c in hand if decktet.name(c) in err.suggestions]
        if "several" in err.why:   # ambiguous: name the candidates, those in hand if any
            raise err.suggesting([decktet.name(c) for c in named] or err.suggestions) from None
        # unknown (RULINGS, Commands: refused with the candidates): the plays of the hand
        # cards spelt like it, else of the whole hand, else the hand's cards by name
        plays = _plays(legal, named, under) or _plays(legal, hand, under)
        raise err.suggesting(plays or [card_name(c) for c in hand][:MAX_LISTED]) from None


MAX_LISTED = 8   # suggestions in one refusal, as the other games list


def _plays(legal: list[dict], cards: list[str], under: str | None) -> list[str]:
    """The plays of `cards`, those under `under` if there are any."""
    plays = [mv for mv in legal if mv["type"] == "play" and mv["card"] in cards]
    there = [mv for mv in plays if mv["under"] == under]
    return [describe(mv) for mv in there or plays][:MAX_LISTED]
