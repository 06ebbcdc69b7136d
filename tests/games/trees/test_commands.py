"""Trees commands (docs/rules/rulings.md: names with or without "the", any case, ids, unambiguous
prefixes; unknown or ambiguous names are refused with candidates)."""
from __future__ import annotations

import random

import pytest

from service.games.contract import CommandError, IllegalMove
from service.games.trees import GAME
from tests.games.trees.helpers import harvest, play, table, unroot

TREES = [("1V", ("4VL", "1V"), ("8VL", "4VL")), ("1M", ("9MS", "1M"), ("NM", "9MS"))]


@pytest.fixture
def state():
    return table([["NV", "7SK", "2MK", "NL"], ["3MV"]], TREES)


@pytest.mark.parametrize("text", [
    "play sea under mill", "sea under mill", "play sea on the mill", "Sea on Mill",
    "PLAY THE SEA UNDER THE MILL", "play NV under 8VL", "play the Sea beneath the Mill.",
    "play sea onto mill", "  play   sea   under   mill  ",
])
def test_play_spellings(state, text):
    assert GAME.parse(state, 0, text) == [play("NV", "8VL")]


@pytest.mark.parametrize("text", [
    "harvest moons", "harvest moon tree", "harvest 1M", "harvest ace of moons",
    "harvest the Moons tree", "Harvest Moons", "harvest moon", "harvest the Ace of Moons",
])
def test_harvest_spellings(state, text):
    assert GAME.parse(state, 0, text) == [harvest("1M")]


@pytest.mark.parametrize("text", ["unroot waves", "unroot the Waves tree", "unroot 1v",
                                  "unroot wave tree"])
def test_unroot_spellings(state, text):
    assert GAME.parse(state, 0, text) == [unroot("1V")]


def test_canonical_text():
    assert GAME.describe(play("NV", "8VL")) == "play the Sea under the Mill"
    assert GAME.describe(play("2MK", "1M")) == "play the Author under the Ace of Moons"
    assert GAME.describe(harvest("1M")) == "harvest the Moons tree"
    assert GAME.describe(unroot("1V")) == "unroot the Waves tree"


def test_every_legal_move_reads_back(state):
    for move in GAME.legal_moves(state, 0):
        assert GAME.parse(state, 0, GAME.describe(move)) == [move]


def test_a_lone_harvest_or_a_card_with_one_place():
    state = table([["NS", "3MV"], []], TREES)
    assert GAME.parse(state, 0, "harvest") == [harvest("1M")]
    assert GAME.parse(state, 0, "play the bard") == [play("NS", "9MS")]
    with pytest.raises(CommandError) as err:
        GAME.parse(state, 0, "play the journey")   # under the Ace of Waves or of Moons
    assert err.value.suggestions == ["play the Journey under the Ace of Waves",
                                     "play the Journey under the Ace of Moons"]


def test_a_prefix_shared_by_several_cards_is_settled_by_the_hand(state):
    # "ca": the Castle, the Cave, the Calamity; only the Castle is in hand
    assert GAME.parse(state, 0, "play ca under the pact") == [play("7SK", "9MS")]


def test_an_ambiguous_name_lists_the_candidates():
    state = table([["7SK", "7VY"], []], TREES)
    with pytest.raises(CommandError) as err:
        GAME.parse(state, 0, "play ca under the mill")
    assert "several" in err.value.why
    assert err.value.suggestions == ["the Castle", "the Cave"]


def test_an_unknown_name_suggests_moves(state):
    with pytest.raises(CommandError) as err:
        GAME.parse(state, 0, "play zea under mill")
    assert err.value.suggestions == ["play the Sea under the Mill"]
    with pytest.raises(CommandError) as err:
        GAME.parse(state, 0, "harvest mons")
    assert "harvest the Moons tree" in err.value.suggestions
    with pytest.raises(CommandError) as err:
        GAME.parse(state, 0, "dance a jig")
    assert err.value.suggestions   # some legal moves


def test_well_formed_but_illegal_moves_give_a_reason(state):
    """Parsing reads the words; the rules (decide) say why the move cannot be made."""
    chance = random.Random(0)
    move = GAME.parse(state, 0, "play the author under the mill")[0]
    with pytest.raises(IllegalMove, match="the Author shares no suit with the Mill"):
        GAME.decide(state, 0, move, chance)
    move = GAME.parse(state, 0, "play the end under the huntress")[0]
    with pytest.raises(IllegalMove, match="Crown"):
        GAME.decide(state, 0, move, chance)
    move = GAME.parse(state, 0, "harvest waves")[0]
    with pytest.raises(IllegalMove, match="holds no Crown"):
        GAME.decide(state, 0, move, chance)


def test_quoted_lines_and_blank_lines_are_skipped(state):
    text = "\n> On Monday the service wrote:\n> harvest waves\nharvest moons\n"
    assert GAME.parse(state, 0, text) == [harvest("1M")]


def test_an_unknown_name_lists_the_plays_of_the_hand(state):
    # docs/rules/rulings.md, the Decktet's names: "an ambiguous or unknown name is refused with the
    # candidates": the hand's plays under the card named, else all of the hand's plays
    with pytest.raises(CommandError) as err:
        GAME.parse(state, 0, "play zzz under mill")
    assert "'zzz'" in err.value.why
    assert err.value.suggestions == ["play the Sea under the Mill", "play the End under the Mill"]
    with pytest.raises(CommandError) as err:
        GAME.parse(state, 0, "play zzz under the pact")    # nothing of the hand goes there
    assert err.value.suggestions == [GAME.describe(m) for m in GAME.legal_moves(state, 0)
                                     if m["type"] == "play"]
    stuck = table([["2MK"], ["3MV"]], [("1V",), ("1S",)])    # no play at all: the hand
    with pytest.raises(CommandError) as err:
        GAME.parse(stuck, 0, "play zzz under the ace of waves")
    assert err.value.suggestions == ["the Author"]


@pytest.mark.parametrize("text", [
    "play 'the Sea' under 'the Mill'", "play 'sea' under 'mill'.", "'Sea' under 'Mill'",
    "play ‘the Sea’ under ‘the Mill’", 'play "the Sea" under "the Mill"',
])
def test_names_in_quotes(state, text):
    # docs/rules/rulings.md, the Decktet's names: quotation marks around a name are not part of it
    assert GAME.parse(state, 0, text) == [play("NV", "8VL")]
    assert GAME.parse(state, 0, "harvest 'the Moons tree'") == [harvest("1M")]
