"""Engines refuse move objects they do not list, and malformed ones, with their own
IllegalMove, and change nothing (the contract: a move is a JSON-safe dict an engine lists).

No player path sends such objects today (the parsers and the service's listed-move check stop
them), but an engine must not record a move it does not list, nor fail with a KeyError,
TypeError or AttributeError on one. Move objects are drawn at random positions reached by
random play: wrong types, missing keys, extra keys, lists where strings go, unknown cards and
suits, and (where the engine's list is complete) well-formed moves it does not list.
"""

from __future__ import annotations

import copy
import functools
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from service.games import registry
from service.games.contract import IllegalMove, OptionError, replay
from tests.budgets import examples

GAMES = sorted(registry.available())
# Aristocracy lists a representative choice where the full space is combinatorial (stalls,
# builds, tax discards: its rules module says which), and accepts any legal move there, so
# only malformed moves are drawn for it; the others list every legal move.
COMPLETE_LISTS = {"trees", "magnate", "suzerain"}
# strings that are no card, no suit and no seat of any engine, and suit fragments
STRANGE = ["", " ", "YK", "MS", "VL", "ZZ", "8", "None", "8YK.9", "KD.3", "AX", "1Q"]


def _play_to_positions(game, seats: int, seed: int, every: int = 9, limit: int = 240):
    """Positions reached by random legal play, one in `every` moves."""
    rng = random.Random(seed)
    state = replay(game, game.start(seats, game.validate_options(seats, {}), rng))
    out = [state]
    for step in range(limit):
        if game.outcome(state) is not None:
            break
        seat = rng.choice(sorted(game.to_act(state)))
        state = replay(
            game, game.decide(state, seat, rng.choice(game.legal_moves(state, seat)), rng), state
        )
        if step % every == 0:
            out.append(state)
    return out


@functools.cache
def positions(game_id: str) -> list:
    game = registry.get(game_id)
    counts = [n for n in sorted({game.seats.start, game.seats.stop - 1}) if _plain(game, n)]
    return [s for i, n in enumerate(counts) for s in _play_to_positions(game, n, 31 + i)]


def _plain(game, seats: int) -> bool:
    """Whether the default options make a game of `seats` (three-player Magnate needs one)."""
    try:
        game.validate_options(seats, {})
    except OptionError:
        return False
    return True


@functools.cache
def card_ids(game_id: str) -> list[str]:
    """Every card id of the game, from its first position's zones."""
    game = registry.get(game_id)
    return sorted({c for cards in game.zones(positions(game_id)[0]).values() for c in cards})


def junk():
    scalar = (
        st.none()
        | st.booleans()
        | st.integers(-2, 12)
        | st.floats(allow_nan=False)
        | st.sampled_from(STRANGE)
        | st.text(max_size=3)
    )
    return st.recursive(
        scalar,
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(st.sampled_from(["type", "card", "x", ""]), inner, max_size=2)
        ),
        max_leaves=4,
    )


def _wrong_type(value, data):
    """A value of another JSON type than `value` (a list where a string goes, a string
    where a number goes…), or a strange string where a string goes."""
    if isinstance(value, str):
        return data.draw(
            st.sampled_from(
                [[value], None, 7, True, {"card": value}, *[s for s in STRANGE if s != value]]
            )
        )
    if isinstance(value, bool):
        return data.draw(st.sampled_from(["yes", 1, None, [value]]))
    if isinstance(value, int):
        return data.draw(st.sampled_from([str(value), float(value) + 0.5, None, [value], -1, True]))
    if isinstance(value, list):
        return data.draw(
            st.sampled_from(
                [
                    ",".join(map(str, value)),
                    None,
                    [value],
                    [*value, value[0]] if value else [None],
                    [STRANGE[2]],
                ]
            )
        )
    if isinstance(value, dict):
        return data.draw(
            st.sampled_from(
                [
                    list(value),
                    None,
                    {"YK": 1},
                    {"": 1},
                    {k: str(v) for k, v in value.items()} or {"M": "1"},
                    {k: -1 for k in value} or {"M": -1},
                ]
            )
        )
    return data.draw(junk())


def malformed(move: dict, data) -> object:
    """`move` broken one way: a key missing, a key added, one value of a wrong type."""
    how = data.draw(st.sampled_from(["drop", "extra", "retype", "type"]))
    out = dict(move)
    if how == "drop":
        key = data.draw(st.sampled_from(sorted(out)))
        del out[key]
    elif how == "extra":
        key = data.draw(st.sampled_from(["extra", "seat", "cards2", "why"]))
        assume(key not in out)
        out[key] = data.draw(junk())
    elif how == "retype":
        keys = sorted(k for k in out if k != "type")
        assume(keys)
        key = data.draw(st.sampled_from(keys))
        out[key] = _wrong_type(out[key], data)
    else:
        out["type"] = _wrong_type(out["type"], data)
    return out


def unlisted(move: dict, cards: list[str], data) -> dict:
    """`move` with one value changed to another of its type: another card, another number,
    another suit (a well-formed move, usually not a listed one)."""
    keys = sorted(k for k in move if k != "type")
    assume(keys)
    key = data.draw(st.sampled_from(keys))
    value, out = move[key], dict(move)
    if isinstance(value, str):
        out[key] = data.draw(st.sampled_from(cards + list("MSVLYK")))
    elif isinstance(value, bool):
        out[key] = not value
    elif isinstance(value, int):
        out[key] = value + data.draw(st.sampled_from([-1, 1, 5]))
    elif isinstance(value, list):
        out[key] = data.draw(st.lists(st.sampled_from(cards), max_size=3))
    elif isinstance(value, dict):
        out[key] = data.draw(
            st.dictionaries(st.sampled_from(list("MSVLYK")), st.integers(0, 4), max_size=3)
        )
    return out


def _unordered(move):
    """A move with its card lists as sets: naming two cards in another order is the same
    move (Suzerain's discard lists them in hand order, and takes them in any)."""
    if not isinstance(move, dict):
        return move
    return {
        k: (frozenset(v) if isinstance(v, list) and all(isinstance(c, str) for c in v) else v)
        for k, v in move.items()
    }


def _same_as_none_of(move, listed) -> bool:
    return _unordered(move) not in [_unordered(m) for m in listed]


def _assert_refused(game, state, seat, move):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove):
        game.decide(state, seat, move, random.Random(0))
    assert state == before


@pytest.mark.deep
@pytest.mark.parametrize("game_id", GAMES)
def test_engines_refuse_malformed_and_unlisted_move_objects(game_id):
    game = registry.get(game_id)
    states = positions(game_id)
    cards = card_ids(game_id)

    @settings(max_examples=examples(120), deadline=None, suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def run(data):
        state = data.draw(st.sampled_from(states))
        seats = len(game.view(state, None)["players"])
        seat = data.draw(st.sampled_from(range(seats)))
        listed = [m for s in range(seats) for m in game.legal_moves(state, s)]
        kinds = ["junk", "fresh"] + (["malformed"] if listed else [])
        if listed and game_id in COMPLETE_LISTS:
            kinds.append("unlisted")
        kind = data.draw(st.sampled_from(kinds))
        if kind == "junk":
            move = data.draw(junk())
        elif kind == "fresh":
            types = sorted({m["type"] for m in listed}) or ["play"]
            move = {
                "type": data.draw(st.sampled_from(types) | st.text(max_size=4)),
                **data.draw(
                    st.dictionaries(
                        st.sampled_from(
                            [
                                "card",
                                "cards",
                                "suit",
                                "give",
                                "get",
                                "under",
                                "root",
                                "pay",
                                "district",
                                "coins",
                                "mode",
                                "end",
                            ]
                        ),
                        junk(),
                        max_size=3,
                    )
                ),
            }
        else:
            base = data.draw(st.sampled_from(listed))
            move = malformed(base, data) if kind == "malformed" else unlisted(base, cards, data)
        assume(_same_as_none_of(move, game.legal_moves(state, seat)))
        _assert_refused(game, state, seat, move)

    run()


@pytest.mark.parametrize(
    "game_id,move",
    [
        ("magnate", {"type": "prefer", "card": "8YK", "suit": "YK"}),
        ("magnate", {"type": "trade", "give": "", "get": "K"}),
        ("magnate", {"type": "trade", "give": "MS", "get": "K"}),
        ("trees", {"type": "play", "card": ["8VL"], "under": "9VY"}),
        ("trees", {"type": "play", "card": "8VL", "under": ["9VY"]}),
        ("trees", {"type": "harvest", "root": ["1M"]}),
    ],
)
def test_the_reported_move_objects_are_refused_everywhere(game_id, move):
    """The objects that got through or crashed: a suit fragment ("YK" in "VYK"), an empty or
    two-letter suit, lists where Trees reads a card."""
    game = registry.get(game_id)
    for state in positions(game_id):
        for seat in range(len(game.view(state, None)["players"])):
            _assert_refused(game, state, seat, move)


def test_magnate_prefer_takes_one_suit_never_a_fragment_of_the_card():
    """The reported case: a deed to the Battle (8YK) whose owner sends the suit "YK", found
    inside the card's suits, was recorded and the deed then paid both suits."""
    from service.games.magnate import GAME as MAGNATE
    from tests.games.magnate.helpers import deed, new, player, quiet

    st = player(quiet(new()), 0, column=(2, (deed("8YK", Y=1),)))
    listed = [m for m in MAGNATE.legal_moves(st, 0) if m["type"] == "prefer"]
    assert {m["suit"] for m in listed} <= {"Y", "K"} and listed
    for suit in ("YK", "KY", "", "Y ", ["Y"]):
        _assert_refused(MAGNATE, st, 0, {"type": "prefer", "card": "8YK", "suit": suit})
    assert MAGNATE.decide(st, 0, listed[0], random.Random(0))[0].type == "PreferenceSet"
