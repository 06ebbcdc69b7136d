"""The Pawn/Court right as amended (docs/rules/rulings.md S7, rules version 2), and version 1 kept for
games begun before it: a version-1 log replays and plays on as before. Rules version 3 (new
games) offers the fresh right whatever the winner's hidden hand holds: test_right_offer.py.

Setup as in test_rules.py (helpers.py): seat 0 deals and holds the Moon set with the Aces of
Moons, Suns and Waves; seat 1 leads and holds the Wyrm set with the Aces of Leaves, Wyrms, Knots.
"""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from service.games.contract import IllegalMove, replay
from service.games.suzerain import GAME
from tests.games.suzerain.helpers import RNG, act, as_version_1, new, one_card_left, play

HARVEST = "PMSL"    # the Harvest: Moons, Suns, Leaves


def test_new_games_start_at_version_3():
    state, log = new()
    assert GAME.rules_version == 3
    assert log[0].data["rules"] == 3 and state.rules == 3


def test_the_winner_is_offered_the_right_at_once_before_the_losers_claim():
    # RULINGS S7: "Usable right after claiming it ("including immediately", before the loser's
    # claim)"
    log: list = []
    state = play(new("PMSL", "NM")[0], "lead the Desert", "play the Mountain",
                 "take the Harvest", log=log)
    assert state.phase == "right" and GAME.to_act(state) == {0}
    assert [e.type for e in log[-2:]] == ["Claimed", "RightOffered"]
    assert "right of the Harvest" in GAME.redact(log[-1], 1)["text"]
    legal = GAME.legal_moves(state, 0)
    assert {"type": "decline"} in legal
    assert {m["card"] for m in legal if m["type"] == "remove"} == {"1M", "1S", "2MK", "3MV"}
    assert GAME.legal_moves(state, 1) == []
    with pytest.raises(IllegalMove, match="not your turn"):
        GAME.decide(state, 1, {"type": "take", "card": "NM"}, RNG)
    with pytest.raises(IllegalMove, match="right of the Harvest"):
        GAME.decide(state, 0, {"type": "lead", "card": "1M"}, RNG)
    log.clear()
    state = act(state, "remove the Journey", log)
    assert [e.type for e in log] == ["Removed", "OfferClosed"]
    assert state.removed[0] == ("3MV",) and state.phase == "loser"
    assert GAME.to_act(state) == {1}
    assert "3MV" not in str(GAME.redact(log[0], 1))    # RULINGS Suzerain hidden information


def test_a_declined_right_stays_for_a_later_decision_point():
    # RULINGS S7: "and at any of the owner's later decision points"
    state = play(new("PMSL", "NM")[0], "lead the Desert", "play the Mountain",
                 "take the Harvest", "remove nothing")
    assert state.phase == "loser" and state.used[0] == ()
    assert GAME.view(state, 1)["players"][0]["unused_rights"] == [HARVEST]
    state = play(state, "take the Huntress", "discard none")
    assert GAME.to_act(state) == {0}
    assert any(m["type"] == "remove" for m in GAME.legal_moves(state, 0))
    state = act(state, "remove the Author")
    assert state.removed[0] == ("2MK",) and state.phase == "lead"


def test_a_trick_winner_left_with_one_matching_card_may_remove_it():
    # RULINGS S7: "The last hand card may be removed when the owner's discard pile holds a
    # card (cleanup refills the hand, S8)": the case the old right could never reach
    state = one_card_left(new("PMSL", "NM")[0], 0, ("1M", "4MS"))
    state = play(state, "lead the Desert", "play the Mountain", "take the Harvest")
    assert state.hands[0] == ("1M",) and state.piles[0]
    rights = [m for m in GAME.legal_moves(state, 0) if m["type"] == "remove"]
    assert rights == [{"type": "remove", "card": "1M", "with": HARVEST}]
    pile = state.piles[0]
    log: list = []
    state = play(state, "remove the Ace of Moons", "take the Huntress", "discard none", log=log)
    assert state.removed[0] == ("1M",)
    assert {"type": "PileTakenUp", "seat": 0} in [{"type": e.type, **e.data} for e in log]
    assert sorted(state.hands[0]) == sorted(pile) and state.piles[0] == ()   # RULINGS S8
    assert GAME.to_act(state) == {0}


def test_version_1_the_same_winner_could_never_use_it():
    # RULINGS S7 (version 1, kept for games begun under it)
    state = one_card_left(new("PMSL", "NM", version=1)[0], 0, ("1M", "4MS"))
    state = play(state, "lead the Desert", "play the Mountain", "take the Harvest")
    assert state.rules == 1 and state.phase == "loser"
    state = play(state, "take the Huntress", "discard none")
    assert state.hands[0] == ("1M",) and GAME.to_act(state) == {0}
    assert not [m for m in GAME.legal_moves(state, 0) if m["type"] == "remove"]
    with pytest.raises(IllegalMove, match="must still play it"):
        GAME.decide(state, 0, {"type": "remove", "card": "1M", "with": HARVEST}, RNG)


def leading_with_the_harvest():
    """Seat 0 to lead trick 2, holding the Harvest's right unused."""
    return play(new("PMSL", "NM")[0], "lead the Desert", "play the Mountain",
                "take the Harvest", "remove nothing", "take the Huntress", "discard none")


def test_the_last_card_at_a_lead_brings_the_pile_up_at_once():
    # RULINGS S7: the last hand card may be removed when the discard pile holds a card; the
    # seat must still lead, so the pile becomes its hand at once (S8)
    state = one_card_left(leading_with_the_harvest(), 0, ("1M",))
    pile = state.piles[0]
    log: list = []
    state = act(state, "remove the Ace of Moons", log)
    assert [e.type for e in log] == ["Removed", "PileTakenUp"]
    assert state.removed[0] == ("1M",) and sorted(state.hands[0]) == sorted(pile)
    assert state.phase == "lead" and GAME.to_act(state) == {0}


def test_the_last_card_with_an_empty_pile_is_refused_with_the_reason():
    # RULINGS S7: "otherwise the refusal says why"
    state = one_card_left(leading_with_the_harvest(), 0, ("1M",))
    state = replace(state, piles=((), state.piles[1]))
    assert not [m for m in GAME.legal_moves(state, 0) if m["type"] == "remove"]
    with pytest.raises(IllegalMove, match="your discard pile is empty"):
        GAME.decide(state, 0, {"type": "remove", "card": "1M", "with": HARVEST}, RNG)


def test_the_losers_last_card_at_the_discard_ends_the_discard():
    # RULINGS S7: the loser's fresh Court used at once on the last hand card; nothing is
    # left to discard, cleanup refills the hand (S8)
    state = play(new("NM", "TSVY")[0], "lead the Desert", "play the Mountain",
                 "take the Huntress", "take the Island")
    state = one_card_left(state, 1, ("1Y",))
    log: list = []
    state = act(state, "remove the Ace of Wyrms with the Island", log)
    assert [e.type for e in log] == ["Removed", "Discarded", "PileTakenUp"]
    assert log[1].data["auto"] is True and state.removed[1] == ("1Y",)
    assert state.phase == "lead" and GAME.to_act(state) == {0}


def test_no_offer_when_the_losers_claim_ends_the_game():
    # RULINGS S7 with S9: the game ends right after the loser's claim and every card scores
    # wherever it lies, so a removal then would change nothing: not offered
    state = play(new("PMSL", "NM")[0], "lead the Desert", "play the Mountain")
    rest = state.deck
    state = replace(state, deck=(), piles=(state.piles[0], state.piles[1] + rest))
    state = act(state, "take the Harvest")
    assert state.phase == "loser"
    state = act(state, "take the Huntress")
    assert GAME.outcome(state) is not None


def test_a_version_1_log_replays_and_plays_on_as_before():
    # RULINGS S7: a game is played to its end under the rules it began with (docs/engines.md)
    rng = random.Random(4)
    log = as_version_1(list(GAME.start(2, GAME.validate_options(2, {}), rng)))
    state = replay(GAME, log)
    assert state.rules == 1
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_act(state)
        events = GAME.decide(state, seat, GAME.bots["random"](state, seat, rng), rng)
        log += events
        state = replay(GAME, events, state)
        assert state.phase != "right"
    assert not [e for e in log if e.type in ("RightOffered", "OfferClosed")]
    assert replay(GAME, log) == state
