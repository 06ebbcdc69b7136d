"""Rules version 2 (the amended RULINGS M7, M9, M10, M13, M16, M17, M20 and the lobby's player
counts), the deadline move, the bots' names, and games begun under version 1 playing on."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from service.games.contract import Event, IllegalMove, replay
from service.games.magnate import GAME
from service.games.magnate.scoring import final
from service.games.magnate.setup import crown_set, property_deck
from service.games.magnate.views import redact
from tests.games.magnate.helpers import Script, act, dev, new, player, quiet, say, toks, turn, types

END = {"type": "end"}


def _bought():
    """Seat 0 has just developed the Sailor in the Excuse district, with 3 Moons left over."""
    st = quiet(new())
    st = player(st, 0, hand=("4VL", "2MK", "3MV"), tokens={"V": 4, "L": 4, "M": 3})
    st, ev = act(st, 0, {"type": "buy", "card": "4VL", "district": 3, "pay": {"V": 2, "L": 2}})
    return st, ev


# ---------------------------------------------------------------- M9 amended: the open turn

def test_m9_turn_stays_open_after_the_card_play_until_end():
    # RULINGS M9 (amended): the engine keeps the turn open after the card play and ends it
    # with an explicit end-of-turn move.
    st, ev = _bought()
    assert types(ev) == ["Bought"] and st.phase == "open" and st.turn == 0
    assert GAME.to_act(st) == frozenset([0])
    st2, ev = act(st, 0, END)
    assert types(ev) == ["TurnEnded", "Drew", "Rolled"] and st2.turn == 1
    assert ev[0].data == {"seat": 0, "auto": False}


def test_m9_after_the_card_play_only_trades_additions_and_end():
    # RULINGS M9 (amended): exactly one card play; after it only trades and deed additions
    st, _ = _bought()
    legal = GAME.legal_moves(st, 0)
    assert END in legal
    assert {m["type"] for m in legal} == {"trade", "end"}
    assert GAME.menu(st, 0) == [END]
    with pytest.raises(IllegalMove, match="card play"):
        act(st, 0, {"type": "sell", "card": "2MK"})
    with pytest.raises(IllegalMove, match="card play first"):
        act(quiet(new()), 0, END)


def test_m9_turn_ends_by_itself_when_nothing_more_is_possible():
    # RULINGS M9 (amended): ... or by itself when no trade or addition is possible any more
    st, _ = _bought()
    st2, ev = act(st, 0, {"type": "trade", "give": "M", "get": "K"})    # RULINGS M10
    assert types(ev)[:3] == ["Traded", "TurnEnded", "Drew"]
    assert ev[1].data["auto"] is True and st2.turn == 1


def test_m9_finish_turn_hook():
    # RULINGS M9 (amended): one click on a card play plays it and ends the turn: the service
    # plays finish_turn's move after it.
    st, _ = _bought()
    assert GAME.finish_turn(st, 0) == END
    assert GAME.finish_turn(st, 1) is None
    assert GAME.finish_turn(quiet(new()), 0) is None          # card play not made yet


def test_m9_reply_lines_are_one_turn_and_end_parses():
    # RULINGS M9 (amended): the lines of one reply are one turn (`deed sailor` then
    # `add 1 wave to sailor`: tests/games/magnate/test_rules_v3.py)
    st = quiet(new())
    st = player(st, 0, hand=("7SK", "2MK", "3MV"), tokens={"S": 3, "K": 3})
    moves = GAME.parse(st, 0, "deed castle in 3\nadd 1 sun to the castle")
    assert moves == [{"type": "deed", "card": "7SK", "district": 3, "add": {"S": 1}}]
    for text in ("end", "end turn", "End my turn."):
        assert GAME.parse(st, 0, text) == [END]
    assert GAME.describe(END) == "end turn"


def test_m7_tokens_added_on_the_turn_the_deed_is_bought():
    # RULINGS M7: tokens may be added on the turn the deed is bought (after buying it), any
    # number of times, until the end of the turn (M9)
    st = quiet(new())
    st = player(st, 0, hand=("7SK", "2MK", "3MV"), tokens={"S": 3, "K": 3})
    st, ev = act(st, 0, {"type": "deed", "card": "7SK", "district": 3})
    assert types(ev) == ["DeedBought"] and st.phase == "open"
    st, ev = act(st, 0, {"type": "add", "card": "7SK", "pay": {"S": 1}})
    assert types(ev) == ["DeedAdded"] and st.phase == "open"
    st, ev = say(st, 0, "add 1 knot to the castle")
    assert types(ev) == ["DeedAdded"]
    assert st.players[0].columns[2][-1].on == toks(S=1, K=1)
    st, ev = say(st, 0, "add 1 sun and 1 knot to the castle")
    assert types(ev)[:2] == ["DeedAdded", "TurnEnded"]              # nothing left: ends


def test_m9_view_says_the_turn_is_open():
    # RULINGS M9 (amended): the page offers both (end the turn, or go on)
    st, _ = _bought()
    assert GAME.view(st, 0)["turn_open"] is True
    assert GAME.view(st, 1)["turn_open"] is True
    assert GAME.view(quiet(new()), 0)["turn_open"] is False
    assert "turn_open" not in GAME.view(replace(quiet(new()), rules=1), 0)


def test_m9_rules_1_card_play_still_ends_the_turn():
    # RULINGS M9: games begun under rules 1 keep the turn that the card play ends
    st = quiet(new(), rules=1)
    st = player(st, 0, hand=("4VL", "2MK", "3MV"), tokens={"V": 4, "L": 4, "M": 3})
    st2, ev = act(st, 0, {"type": "buy", "card": "4VL", "district": 3,
                          "pay": {"V": 2, "L": 2}})
    assert types(ev)[:3] == ["Bought", "Drew", "Rolled"] and st2.turn == 1
    assert END not in GAME.legal_moves(st, 0)
    with pytest.raises(IllegalMove):
        act(st, 0, END)


# ---------------------------------------------------------------- M16 no card left

def _last_ace(mode, rules=2):
    st = quiet(new(replace_ace=True), draw=("1M",), pile=2, rules=rules)
    return player(st, 0, hand=("3MV", "4VL", "6SY"), aces=mode)


@pytest.mark.parametrize("mode", ["always", "ask"])
def test_m16_ace_with_no_card_left_is_kept(mode):
    # RULINGS M16: when no card is left to draw (after the last pile, M12), the Ace cannot
    # be replaced: the drawer keeps it
    st, ev = turn(_last_ace(mode), 0, {"type": "sell", "card": "3MV"})
    assert "AceReplaced" not in types(ev) and "1M" in st.players[0].hand
    assert [e.data["ask"] for e in ev if e.type == "Drew"] == [False]
    assert st.turn == 1 and st.final_left is not None


def test_m16_rules_1_still_discards_it():
    # RULINGS M16: rules 1 games keep their old behaviour (discarded, no replacement)
    st, ev = turn(_last_ace("always", rules=1), 0, {"type": "sell", "card": "3MV"})
    assert "AceReplaced" in types(ev) and "1M" in st.discard


# ---------------------------------------------------------------- M13 shared win

def _three_tied(rules=2):
    st = quiet(new(3, ruleset="modern", three=True), rules=rules)
    st = player(st, 0, column=(2, dev("9MS")))      # district 2: seats 0 and 1
    return player(st, 1, column=(4, dev("9VY")))    # district 4: seats 1 and 2


def test_m13_two_of_three_tied_share_the_win():
    # RULINGS M13: still tied: a shared win of those tied (a draw only when every player is
    # tied); the outcome and history agree
    o = final(_three_tied())
    assert o["winners"] == [0, 1] and o["scores"] == [1, 1, 0]
    assert o["how"] != "draw" and "shared win" in o["how"]
    text = redact(Event("GameEnded", {"outcome": o}), 2)["text"]
    assert text.startswith("The game ended: {p0} and {p1} share the win")
    everyone = final(quiet(new(3, ruleset="modern", three=True)))
    assert everyone["winners"] == [0, 1, 2] and everyone["how"] == "draw"
    assert redact(Event("GameEnded", {"outcome": everyone}), 0)["text"] == (
        "The game ended in a draw.")
    assert final(_three_tied(rules=1))["how"] == "draw"       # rules 1 as it was


# ---------------------------------------------------------------- M17 the opening roll

def test_m17_the_opening_roll_is_taxed_like_any_other():
    # RULINGS M17: every turn starts with the automatic roll, the very first one included, and
    # that roll is taxed like any other
    opts = GAME.validate_options(2, {"mega": True})
    c = crown_set(opts)
    crowns = [c[0], c[1], c[6], c[7], c[2], c[3], c[8], c[9], c[4], c[5], c[10], c[11]]
    deck = ",".join(property_deck(opts) + crowns)
    # first player 0; dice 1 and 5; two tax dice (mega): Moons and Waves
    events = GAME.start(2, {"mega": True, "deck": deck}, Script(0, 1, 5, 1, 3))
    assert types(events) == ["GameStarted", "Rolled"]
    assert events[1].data["taxed"] == ["M", "V"]
    st = replay(GAME, events)
    assert events[1].data["lost"][0] == [1, 0, 1, 0, 0, 0]
    assert st.players[0].tokens == toks(M=1, V=1, Y=2)
    assert st.players[1].tokens == toks(S=2, L=2, K=2)


# ---------------------------------------------------------------- M20 odd last pile

def _final_mega_turn(st, seat):
    """Two sales, then the end of the turn if it is still open; stops before GameEnded."""
    events = []
    for _ in range(2):
        st, ev = act(st, seat, {"type": "sell", "card": st.players[seat].hand[0]},
                     stop="GameEnded")
        events += ev
    end = GAME.finish_turn(st, seat)
    if end is not None and st.phase == "open":
        st, ev = act(st, seat, end, stop="GameEnded")
        events += ev
    return st, events


def test_m20_odd_last_pile_leaves_a_hand_of_three():
    # RULINGS M20: what is left in the hands (usually 4 cards, fewer when the last pile was
    # odd) is discarded at the end
    st = quiet(new(mega=True), draw=("5ML.1",), pile=2)
    st = player(st, 0, hand=("3MV.1", "4VL.1", "6SY.1", "7SK.1", "8YK.1", "9LK.1"))
    st = player(st, 1, hand=("3MV.2", "4VL.2", "6SY.2", "7SK.2", "8YK.2", "9LK.2"))
    st, _ = _final_mega_turn(st, 0)
    assert len(st.players[0].hand) == 5 and st.final_left is not None   # one card drawn
    st, _ = _final_mega_turn(st, 1)
    st, events = _final_mega_turn(st, 0)
    assert [len(p.hand) for p in st.players] == [3, 4]
    left = st.players[0].hand + st.players[1].hand
    end = next(e for e in events if e.type == "GameEnded")
    over = GAME.evolve(st, end)
    assert [p.hand for p in over.players] == [(), ()] and set(left) <= set(over.discard)


# ---------------------------------------------------------------- lobby player counts

def test_m21_seats_for_classic_two_three_only_in_the_roller_three_variant():
    # RULINGS M21: three players only with option `three`, modern only; seed 000 is a
    # two-player game
    assert GAME.seats_for({}) == range(2, 3)
    assert GAME.seats_for({"ruleset": "modern"}) == range(2, 3)
    assert GAME.seats_for({"ruleset": "modern", "three": True}) == range(3, 4)
    assert GAME.seats_for({"ruleset": "modern", "three": "yes"}) == range(3, 4)
    assert GAME.seats_for({"ruleset": "classic", "three": True}) == range(0)
    for options in ({}, {"ruleset": "modern"}, {"ruleset": "modern", "three": True},
                    {"mega": True}, {"three": True}):
        allowed = GAME.seats_for(options)
        for n in range(1, 6):
            try:
                GAME.validate_options(n, options)
                ok = True
            except ValueError:
                ok = False
            assert ok == (n in allowed), (options, n)


# ---------------------------------------------------------------- deadlines

def test_timeout_move_card_play_open_turn_and_ask():
    st = quiet(new())
    st = player(st, 0, hand=("9MS", "2MK", "4VL"))
    assert GAME.timeout_move(st, 0) == {"type": "sell", "card": "2MK"}   # cheapest card
    assert GAME.timeout_move(st, 1) is None                            # not its turn
    st2, ev = act(st, 0, GAME.timeout_move(st, 0))                    # RULINGS M9: legal
    assert types(ev)[0] == "Sold"
    opened, _ = _bought()
    assert GAME.timeout_move(opened, 0) == END
    modern = player(quiet(new(ruleset="modern")), 0, hand=("1M", "2MK"))
    assert GAME.timeout_move(modern, 0) == {"type": "sell", "card": "2MK"}   # M3: Ace costs 3
    asked, _ = turn(player(quiet(new(replace_ace=True), draw=("1M", "5ML")), 0,
                           hand=("3MV", "4VL", "6SY"), aces="ask"),
                    0, {"type": "sell", "card": "3MV"})
    assert asked.phase == "ask"                                        # RULINGS M16
    assert GAME.timeout_move(asked, 0) == {"type": "keep", "card": "1M"}
    assert GAME.timeout_move(replace(st, phase="over"), 0) is None


# ---------------------------------------------------------------- bots

def test_bots_easy_and_normal_play_legal_moves_and_end_their_turns():
    assert {"easy", "normal"} <= set(GAME.bots)
    opened, _ = _bought()
    for name in ("easy", "normal"):
        move = GAME.bots[name](opened, 0, random.Random(1))
        assert move in GAME.legal_moves(opened, 0)
    assert GAME.bots["normal"](opened, 0, random.Random(1)) == END


# ---------------------------------------------------------------- rules versions

def test_new_games_start_under_the_current_rules():
    events = GAME.start(2, GAME.validate_options(2, {}), random.Random(5))
    assert GAME.rules_version == 3 and events[0].data["rules"] == 3
    assert replay(GAME, events).rules == 3


def test_a_rules_1_log_replays_and_plays_on_as_before():
    """A log from before versions (no "rules" in its first event) is rules 1: the card play
    still ends the turn, and no end move is ever offered."""
    rng = random.Random(8)
    events = GAME.start(2, GAME.validate_options(2, {"replace_ace": True}), rng)
    old = {k: v for k, v in events[0].data.items() if k != "rules"}
    log = [Event("GameStarted", old), *events[1:]]
    st = replay(GAME, log)
    assert st.rules == 1
    while GAME.outcome(st) is None:
        seat = st.turn
        legal = GAME.legal_moves(st, seat)
        assert END not in legal and GAME.finish_turn(st, seat) is None
        move = GAME.bots["normal"](st, seat, rng)
        new_events = GAME.decide(st, seat, move, rng)
        assert "TurnEnded" not in types(new_events)
        if move["type"] in ("buy", "deed", "sell") and st.plays_left == 1:
            assert {"Drew", "GameEnded", "Rolled"} & set(types(new_events))
        log += new_events
        st = replay(GAME, new_events, st)
    assert replay(GAME, log) == st and st.rules == 1


def test_m9_reply_end_after_a_turn_that_ended_by_itself_is_harmless():
    # RULINGS M9 (amended): a reply "sell ... / end" where the sale left nothing to trade or
    # add: the turn ended by itself, so the "end" line asks nothing more
    st = player(quiet(new()), 0, hand=("4VL", "2MK", "3MV"))
    assert GAME.parse(st, 0, "sell the sailor\nend") == [{"type": "sell", "card": "4VL"}]
    st = player(st, 0, tokens={"M": 3})
    assert GAME.parse(st, 0, "sell the sailor\nend") == [{"type": "sell", "card": "4VL"}, END]
