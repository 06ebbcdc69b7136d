"""One scenario per Suzerain ruling (docs/rules/rulings.md S1-S14) and per seed sentence that decides play.

Setup in every scenario (helpers.py): seat 0 deals and holds the Moon set (the Author 2MK, the
Journey 3MV, the Mountain 4MS) with the Aces of Moons, Suns and Waves; seat 1 leads and holds the
Wyrm set (the Desert 2SY, the Savage 3LY, the Battle 4YK) with the Aces of Leaves, Wyrms, Knots.
"""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from service.games.cards import decktet
from service.games.contract import IllegalMove, OptionError, replay
from service.games.suzerain import GAME, scoring
from service.games.suzerain.state import CARDS, POOL
from tests.games.suzerain.helpers import RNG, act, new, play


def zone_cards(state):
    return [c for cards in GAME.zones(state).values() for c in cards]


def random_game(seed: int, bot: str = "random"):
    rng = random.Random(seed)
    log = list(GAME.start(2, GAME.validate_options(2, {}), rng))
    state = replay(GAME, log)
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_act(state)
        events = GAME.decide(state, seat, GAME.bots[bot](state, seat, rng), rng)
        log += events
        state = replay(GAME, events, state)
    return state, log


def test_s1_no_excuse_pool_of_32_and_16_tricks():
    """S1: the Excuse is left out; the pool is 32 cards and the game is exactly 16 tricks."""
    # RULINGS S1
    state, _ = new()
    assert decktet.EXCUSE not in zone_cards(state)
    assert sorted(zone_cards(state)) == sorted(CARDS) and len(CARDS) == 44
    assert len(POOL) == 32 and len(state.deck) + len(state.display) == 32
    for seed in range(5):
        _, log = random_game(seed)
        assert sum(e.type == "TrickWon" for e in log) == 16


def test_s2_setup_sets_aces_dealer_display():
    """S2: random dealer, Moon and Wyrm sets, three private Aces each, the non-dealer leads,
    the top two cards are revealed."""
    # RULINGS S2
    state, log = new("PMSL", "NM")
    assert state.hands[0] == ("1M", "1S", "1V", "2MK", "3MV", "4MS")
    assert state.hands[1] == ("1L", "1Y", "1K", "2SY", "3LY", "4YK")
    assert GAME.to_act(state) == {1} and state.dealer == 0
    assert state.display == ("PMSL", "NM") and len(state.deck) == 30
    seen = GAME.redact(log[0], 1)
    assert seen["aces"] == ["1L", "1Y", "1K"] and "1M" not in str(seen)
    assert "1M" not in str(GAME.redact(log[0], None)) and "deck" in seen
    # the random parts really vary
    setups = {(s.dealer, s.moon) for s in
              (replay(GAME, GAME.start(2, GAME.validate_options(2, {}), random.Random(i)))
               for i in range(40))}
    assert setups == {(0, 0), (0, 1), (1, 0), (1, 1)}


def test_s3_follower_must_share_a_suit_if_able():
    """S3: 'the other player must follow one of the suits shown on that card if possible. It is
    not necessary to follow both.'"""
    # RULINGS S3
    state = act(new()[0], "lead the Desert")            # Suns/Wyrms
    legal = {m["card"] for m in GAME.legal_moves(state, 0) if m["type"] == "play"}
    assert legal == {"1S", "4MS"}
    with pytest.raises(IllegalMove, match="you must follow Suns or Wyrms: you hold the Ace of "
                                           "Suns and the Mountain"):
        GAME.decide(state, 0, {"type": "play", "card": "2MK"}, RNG)


def test_s3_s4_a_card_that_does_not_follow_cannot_win_but_can_take_the_lead():
    """S3/S4: 'If they cannot follow suit they may play any card but they will not win the
    trick'; 'It is therefore possible to not follow suit but play a higher rank card, losing
    this trick but leading the next.'"""
    # RULINGS S3 RULINGS S4
    state = act(new()[0], "lead the Ace of Wyrms")      # seat 0 holds no Wyrms
    assert len(GAME.legal_moves(state, 0)) == 6
    state = act(state, "play the Mountain")
    assert state.last["winner"] == 1 and state.last["next_leader"] == 0
    assert GAME.to_act(state) == {1}                     # the winner claims first


def test_s4_following_higher_wins_and_leads():
    """S4: a follower who followed with a higher rank wins and leads next."""
    # RULINGS S4
    state = play(new()[0], "lead the Desert", "play the Mountain")
    assert state.last["winner"] == 0 and state.last["next_leader"] == 0


def test_s4_following_lower_loses():
    state = play(new()[0], "lead the Battle", "play the Author")         # Knots, 2 < 4
    assert state.last["winner"] == 1 and state.last["next_leader"] == 1


def test_s4_equal_ranks_the_leader_leads_again():
    """S4: 'If both cards are the same rank the player who lead the current trick leads
    again.'"""
    # RULINGS S4
    state = play(new("PMSL", "NM")[0], "lead the Ace of Leaves", "play the Ace of Moons",
                 "take the Huntress", "take the Harvest", "discard none")
    assert state.leader == 1 and GAME.to_act(state) == {1}


def test_s5_claims_winner_first_blind_or_open_then_loser_face_up_and_refill():
    """S5: the winner takes a face-up card or the top card blind (seen by the winner only);
    then the loser must take a face-up card; the display is refilled to two."""
    # RULINGS S5; RULINGS Suzerain hidden information: blind claims, the taker only
    log: list = []
    state, _ = new("NM", "NS", "9VY", "9MS")
    state = play(state, "lead the Desert", "play the Mountain", log=log)
    assert GAME.to_act(state) == {0}
    state = act(state, "take blind", log)
    assert "9VY" in state.piles[0] and state.display == ("NM", "NS")
    claim = log[-1]
    assert GAME.redact(claim, 1).get("card") is None and "9VY" not in str(GAME.redact(claim, 1))
    assert "9VY" not in str(GAME.redact(claim, None))
    assert GAME.redact(claim, 0)["card"] == "9VY"
    assert "9VY" in GAME.secrets(state, 1) and "9VY" not in str(GAME.view(state, 1))
    assert GAME.to_act(state) == {1}
    with pytest.raises(IllegalMove, match="must take a face-up card"):
        GAME.decide(state, 1, {"type": "take_blind"}, RNG)
    state = act(state, "take the Bard")
    assert "NS" in state.piles[1] and state.display == ("NM", "9MS")
    assert GAME.to_act(state) == {1} and state.phase == "discard"


def test_s6_loser_discards_zero_one_or_two_secretly_and_they_still_score():
    """S6: the loser may put 0, 1 or 2 hand cards into their own pile; only the number is
    public; discarded cards stay owned and score."""
    # RULINGS S6; RULINGS Suzerain hidden information: the loser's discards, the taker only
    log: list = []
    state = play(new("NM", "NS")[0], "lead the Desert", "play the Mountain", "take the Huntress",
                 "take the Bard", log=log)
    with pytest.raises(IllegalMove, match="at most 2"):
        GAME.decide(state, 1, {"type": "discard", "cards": ["1L", "1Y", "1K"]}, RNG)
    with pytest.raises(IllegalMove, match="do not hold"):
        GAME.decide(state, 1, {"type": "discard", "cards": ["1M"]}, RNG)
    state = act(state, "discard the Ace of Leaves and the Savage", log)
    assert {"1L", "3LY"} <= set(state.piles[1]) and "3LY" not in state.hands[1]
    other = GAME.redact(log[-1], 0)
    assert other["count"] == 2 and "1L" not in str(other) and "3LY" not in str(other)
    assert GAME.view(state, 0)["players"][1]["discarded"] == 2
    assert {"1L", "3LY"} <= set(state.owned(1))
    assert GAME.to_act(state) == {0}                     # cleanup done, the winner leads


def harvest_game(version: int | None = None):
    """Seat 0 wins trick 1 and sets the Harvest (Moons/Suns/Leaves) aside (under rules 2 its
    right is then offered at once)."""
    state, _ = new("PMSL", "NM", "9VY", "9MS", version=version)
    return play(state, "lead the Desert", "play the Mountain", "take the Harvest")


def test_s7_pawn_set_aside_face_up_and_right_used_at_a_later_decision():
    """S7: a claimed Pawn is set aside face up; its one-time right removes one hand card that
    shares a suit with it, set aside secretly; it scores at the end; using it does not end the
    owner's decision."""
    # RULINGS S7: "at any of the owner's later decision points"; the right kept when declined
    # RULINGS Suzerain hidden information: cards removed by rights, owner only
    state = play(harvest_game(), "remove nothing", "take the Huntress", "discard none")
    assert state.kept[0] == ("PMSL",) and "PMSL" not in state.piles[0]
    assert GAME.view(state, 1)["players"][0]["kept"] == [{"card": "PMSL", "used": False}]
    assert GAME.to_act(state) == {0}
    rights = [m for m in GAME.legal_moves(state, 0) if m["type"] == "remove"]
    assert {m["card"] for m in rights} == {"1M", "1S", "2MK", "3MV"}   # no Wave-only Ace
    with pytest.raises(IllegalMove, match="shares no suit"):
        GAME.decide(state, 0, {"type": "remove", "card": "1V", "with": "PMSL"}, RNG)
    log: list = []
    state = act(state, "remove the Journey with the Harvest", log)
    assert state.removed[0] == ("3MV",) and "3MV" not in state.hands[0]
    assert GAME.to_act(state) == {0} and state.phase == "lead"        # still 0's lead
    assert GAME.redact(log[-1], 1)["with"] == "PMSL" and "3MV" not in str(GAME.redact(log[-1],
                                                                                       1))
    assert "3MV" not in str(GAME.view(state, 1)) or "3MV" in state.public
    with pytest.raises(IllegalMove, match="already used"):
        GAME.decide(state, 0, {"type": "remove", "card": "1M", "with": "PMSL"}, RNG)
    assert "3MV" in state.owned(0)                         # still owned: it scores


def test_s7_right_is_an_extra_move_at_the_losers_discard():
    """S7: the loser who claims a Court may use it at once, at their discard decision."""
    # RULINGS S7: "Usable right after claiming it" (the loser's next decision is the discard)
    state, _ = new("NM", "TSVY", "9VY", "9MS")          # the Island: Suns/Waves/Wyrms
    state = play(state, "lead the Desert", "play the Mountain", "take the Huntress",
                 "take the Island")
    assert state.phase == "discard" and GAME.to_act(state) == {1}
    state = act(state, "remove the Ace of Wyrms with the Island")
    assert state.phase == "discard" and state.removed[1] == ("1Y",)
    state = act(state, "discard none")
    assert state.phase == "lead"


def test_s7_version_1_a_right_never_takes_the_last_card_that_must_be_played():
    """Rules version 1 (games begun before the amended S7): the last card at a lead stays."""
    # RULINGS S7 (version 1 behaviour, kept for games begun under it)
    state = harvest_game(version=1)
    assert state.rules == 1 and state.phase == "loser"      # no offer at once in version 1
    state = act(state, "take the Huntress")
    state = act(state, "discard none")
    hand = state.hands[0]
    state = replace(state, hands=(("1M",), state.hands[1]),
                    piles=(state.piles[0] + tuple(c for c in hand if c != "1M"), state.piles[1]))
    assert not [m for m in GAME.legal_moves(state, 0) if m["type"] == "remove"]
    with pytest.raises(IllegalMove, match="last card"):
        GAME.decide(state, 0, {"type": "remove", "card": "1M", "with": "PMSL"}, RNG)


def test_s8_an_empty_hand_takes_up_its_pile_at_cleanup():
    """S8: 'If a player has no cards left in hand at this point they pick up their entire
    discard pile; it is their new hand.'"""
    # RULINGS S8
    state = play(new("NM", "NS")[0], "lead the Desert", "play the Mountain", "take the Huntress",
                 "take the Bard")
    # seat 1 is left with two cards in hand, the rest already in its pile
    hand1 = ("1L", "3LY")
    rest = tuple(c for c in state.hands[1] if c not in hand1)
    state = replace(state, hands=(state.hands[0], hand1), piles=(state.piles[0],
                                                                 state.piles[1] + rest))
    pile = state.piles[1]
    log: list = []
    state = act(state, "discard the Ace of Leaves and the Savage", log)
    assert [e.type for e in log] == ["Discarded", "PileTakenUp"]
    assert sorted(state.hands[1]) == sorted(pile + hand1) and state.piles[1] == ()
    assert "NS" in state.hands[1]                        # claimed cards come back into play
    assert GAME.to_act(state) == {0}


def test_s8_pickup_is_a_public_event_without_the_cards():
    # RULINGS S8
    _, log = random_game(3)
    ups = [e for e in log if e.type == "PileTakenUp"]
    assert ups and all(GAME.redact(e, 1 - e.data["seat"])["text"] for e in ups)


def test_s9_the_game_ends_right_after_the_claims_of_the_last_trick():
    """S9: the end comes right after the claims of the trick that empties deck and display:
    no discard, no refill."""
    # RULINGS S9
    state, log = random_game(11)
    assert log[-1].type == "Ended" and log[-2].type == "Claimed"
    assert not state.deck and not state.display and GAME.to_act(state) == frozenset()
    assert GAME.outcome(state) is not None
    assert sum(1 for e in log if e.type == "Claimed") == 32


def test_s10_majorities():
    """S10: more cards of a rank than the opponent 1 point; all of them 3 (4 of 6 Crowns 1)."""
    # RULINGS S10
    assert scoring.majority_points(2, 1, 3) == 1
    assert scoring.majority_points(3, 0, 3) == 3
    assert scoring.majority_points(1, 2, 3) == 0
    assert scoring.majority_points(4, 2, 6) == 1
    assert scoring.majority_points(3, 3, 6) == 0
    assert scoring.majority_points(6, 0, 6) == 3
    mine = ["5ML", "5SV", "6MV", "7ML", "7SK", "7VY", "NM", "NS", "NV", "NL"]
    theirs = ["5YK", "6SY", "6LK", "NY", "NK"]
    parts = scoring.breakdown([mine, theirs])
    assert parts[0]["majorities"]["5"]["points"] == 1
    assert parts[0]["majorities"]["7"]["points"] == 3
    assert parts[0]["majorities"]["N"]["points"] == 1
    assert parts[1]["majorities"]["6"]["points"] == 1
    assert parts[0]["S10"] == 5 and parts[1]["S10"] == 1


def test_s11_aces_score_per_owned_pawn_sharing_their_suit():
    """S11: 'Each of your aces is worth one point for every Pawn you have that shares a suit
    with it. Therefore, aces can be worth 0-2 points.'"""
    # RULINGS S11
    parts = scoring.breakdown([["1M", "1V", "PMYK", "PMSL"], ["1S", "PVLY"]])
    assert parts[0]["S11"] == 2 + 0     # 1M with both Pawns; 1V with neither of them
    assert parts[1]["S11"] == 0


def test_s12_low_cards_score_per_suit_shared_with_each_court():
    """S12: each 2, 3 or 4 scores 1 per suit it shares with each owned Court (up to 4)."""
    # RULINGS S12
    parts = scoring.breakdown([["2MK", "3LY", "TMVK", "TMLY"], []])
    # the Author (M,K): Consul M,K = 2, Rite M = 1; the Savage (L,Y): Consul 0, Rite L,Y = 2
    assert [x["points"] for x in parts[0]["low"]] == [3, 2] and parts[0]["S12"] == 5
    assert scoring.breakdown([["4MS", "TMVK", "TMLY", "TSLK", "TSVY"], []])[0]["S12"] == 4
    assert scoring.breakdown([["TMVK"], ["2MK"]])[1]["S12"] == 0   # only your own Courts


def test_s13_tie_goes_to_more_fives():
    """S13: 'If tied, whoever has more 5's wins.'"""
    # RULINGS S13
    parts = [{"total": 7, "fives": 1}, {"total": 7, "fives": 2}]
    assert scoring.winners(parts) == ((1,), "tie broken by more 5s")
    assert scoring.winners([{"total": 8, "fives": 0}, {"total": 7, "fives": 3}]) == ((0,),
                                                                                      "score")
    assert scoring.winners([{"total": 7, "fives": 1}, {"total": 7, "fives": 1}])[1] == "draw"


def test_full_score_counts_every_owned_card_wherever_it_lies():
    """S6/S7: discarded and removed cards still score; the outcome agrees with the reveal."""
    # RULINGS S6 RULINGS S7: "the removed card ... scores at the end"
    for seed in range(4):
        state, log = random_game(seed)
        out = GAME.outcome(state)
        parts = scoring.breakdown([state.owned(0), state.owned(1)])
        assert list(out.scores) == [p["total"] for p in parts] == log[-1].data["scores"]
        assert sorted(state.owned(0) + state.owned(1)) == sorted(CARDS)


def test_s14_no_variants():
    """S14: Escalation and Deckbuilding are not offered."""
    # RULINGS S14
    assert set(GAME.options) == {"deck", "aces", "dealer", "moon_set"}
    with pytest.raises(OptionError):
        GAME.validate_options(2, {"escalation": True})
    with pytest.raises(OptionError):
        GAME.validate_options(3, {})


def test_deck_option_must_be_the_whole_pool():
    with pytest.raises(OptionError, match="must list all 32"):
        GAME.validate_options(2, {"deck": "8VL, 7VY"})
    with pytest.raises(OptionError, match="twice"):
        GAME.validate_options(2, {"deck": "8VL, mill"})
    with pytest.raises(OptionError, match="no card"):
        GAME.validate_options(2, {"deck": "the Excuse"})
    with pytest.raises(OptionError):
        GAME.validate_options(2, {"aces": "1M, 1S"})
    opts = GAME.validate_options(2, {"deck": ", ".join(decktet.name(c) for c in reversed(POOL))})
    state = replay(GAME, GAME.start(2, opts, RNG))
    assert state.display == tuple(reversed(POOL))[:2]
    assert GAME.validate_options(2, opts) == opts


def test_not_your_turn_and_wrong_phase():
    state, _ = new()
    with pytest.raises(IllegalMove, match="not your turn"):
        GAME.decide(state, 0, {"type": "lead", "card": "1M"}, RNG)
    with pytest.raises(IllegalMove, match="must lead"):
        GAME.decide(state, 1, {"type": "take_blind"}, RNG)
    with pytest.raises(IllegalMove, match="do not hold"):
        GAME.decide(state, 1, {"type": "lead", "card": "1M"}, RNG)
    with pytest.raises(IllegalMove):
        GAME.decide(state, 1, {"type": "lead", "card": 5}, RNG)


def test_a_pawn_claimed_blind_is_set_aside_face_up_and_public():
    """Hidden information: 'a Pawn or Court claimed blind is set aside face up at once (S7), so
    it becomes public'; any other blind claim stays the taker's."""
    # RULINGS S7; RULINGS Suzerain hidden information: a Pawn or Court claimed blind is public
    log: list = []
    state = play(new("NM", "NS", "PVLY")[0], "lead the Desert", "play the Mountain",
                 "take blind", log=log)
    claim = next(e for e in log if e.type == "Claimed")
    assert claim.data["blind"] and claim.data["kept"] and state.kept[0] == ("PVLY",)
    assert GAME.redact(claim, 1)["card"] == "PVLY" and "PVLY" in str(GAME.view(state, None))
    assert "PVLY" not in GAME.secrets(state, 1) and "PVLY" in state.public
