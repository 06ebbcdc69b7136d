"""Suzerain's commands: forgiving names, canonical texts, helpful refusals."""
from __future__ import annotations

import pytest

from service.games.contract import CommandError, IllegalMove
from service.games.suzerain import GAME
from tests.games.suzerain.helpers import RNG, act, new, play


def test_lead_play_bare_names_and_prefixes():
    state, _ = new("NM", "NS")
    assert GAME.parse(state, 1, "lead desert") == [{"type": "lead", "card": "2SY"}]
    assert GAME.parse(state, 1, "play The Desert") == [{"type": "lead", "card": "2SY"}]
    assert GAME.parse(state, 1, "2SY") == [{"type": "lead", "card": "2SY"}]
    assert GAME.parse(state, 1, "savage") == [{"type": "lead", "card": "3LY"}]
    assert GAME.parse(state, 1, "lead ace of wyrms") == [{"type": "lead", "card": "1Y"}]
    state = act(state, "lead the Desert")
    assert GAME.parse(state, 0, "mountain") == [{"type": "play", "card": "4MS"}]
    assert GAME.parse(state, 0, "play mount") == [{"type": "play", "card": "4MS"}]


def test_claims_discards_and_rights():
    state = play(new("NM", "PMSL")[0], "lead the Desert", "play the Mountain")
    assert GAME.parse(state, 0, "take blind") == [{"type": "take_blind"}]
    assert GAME.parse(state, 0, "take the top card") == [{"type": "take_blind"}]
    assert GAME.parse(state, 0, "huntress") == [{"type": "take", "card": "NM"}]
    state = act(state, "take the Harvest")
    # rules 2 (RULINGS S7 amended): the fresh right is offered at once; declining reads easily
    for text in ("remove nothing", "no", "later", "keep the right", "none"):
        assert GAME.parse(state, 0, text) == [{"type": "decline"}]
    assert GAME.parse(state, 0, "journey") == [{"type": "remove", "card": "3MV",
                                                "with": "PMSL"}]
    state = play(state, "remove nothing", "take the Huntress")
    assert GAME.parse(state, 1, "discard none") == [{"type": "discard", "cards": []}]
    assert GAME.parse(state, 1, "discard nothing") == [{"type": "discard", "cards": []}]
    both = [{"type": "discard", "cards": ["1Y", "3LY"]}]
    assert GAME.parse(state, 1, "discard savage ace of wyrms") == both
    assert GAME.parse(state, 1, "discard the Savage, the Ace of Wyrms") == both
    assert GAME.parse(state, 1, "discard battle savage") == [
        {"type": "discard", "cards": ["3LY", "4YK"]}]
    state = act(state, "discard none")
    assert GAME.parse(state, 0, "remove author with the harvest") == [
        {"type": "remove", "card": "2MK", "with": "PMSL"}]
    assert GAME.parse(state, 0, "remove journey") == [
        {"type": "remove", "card": "3MV", "with": "PMSL"}]
    assert GAME.parse(state, 0, "use the harvest on the author") == [
        {"type": "remove", "card": "2MK", "with": "PMSL"}]
    with pytest.raises(CommandError, match="none of your unused"):
        GAME.parse(state, 0, "remove the ace of waves")


def test_several_lines():
    state = play(new("NM", "TSVY")[0], "lead the Desert", "play the Mountain",
                 "take the Huntress", "take the Island")
    moves = GAME.parse(state, 1, "remove the ace of wyrms with the island\ndiscard battle")
    assert moves == [{"type": "remove", "card": "1Y", "with": "TSVY"},
                     {"type": "discard", "cards": ["4YK"]}]


def test_ambiguous_and_unknown_names_suggest():
    state, _ = new()
    with pytest.raises(CommandError) as err:
        GAME.parse(state, 1, "lead ace")
    assert "could be several" in err.value.why
    assert set(err.value.suggestions) == {"the Ace of Leaves", "the Ace of Wyrms",
                                          "the Ace of Knots"}
    with pytest.raises(CommandError) as err:
        GAME.parse(state, 1, "lead the Savaje")
    assert "the Savage" in err.value.suggestions
    with pytest.raises(CommandError):
        GAME.parse(state, 1, "dance")
    with pytest.raises(CommandError):
        GAME.parse(state, 1, "")


def test_an_unknown_name_lists_the_hand():
    # docs/rules/rulings.md, the Decktet's names: "an ambiguous or unknown name is refused with the
    # candidates"
    state, _ = new()
    with pytest.raises(CommandError) as err:
        GAME.parse(state, 1, "lead zzz")
    assert err.value.suggestions == ["the Ace of Leaves", "the Ace of Wyrms", "the Ace of Knots",
                                     "the Desert", "the Savage", "the Battle"]


@pytest.mark.parametrize("text", ["lead 'the Desert'", "'desert'", "lead ‘the Desert’",
                                  'lead "the Desert"'])
def test_names_in_quotes(text):
    # docs/rules/rulings.md, the Decktet's names: quotation marks around a name are not part of it
    state, _ = new()
    assert GAME.parse(state, 1, text) == [{"type": "lead", "card": "2SY"}]
    state = play(new("NM", "PMSL")[0], "lead the Desert", "play the Mountain",
                 "take the Harvest", "remove nothing", "take the Huntress")
    assert GAME.parse(state, 1, "discard 'the Savage' and 'the Battle'") == [
        {"type": "discard", "cards": ["3LY", "4YK"]}]


def test_a_real_card_not_held_reads_but_is_refused_with_the_reason():
    state, _ = new()
    (move,) = GAME.parse(state, 1, "lead the mill")
    with pytest.raises(IllegalMove, match="you do not hold the Mill"):
        GAME.decide(state, 1, move, RNG)


def test_follow_error_names_the_suits_and_the_cards():
    state = act(new()[0], "lead the Desert")
    (move,) = GAME.parse(state, 0, "author")
    with pytest.raises(IllegalMove) as err:
        GAME.decide(state, 0, move, RNG)
    assert err.value.why == ("you must follow Suns or Wyrms: you hold the Ace of Suns and "
                             "the Mountain")


def test_every_legal_move_round_trips_through_its_text():
    offered = play(new("NM", "PMSL")[0], "lead the Desert", "play the Mountain",
                   "take the Harvest")
    state = play(offered, "remove nothing", "take the Huntress")
    for state_, seat in ((offered, 0), (state, 1), (act(state, "discard none"), 0)):
        for move in GAME.legal_moves(state_, seat):
            assert GAME.parse(state_, seat, GAME.describe(move)) == [move]
    assert GAME.describe({"type": "discard", "cards": ["2MK", "3MV"]}) == \
        "discard the Author and the Journey"
    assert GAME.describe({"type": "remove", "card": "5ML", "with": "TMVK"}) == \
        "remove the Forest with the Consul"
    assert GAME.describe({"type": "take_blind"}) == "take blind"
    assert GAME.describe({"type": "decline"}) == "remove nothing"


def test_menu_leaves_pairs_of_discards_to_replies():
    state = play(new("NM", "PMSL")[0], "lead the Desert", "play the Mountain",
                 "take the Harvest", "remove nothing", "take the Huntress")
    menu = GAME.menu(state, 1)
    assert {"type": "discard", "cards": []} in menu
    assert all(len(m["cards"]) < 2 for m in menu if m["type"] == "discard")
    assert all(m in GAME.legal_moves(state, 1) for m in menu)
