"""Rules version 3 (RULINGS M16 amended 2026-11-27) and the amended M9 example."""

from __future__ import annotations

import random

from service.games.contract import replay
from service.games.magnate import GAME, Magnate
from service.games.magnate.costs import places
from service.games.magnate.views import redact
from tests.games.magnate.helpers import Script, act, new, player, quiet, say, types


class MagnateV2(Magnate):
    rules_version = 2


V2 = MagnateV2()


def _started(game, **options):
    rng = random.Random(3)
    return replay(game, game.start(2, game.validate_options(2, options), rng))


def _drawing_an_ace(st):
    """Seat 0 sells; the end-of-turn draw is the Ace of Moons."""
    st = quiet(st, draw=("1M", "5ML", "6SY"))
    st = player(st, 0, hand=("3MV", "4VL", "6MV"))
    st, ev = act(st, 0, {"type": "sell", "card": "3MV"}, Script(*([5, 6] * 20)))
    if st.phase == "open":
        st, more = act(st, 0, {"type": "end"}, Script(*([5, 6] * 20)))
        ev += more
    return st, ev


def test_m16_amended_the_choice_starts_at_never_and_the_ace_is_kept():
    # RULINGS M16 (amended 2026-11-27): the default is "never": the Ace is kept, no tell
    st = _started(GAME, replace_ace=True)
    assert st.rules == 3 and [p.aces for p in st.players] == ["never", "never"]
    st, ev = _drawing_an_ace(st)
    assert "1M" in st.players[0].hand and st.phase != "ask"
    assert [e.data["ask"] for e in ev if e.type == "Drew"] == [False]
    assert "Rolled" in types(ev)  # the next turn began at once


def test_m16_a_rules_2_game_plays_on_asking_by_default():
    # RULINGS M16: a game begun under rules 2 keeps its "ask" default and its views
    st = _started(V2, replace_ace=True)
    assert st.rules == 2 and [p.aces for p in st.players] == ["ask", "ask"]
    st, _ev = _drawing_an_ace(st)
    assert st.phase == "ask" and st.asked == "1M"
    assert GAME.view(st, 1)["phase"] == "ask"  # as it always said
    assert "replace_aces_help" not in GAME.view(st, 0)


def test_m16_amended_others_see_only_that_the_drawer_is_finishing():
    # RULINGS M16 (amended): while the drawer answers "ask", the others' views say only that
    # the drawer is finishing their turn, never why
    st = _started(GAME, replace_ace=True)
    st = player(st, 0, aces="ask")
    st, ev = _drawing_an_ace(st)
    assert st.phase == "ask" and GAME.to_act(st) == frozenset([0])
    mine = GAME.view(st, 0)
    assert mine["phase"] == "ask" and mine["asked"] == "1M"
    for reader in (1, None):
        view = GAME.view(st, reader)
        assert view["phase"] == "finishing" and view["turn"] == 0
        assert view.get("asked") is None and "1M" not in str(view["players"])
        # the sentence's template (for translating it) names no card either
        seen = [redact(e, reader) for e in ev if e.type == "Drew"]
        assert [{k: v for k, v in e.items() if k != "say"} for e in seen] == \
            [{"type": "Drew", "seat": 0, "text": "{p0} drew a card."}]
        assert seen[0]["say"]["args"] == {"player": "{p0}"}
    st2, _ = say(st, 0, "keep")
    assert GAME.view(st2, 1)["phase"] != "finishing"


def test_m16_amended_ask_says_the_others_will_see_you_deciding():
    # RULINGS M16 (amended): the preference says so where it is chosen
    view = GAME.view(_started(GAME, replace_ace=True), 0)
    assert view["replace_aces"] == "never"
    assert "the others will see that you are deciding" in view["replace_aces_help"]["ask"]
    assert {"type": "replace_aces", "mode": "ask"} in GAME.legal_moves(
        _started(GAME, replace_ace=True), 1
    )
    assert "replace_aces_help" not in GAME.view(_started(GAME), 0)  # variant off


def test_m9_amended_example_deed_sailor_then_add_a_wave():
    # RULINGS M9 (amended 2026-11-27): `deed sailor` then `add 1 wave to sailor` works within
    # one reply (the Sailor, 4VL, has no Moon)
    st = quiet(new())
    st = player(st, 0, hand=("4VL", "2MK", "9MS"), tokens={"V": 2, "L": 2})
    where = places(st, 0, "4VL")[0] + 1  # the district named when several fit
    reply = f"deed sailor in {where}\nadd 1 wave to sailor"
    moves = GAME.parse(st, 0, reply)
    assert moves[0]["type"] == "deed" and moves[0]["card"] == "4VL"
    st2, ev = say(st, 0, reply)
    assert types(ev)[:2] == ["DeedBought", "DeedAdded"]
    deed = [x for col in st2.players[0].columns for x in col if x.card == "4VL"][0]
    assert deed.on[2] >= 1  # a Wave on the Sailor
