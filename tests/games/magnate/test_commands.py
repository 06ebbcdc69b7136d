"""Reading commands: forgiving names, districts by number or Pawn, payments, defaults."""
from __future__ import annotations

import pytest

from service.games.contract import CommandError
from service.games.magnate import GAME
from tests.games.magnate.helpers import deed, new, player, quiet


@pytest.fixture
def st():
    st = quiet(new())
    st = player(st, 0, hand=("8VL", "7SK", "4VL"), tokens={"V": 3, "L": 7, "S": 2, "K": 6},
                column=(5, (deed("9VY", V=1),)))
    return st


def one(st, text, seat=0):
    moves = GAME.parse(st, seat, text)
    assert len(moves) == 1, moves
    return moves[0]


def test_issue_examples(st):
    assert one(st, "sell sailor") == {"type": "sell", "card": "4VL"}
    assert one(st, "buy mill in 3 with 2 waves 6 leaves") == {
        "type": "buy", "card": "8VL", "district": 3, "pay": {"V": 2, "L": 6}}
    assert one(st, "deed castle in excuse") == {"type": "deed", "card": "7SK", "district": 3}
    assert one(st, "Deed the Castle in the Light Keeper.") == {
        "type": "deed", "card": "7SK", "district": 2}
    assert one(st, "add 1 wave to darkness") == {"type": "add", "card": "9VY",
                                                 "pay": {"V": 1}}
    assert GAME.parse(st, 0, "trade 6 knots for 2 waves") == [
        {"type": "trade", "give": "K", "get": "V"}] * 2
    assert one(st, "trade 3 moons for knots") == {"type": "trade", "give": "M", "get": "K"}
    assert one(st, "prefer wyrms for darkness") == {"type": "prefer", "card": "9VY",
                                                   "suit": "Y"}


def test_forgiving_spellings(st):
    assert one(st, "BUY 8VL IN district 3 WITH 2 Waves, 6 Leaves")["card"] == "8VL"
    assert one(st, "buy the mill in #3 with 2v 6l")["pay"] == {"V": 2, "L": 6}
    assert one(st, "build mill in excuse with 2 waves and 6 leaves")["district"] == 3
    assert one(st, "buy the deed to the castle in 2")["type"] == "deed"
    assert one(st, "in watchman" and "deed castle in watchman")["district"] == 1


def test_canonical_texts_parse_back(st):
    for m in GAME.legal_moves(st, 0):
        assert GAME.parse(st, 0, GAME.describe(m)) == [m]
    assert GAME.describe({"type": "buy", "card": "8VL", "district": 3,
                          "pay": {"V": 2, "L": 6}}) == "buy the Mill in 3 with 2 Waves and 6 Leaves"
    assert GAME.describe({"type": "trade", "give": "M", "get": "K"}) == "trade 3 Moons for 1 Knot"


def test_default_payment_spends_what_you_hold_most_of(st):
    """Omitted payment: one of each suit, then one at a time of the suit held most of what is
    left (documented default): 3 Waves 7 Leaves pay the Mill with 2 Waves 6 Leaves."""
    assert one(st, "buy mill in 3")["pay"] == {"V": 2, "L": 6}
    assert one(st, "buy sailor in 3")["pay"] == {"V": 1, "L": 3}
    assert GAME.describe(one(st, "buy sailor in 3")) == (
        "buy the Sailor in 3 with 1 Wave and 3 Leaves")


def test_single_district_may_be_omitted():
    st = quiet(new())
    st = player(st, 0, hand=("4VL", "2MK", "3MV"), tokens={"V": 4, "L": 4})
    for d in (1, 2, 3, 4):
        st = player(st, 0, column=(d, (deed("9MS"),)))
    assert one(st, "buy sailor")["district"] == 5
    with pytest.raises(CommandError) as err:
        GAME.parse(player(quiet(new()), 0, hand=("4VL",), tokens={"V": 1, "L": 1}), 0,
                   "deed sailor")
    assert err.value.suggestions


def test_add_to_completes_by_default(st):
    with pytest.raises(CommandError):   # 8 more needed, only 3 Waves: say how many
        GAME.parse(st, 0, "complete the darkness")


def test_unknown_and_ambiguous_names_give_suggestions(st):
    with pytest.raises(CommandError) as err:
        GAME.parse(st, 0, "sell the mull")
    assert err.value.suggestions == ["the Mill"]
    with pytest.raises(CommandError) as err:
        GAME.parse(st, 0, "sell the pact")
    assert "the Pact" in err.value.why and "the Mill" in err.value.suggestions
    with pytest.raises(CommandError) as err:
        GAME.parse(st, 0, "fly to the moon")
    assert err.value.suggestions
    st2 = player(st, 0, hand=("8VL", "8MS", "4VL"))
    with pytest.raises(CommandError) as err:
        GAME.parse(st2, 0, "sell 8")
    assert set(err.value.suggestions) >= {"the Mill", "the Diplomat"}


def test_an_unknown_name_lists_the_cards_the_command_can_name(st):
    # docs/rules/rulings.md, the Decktet's names: "an ambiguous or unknown name is refused with the
    # candidates": the hand for a card play, the deeds for a deed's tokens or preference
    for text in ("sell zzz", "buy zzz", "buy zzz in 3", "deed zzz in 3"):
        with pytest.raises(CommandError) as err:
            GAME.parse(st, 0, text)
        assert "'zzz'" in err.value.why
        assert err.value.suggestions == ["the Mill", "the Castle", "the Sailor"], text
    for text in ("add 1 wave to zzz", "prefer waves for zzz"):
        with pytest.raises(CommandError) as err:
            GAME.parse(st, 0, text)
        assert err.value.suggestions == ["the Darkness"], text


@pytest.mark.parametrize("text,move", [
    ("sell 'the Mill'", {"type": "sell", "card": "8VL"}),
    ("sell ‘the Mill’", {"type": "sell", "card": "8VL"}),
    ('sell "the Mill"', {"type": "sell", "card": "8VL"}),
    ("deed 'the Castle' in 3", {"type": "deed", "card": "7SK", "district": 3}),
    ("add 1 wave to 'the Darkness'", {"type": "add", "card": "9VY", "pay": {"V": 1}}),
])
def test_names_in_quotes(st, text, move):
    # docs/rules/rulings.md, the Decktet's names: quotation marks around a name are not part of it
    assert one(st, text) == move


def test_several_commands_in_one_message(st):
    moves = GAME.parse(st, 0, "trade 3 knots for leaf\nadd 1 wave to darkness; sell sailor")
    assert [m["type"] for m in moves] == ["trade", "add", "sell"]


def test_mega_copies_are_named_and_interchangeable():
    st = quiet(new(mega=True))
    st = player(st, 0, hand=("8VL.2", "8VL.1", "4VL.1", "3MV.1", "5SV.1", "6MV.1"))
    assert one(st, "sell mill") == {"type": "sell", "card": "8VL.2"}
    assert one(st, "sell the mill #1") == {"type": "sell", "card": "8VL.1"}
    assert one(st, "sell 'the mill #1'") == {"type": "sell", "card": "8VL.1"}
    assert GAME.describe({"type": "sell", "card": "8VL.1"}) == "sell the Mill #1"
    with pytest.raises(CommandError) as err:    # two Watchmen in mega: say which
        GAME.parse(st, 0, "deed mill in watchman")
    assert err.value.suggestions == [] or all(s.startswith("in ") for s in err.value.suggestions)


def test_ace_answers_and_setting():
    st = quiet(new(replace_ace=True), phase="ask", asked="1M")
    st = player(st, 0, hand=("1M", "3MV", "4VL"))
    assert one(st, "replace") == {"type": "replace", "card": "1M"}
    assert one(st, "keep the ace of moons") == {"type": "keep", "card": "1M"}
    assert one(st, "replace aces: never") == {"type": "replace_aces", "mode": "never"}
    assert one(st, "aces always") == {"type": "replace_aces", "mode": "always"}
