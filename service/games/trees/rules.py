"""Trees rules (seed 003, docs/rules/rulings.md T1-T8): legal moves, `start` and `decide`.

`decide` works on a copy of the state and returns events recording every chance outcome (root
and discard shuffles, the first player), so `state.evolve` replays a game without chance.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..contract import Chance, Event, IllegalMove, OptionError
from ..folding import Recorder
from ..shapes import Shapes, string
from ..text import N_
from .state import (
    ACES,
    CAP,
    DRAW_CARDS,
    RANK,
    SUITS,
    card_name,
    crowns_in,
    evolve,
    is_crown,
    node_of,
    tree_by_root,
    tree_name,
)

# The version of the rules `start` records in GameStarted (folding.started_version). Trees'
# rules have not changed since the game was first offered, so every game is version 1.
RULES_VERSION = 1

# --------------------------------------------------------------------------- options


def parse_order(name: str, text: str, cards: tuple[str, ...]) -> list[str]:
    """Read a fixed order option: card ids separated by commas or spaces, top first.
    For `roots`, suit letters alone also do ("MSVLYK" or "M S V L Y K")."""
    raw = [t for t in text.replace(",", " ").split() if t]
    if name == "roots" and len(raw) == 1 and len(raw[0]) == len(cards):
        raw = list(raw[0])
    out = []
    for token in raw:
        tok = token.strip().upper()
        if name == "roots" and len(tok) == 1:
            tok = "1" + tok
        if tok not in cards:
            if len(cards) <= len(ACES):
                raise OptionError(N_("option {name}: {token} is not one of its cards ({cards})"),
                                  name=repr(name), token=repr(token), cards=", ".join(cards))
            raise OptionError(N_("option {name}: {token} is not one of its cards"),
                              name=repr(name), token=repr(token))
        out.append(tok)
    if len(set(out)) != len(out):
        dup = next(c for c in out if out.count(c) > 1)
        raise OptionError(N_("option {name} lists {card} twice"), name=repr(name), card=dup)
    if len(out) != len(cards):
        missing = [c for c in cards if c not in out]
        raise OptionError(N_("option {name} must order all {count} cards; missing {missing}"),
                          name=repr(name), count=len(cards), missing=", ".join(missing))
    return out


def harvest_value(state: Mapping, seat: int, tree: Mapping) -> tuple[int, int, int]:
    """T5: (crowns, bonus points, total) for `seat` harvesting `tree` now."""
    crowns = crowns_in(tree)
    owned = {a[1] for a in state["aces"][seat]}
    bonus = state["options"]["bonus"] * sum(1 for c in crowns if c[1] in owned)
    return len(crowns), bonus, len(crowns) + bonus


#: a full card's refusal by how many it holds (a Crown holds none, the others two or three)
FULL = {2: N_("{under} already holds two cards"), 3: N_("{under} already holds three cards")}


def play_problem(state: Mapping, card: str, under: str) -> IllegalMove | None:
    """Why `card` may not go under `under` in this position (None: it may). Hand not checked."""
    names = {"card": card_name(card), "under": card_name(under)}
    tree = node_of(state, under)
    if tree is None:
        return IllegalMove(N_("{under} is not in any tree"), **names)
    if is_crown(under):
        return IllegalMove(N_("nothing can go under a Crown ({under})"), **names)
    if not SUITS[card] & SUITS[under]:
        return IllegalMove(N_("{card} shares no suit with {under}"), **names)
    if RANK[card] <= RANK[under]:
        if RANK[card] == RANK[under]:
            return IllegalMove(N_("{card} does not rank above {under} "
                                  "(they are equal in Trees)"), **names)
        return IllegalMove(N_("{card} ranks below {under} in Trees"), **names)
    held = len(tree["kids"][under])
    if held >= CAP[under]:
        return IllegalMove(FULL.get(held, "{under} already holds {held} cards"), **names,
                           held=held)
    return None


def _plays(state: Mapping, seat: int) -> Iterator[dict]:
    """T3: every (hand card, tree card) pair sharing a suit, rising in rank, with room."""
    open_nodes = [c for tree in state["trees"] for c, kids in tree["kids"].items()
                  if len(kids) < CAP[c]]
    for card in state["hands"][seat]:
        suits, rank = SUITS[card], RANK[card]
        for under in open_nodes:
            if RANK[under] < rank and suits & SUITS[under]:
                yield {"type": "play", "card": card, "under": under}


def plays_for(state: Mapping, seat: int) -> list[dict]:
    return list(_plays(state, seat))


def can_play(state: Mapping, seat: int) -> bool:
    return next(_plays(state, seat), None) is not None


def harvests(state: Mapping) -> list[dict]:
    """T4: any tree holding at least one Crown."""
    return [{"type": "harvest", "root": t["root"]} for t in state["trees"] if crowns_in(t)]


def legal_moves(state: Mapping, seat: int) -> list[dict]:
    if state["ended"] or state["to_act"] != seat:
        return []
    moves = plays_for(state, seat) + harvests(state)
    if moves:
        return moves
    # T6: unrooting is legal, and then required, only with no play and no harvest
    return [{"type": "unroot", "root": t["root"]} for t in state["trees"]]


# One link per legal move; random play shows a median of 8 plays, 24 at the 99th
# percentile and 33 at most, so this cap only guards a pathological hand.
MENU_PLAYS = 40


def menu(state: Mapping, seat: int) -> list[dict]:
    """The moves worth a one-click link: every harvest and unroot; every play when there are
    few, else for each playable card its play under the highest card that takes it (the one
    that leaves the lower, roomier cards free)."""
    moves = legal_moves(state, seat)
    plays = [m for m in moves if m["type"] == "play"]
    rest = [m for m in moves if m["type"] != "play"]
    if len(plays) <= MENU_PLAYS:
        return rest + plays
    best: dict[str, dict] = {}
    for m in plays:
        if m["card"] not in best or RANK[m["under"]] > RANK[best[m["card"]]["under"]]:
            best[m["card"]] = m
    return rest + list(best.values())


# --------------------------------------------------------------------------- decide


def start(seats: int, options: Mapping[str, Any], chance: Chance) -> list[Event]:
    if options["deck"]:
        deck = parse_order("deck", options["deck"], DRAW_CARDS)
    else:
        deck = list(DRAW_CARDS)
        chance.shuffle(deck)
    if options["roots"]:
        roots = parse_order("roots", options["roots"], ACES)
    else:
        roots = list(ACES)
        chance.shuffle(roots)
    first = chance.randint(0, seats - 1)
    rec = Recorder(evolve, None)
    rec.emit("GameStarted", rules=RULES_VERSION, seats=seats, options=dict(options),
             first=first, deck=deck, roots=roots)
    # "Turn the top two over": the two starter trees (T1).
    rec.emit("TreeStarted", root=roots[0])
    rec.emit("TreeStarted", root=roots[1])
    return rec.events


MOVE_TYPES = ("play", "harvest", "unroot")
#: every move's keys (legal_moves lists the moves)
SHAPES = Shapes("Trees", {
    "play": ({"card": string, "under": string}, {}),
    "harvest": ({"root": string}, {}), "unroot": ({"root": string}, {}),
})


def check_move(state: Mapping, seat: int, move: Any) -> dict:
    """Validate `move` for `seat`; return it normalised, or raise IllegalMove with the reason."""
    if not isinstance(move, dict) or move.get("type") not in MOVE_TYPES:
        raise IllegalMove(N_("a Trees move is play, harvest or unroot"))
    SHAPES.check(move)
    if state["ended"]:
        raise IllegalMove(N_("the game is over"))
    if seat != state["to_act"]:
        raise IllegalMove(N_("it is not your turn"))
    if move["type"] == "play":
        return _check_play(state, seat, move)
    return _check_tree_move(state, seat, move)


def _check_play(state: Mapping, seat: int, move: Mapping) -> dict:
    """T3: a hand card under a tree card it may go under."""
    card, under = move.get("card"), move.get("under")
    if card not in SUITS or card in ACES:
        raise IllegalMove(N_("{card} is not a card you can play"), card=repr(card))
    if under not in SUITS:
        raise IllegalMove(N_("{under} is not a card"), under=repr(under))
    if card not in state["hands"][seat]:
        raise IllegalMove(N_("you do not hold {card}"), card=card_name(card))
    refused = play_problem(state, card, under)
    if refused:
        raise refused
    return {"type": "play", "card": card, "under": under}


def _check_tree_move(state: Mapping, seat: int, move: Mapping) -> dict:
    """T4 harvest (a tree with a Crown) and T6 unroot (only with no play and no harvest)."""
    kind, root = move["type"], move.get("root")
    if root not in ACES:
        raise IllegalMove(N_("{root} is not an Ace"), root=repr(root))
    tree = tree_by_root(state, root)
    if tree is None:
        gone = any(root in a for a in state["aces"])
        raise IllegalMove(N_("{tree} is harvested") if gone else N_("{tree} is not in play"),
                          tree=tree_name(root))
    if kind == "harvest":
        if not crowns_in(tree):
            raise IllegalMove(N_("{tree} holds no Crown, so it cannot be harvested"),
                              tree=tree_name(root))
        return {"type": "harvest", "root": root}
    if harvests(state):
        raise IllegalMove(N_("you may unroot only when you can neither play nor harvest, "
                             "and a tree can be harvested"))
    if can_play(state, seat):
        raise IllegalMove(N_("you may unroot only when you can neither play nor harvest, "
                             "and you have a card to play"))
    return {"type": "unroot", "root": root}


# One emitter per action; each records the action itself. What follows every action (new
# trees, the end, the draw) is `_after_action`'s.


def _play(rec: Recorder, seat: int, move: Mapping) -> None:
    tree = node_of(rec.state, move["under"])
    rec.emit("CardPlayed", seat=seat, card=move["card"], under=move["under"], root=tree["root"])


def _harvest(rec: Recorder, seat: int, move: Mapping) -> None:
    crowns, bonus, points = harvest_value(rec.state, seat, tree_by_root(rec.state, move["root"]))
    rec.emit("TreeHarvested", seat=seat, root=move["root"], crowns=crowns, bonus=bonus,
             points=points)


def _unroot(rec: Recorder, seat: int, move: Mapping) -> None:
    rec.emit("TreeUnrooted", seat=seat, root=move["root"])


ACTIONS = {"play": _play, "harvest": _harvest, "unroot": _unroot}


def _start_trees(rec: Recorder, chance: Chance) -> None:
    """T6: new trees start whenever fewer than two are in play and roots remain."""
    while len(rec.state["trees"]) < 2 and rec.state["roots"]:
        order = list(rec.state["roots"])
        chance.shuffle(order)
        rec.emit("RootsShuffled", order=order)
        rec.emit("TreeStarted", root=order[0])


def _end(rec: Recorder) -> bool:
    """T8: the end comes right after the action that brings it; nobody draws any more."""
    s = rec.state
    how = None
    if sum(len(a) for a in s["aces"]) == len(ACES):
        how = "harvested"
    elif s["turn"] > s["options"]["turn_cap"]:
        how = "turn_cap"
    if how:
        rec.emit("GameEnded", how=how, scores=list(s["scores"]))
    return how is not None


def _draw(rec: Recorder, seat: int, chance: Chance) -> None:
    """T7: draw one; refill an empty draw pile from the discards; no draw if both are empty."""
    if not rec.state["draw"] and rec.state["discard"]:
        order = list(rec.state["discard"])
        chance.shuffle(order)
        rec.emit("DiscardsReshuffled", order=order)
    if rec.state["draw"]:
        rec.emit("CardDrawn", seat=seat, card=rec.state["draw"][0])


def decide(state: Mapping, seat: int, move: Any, chance: Chance) -> list[Event]:
    move = check_move(state, seat, move)
    # The Recorder folds each event into a new state at once; `state` itself is never changed.
    rec = Recorder(evolve, state)
    ACTIONS[move["type"]](rec, seat, move)
    _start_trees(rec, chance)
    if not _end(rec):
        _draw(rec, seat, chance)
    return rec.events


# --------------------------------------------------------------------------- deadlines


def timeout_move(state: Mapping, seat: int) -> dict | None:
    """The move made for `seat` when its time runs out; None when it is not its turn.

    Deterministic (no chance, ties go to the first in `legal_moves`' order) and cautious, so a
    missed deadline costs the absent player little and hands the others nothing:
    harvest the tree worth most to `seat` (points now; a tree left with a Crown is the next
    player's harvest); else play the highest-ranking card that is not a Crown, under the highest
    card that takes it (the lower, roomier cards stay free); else a Crown, under the tree worth
    least to the next player, who could harvest it; else unroot (T6) the smallest tree, which
    throws away the fewest cards.
    """
    moves = legal_moves(state, seat)
    if not moves:
        return None
    harvest = [m for m in moves if m["type"] == "harvest"]
    if harvest:
        return max(harvest, key=lambda m: harvest_value(
            state, seat, tree_by_root(state, m["root"]))[2])
    plays = [m for m in moves if m["type"] == "play"]
    safe = [m for m in plays if not is_crown(m["card"])]
    if safe:
        return max(safe, key=lambda m: (RANK[m["card"]], RANK[m["under"]]))
    if plays:
        # no tree holds a Crown (else a harvest was legal), so the gift is this Crown alone
        nxt_suits = {a[1] for a in state["aces"][(seat + 1) % state["seats"]]}
        bonus = state["options"]["bonus"]
        return min(plays, key=lambda m: (bonus * (m["card"][1] in nxt_suits), -RANK[m["under"]]))
    return min(moves, key=lambda m: len(tree_by_root(state, m["root"])["kids"]))


def validate(options: dict) -> dict:
    if options["turn_cap"] < 1:
        raise OptionError(N_("option 'turn_cap' must be at least 1"))
    # fixed orders are stored canonically: ids, top first, comma-separated
    if options["deck"]:
        options["deck"] = ",".join(parse_order("deck", options["deck"], DRAW_CARDS))
    if options["roots"]:
        options["roots"] = ",".join(parse_order("roots", options["roots"], ACES))
    return options


#: events that draw chance or turn up hidden cards (a card drawn, roots or discards shuffled): a move whose events
#: include one of them cannot be taken back (the service's undo by agreement)
NO_TAKING_BACK = frozenset({"CardDrawn", "RootsShuffled", "DiscardsReshuffled"})


def can_take_back(state_before, events) -> bool:
    """Whether a move that produced `events` from `state_before` may be taken back by
    agreement: not if it drew chance or turned up anything hidden. (The service also checks
    that no seat learnt a card it did not know.)"""
    return not any(e.type in NO_TAKING_BACK for e in events)
