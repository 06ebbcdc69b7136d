"""Rules version 3: the fresh Pawn/Court right (RULINGS S7, "including immediately, before the
loser's claim") is offered whatever the winner's hand holds, since the hand is its owner's
alone (RULINGS Suzerain, hidden information) and the offer is public. A winner with no card
sharing a suit with it can only decline it; only the winner is told so. Version 2 kept: the
offer only with such a card.

Setup as in test_rules.py (helpers.py): seat 0 deals and holds the Moon set with the Aces of
Moons, Suns and Waves; seat 1 leads and holds the Wyrm set with the Aces of Leaves, Wyrms, Knots.
"""
from __future__ import annotations

import pytest

from service.games.contract import CommandError, IllegalMove
from service.games.suzerain import GAME
from tests.games.suzerain.helpers import RNG, act, new, one_card_left, play, swap_hand
from tests.games.suzerain.test_views import render

LIGHT_KEEPER = "PSVK"   # Suns, Waves, Knots
HARVEST = "PMSL"        # Moons, Suns, Leaves
CONSUL = "TMVK"         # Moons, Waves, Knots
DECLINE = {"type": "decline"}


def won_by_seat_0(*top: str, version: int | None = None):
    """Trick 1 won by seat 0 (the Mountain over the Desert); seat 0 is to claim."""
    return play(new(*top, version=version)[0], "lead the Desert", "play the Mountain")


def won_by_seat_1(*top: str, version: int | None = None):
    """Trick 1 won by seat 1 (the Battle over the Author); seat 1 is to claim. Its hand is then
    the Desert and the Savage (known to be its own: the Wyrm set) and three dealt Aces (its
    secret): of Leaves, Wyrms and Knots."""
    return play(new(*top, version=version)[0], "lead the Battle", "play the Author")


def claim_the_consul(hand_shares: bool, version: int | None = None):
    """Seat 1 takes the Consul holding the Ace of Knots, or (`hand_shares` False) holding the
    End (Leaves) in its place: hands that differ only in a card the loser cannot know."""
    state = won_by_seat_1(CONSUL, "NM", version=version)
    if not hand_shares:
        state = swap_hand(state, 1, ("1K",), ("NL",))
    log: list = []
    return act(state, "take the Consul", log), log


def test_the_offer_tells_the_loser_nothing_about_the_winners_hand():
    # RULINGS S7 ("including immediately") with the Suzerain hidden-information table (hand:
    # owner only): the loser's view and history are the same whatever the winner holds
    shares, log_shares = claim_the_consul(hand_shares=True)
    none, log_none = claim_the_consul(hand_shares=False)
    assert shares.phase == none.phase == "right"
    for seat in (0, None):
        assert GAME.view(shares, seat) == GAME.view(none, seat)
        assert ([GAME.redact(e, seat) for e in log_shares]
                == [GAME.redact(e, seat) for e in log_none])
    assert [e.type for e in log_none] == ["Claimed", "RightOffered"]
    assert GAME.to_act(none) == {1} and GAME.legal_moves(none, 0) == []


def test_a_winner_without_a_matching_card_can_only_decline_and_is_told_why():
    # RULINGS S7: the right removes "one hand card sharing a suit with it"
    state, _ = claim_the_consul(hand_shares=False)
    assert GAME.legal_moves(state, 1) == [DECLINE]
    prompt = GAME.view(state, 1)["prompt"]
    assert "None of your hand cards shares a suit with the Consul" in prompt
    assert "remove nothing" in prompt
    assert GAME.view(state, 0)["prompt"] == ("Waiting for {p1} to decide whether to use a "
                                             "right at once.")
    with pytest.raises(IllegalMove, match="shares no suit with the Consul"):
        GAME.decide(state, 1, {"type": "remove", "card": "NL", "with": CONSUL}, RNG)
    with pytest.raises(CommandError) as err:
        GAME.parse(state, 1, "remove the End")
    assert err.value.suggestions == ["remove nothing"]
    log: list = []
    state = act(state, "remove nothing", log)
    assert [e.type for e in log] == ["OfferClosed"] and log[0].data["used"] is False
    assert state.phase == "loser" and GAME.to_act(state) == {0}
    assert state.used[1] == ()


def test_the_owner_with_a_matching_card_is_asked_as_before():
    # RULINGS S7: the same offer, with the cards it may remove
    state, _ = claim_the_consul(hand_shares=True)
    assert "You may use the right of the Consul now" in GAME.view(state, 1)["prompt"]
    assert [m for m in GAME.legal_moves(state, 1) if m["type"] == "remove"] == [
        {"type": "remove", "card": "1K", "with": CONSUL}]


def test_timeout_and_bots_decline_an_offer_with_no_card_to_remove():
    # RULINGS S7: the right is optional and kept for later; nothing else is legal here
    state, _ = claim_the_consul(hand_shares=False)
    assert GAME.timeout_move(state, 1) == DECLINE
    for name in ("easy", "normal"):
        assert GAME.bots[name](state, 1, RNG) == DECLINE


def test_the_offer_without_a_matching_card_renders_for_both_seats():
    # RULINGS S7: the owner's email says why only 'remove nothing' is offered
    state, _ = claim_the_consul(hand_shares=False)
    txt = render("txt", GAME.view(state, 1), 1)
    assert "None of your hand cards" in txt
    assert all(len(line) < 80 for line in txt.splitlines())
    for kind in ("txt", "html"):
        assert "None of your hand cards" not in render(kind, GAME.view(state, 0), 0)


def test_the_offer_stays_open_after_an_older_right_takes_its_last_matching_card():
    # RULINGS S7 with the hidden-information table: closing the offer by itself would tell the
    # loser that no card sharing a suit with it is left in the winner's hand
    state = play(won_by_seat_0(HARVEST, "NM", LIGHT_KEEPER), "take the Harvest",
                 "remove nothing", "take the Huntress", "discard none",
                 "lead the Journey", "play the Ace of Leaves")
    state = one_card_left(state, 0, ("1M", "1S"))   # the Ace of Suns: Harvest and Keeper
    state = act(state, "take the Light Keeper")
    assert state.phase == "right" and state.offer == LIGHT_KEEPER
    log: list = []
    state = act(state, "remove the Ace of Suns with the Harvest", log)
    assert [e.type for e in log] == ["Removed"]
    assert state.phase == "right" and GAME.legal_moves(state, 0) == [DECLINE]
    assert "None of your hand cards" in GAME.view(state, 0)["prompt"]
    state = act(state, "remove nothing")
    assert state.phase == "loser"


def test_version_2_closed_that_offer_by_itself():
    # RULINGS S7 as version 2 played it, kept for games begun under it
    state = play(won_by_seat_0(HARVEST, "NM", LIGHT_KEEPER, version=2), "take the Harvest",
                 "remove nothing", "take the Huntress", "discard none",
                 "lead the Journey", "play the Ace of Leaves")
    state = one_card_left(state, 0, ("1M", "1S"))
    state = act(state, "take the Light Keeper")
    log: list = []
    state = act(state, "remove the Ace of Suns with the Harvest", log)
    assert [e.type for e in log] == ["Removed", "OfferClosed"]
    assert state.rules == 2 and state.phase == "loser"


def test_version_2_offered_the_right_only_with_a_matching_card():
    # RULINGS S7 as version 2 played it, kept for games begun under it
    state, log = claim_the_consul(hand_shares=False, version=2)
    assert state.rules == 2 and state.phase == "loser"
    assert [e.type for e in log] == ["Claimed"]
    state, log = claim_the_consul(hand_shares=True, version=2)
    assert state.phase == "right" and log[-1].type == "RightOffered"


def test_no_offer_to_a_winner_whose_hand_is_empty():
    # RULINGS S7: with no hand card there is nothing to remove, and hand sizes are public, so
    # skipping the offer tells the loser nothing
    state = one_card_left(won_by_seat_0(LIGHT_KEEPER, "NM"), 0, ())
    log: list = []
    state = act(state, "take the Light Keeper", log)
    assert [e.type for e in log] == ["Claimed"] and state.phase == "loser"
