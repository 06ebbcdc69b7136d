"""Views, history and the menu. Hidden: hands, draw pile, deed preferences (M19) and the
replace-the-Ace setting (M16) are the owner's alone (RULINGS "Hidden information")."""
from __future__ import annotations

import json

from service.games.magnate import GAME
from tests.games.magnate.helpers import deed, dev, new, player, quiet, rolled, say, turn


def _position():
    st = quiet(new(replace_ace=True), draw=("5ML", "6SY", "2VL"))
    st = player(st, 0, hand=("8VL", "7SK", "4VL"), tokens={"V": 3, "L": 7},
                column=(5, (deed("9VY", V=1),)))
    st = player(st, 1, hand=("3MV", "5SV", "6LK"), column=(3, dev("4MS", "9MS")),
                tokens={"K": 2})
    return st


def test_preferences_and_ace_setting_never_reach_another_seat():
    base = _position()
    st, ev_pref = say(base, 0, "prefer wyrms for the darkness")
    st, ev_ace = say(st, 0, "replace aces ask")   # rules 3 start at "never" (M16 amended)
    for seat in (1, None):
        assert GAME.view(st, seat) == GAME.view(base, seat)
        for e in ev_pref + ev_ace:
            assert GAME.redact(e, seat) is None
    mine = GAME.view(st, 0)
    assert mine["deed_income"] == [{"card": "9VY", "suit": "Y", "chosen": True}]
    assert mine["replace_aces"] == "ask"
    assert GAME.redact(ev_pref[0], 0)["text"] == "You set Wyrms from the Darkness."


def test_hands_stay_private_in_views_and_history():
    st = _position()
    v1 = json.dumps(GAME.view(st, 1))
    for card in ("8VL", "7SK", "4VL"):
        assert card not in v1
    assert "hand" not in GAME.view(st, None)
    st2, events = turn(st, 0, {"type": "sell", "card": "4VL"})
    drew = next(e for e in events if e.type == "Drew")
    assert drew.data["card"] not in json.dumps(GAME.redact(drew, 1))
    assert GAME.redact(drew, 0)["card"] == drew.data["card"]
    start = GAME.start(2, GAME.validate_options(2, {}), __import__("random").Random(3))
    seen = GAME.redact(start[0], 1)
    assert seen["hand"] == start[0].data["hands"][1]
    assert not set(start[0].data["hands"][0]) & set(json.dumps(seen).split('"'))
    assert "hand" not in GAME.redact(start[0], None)


def test_view_shows_the_table():
    st, _ = rolled(_position(), 1, 9, 1, 6)
    v = GAME.view(st, 0)
    assert [d["name"] for d in v["districts"]] == [
        "the Watchman", "the Light Keeper", "the Excuse", "the Harvest", "the Borderland"]
    exc = v["districts"][2]
    assert exc["leader"] == 1 and exc["columns"][1]["total"] == 13
    assert v["districts"][4]["columns"][0]["cards"][0] == {
        "card": "9VY", "deed": True, "tokens": {"V": 1}, "needs": 8}
    assert v["roll"]["dice"] == [9, 1] and v["roll"]["taxed"] == ["K"]
    assert v["roll"]["paid"] == [{"seat": 0, "card": "9VY", "suits": "Y"},   # deed: one suit
                                 {"seat": 1, "card": "9MS", "suits": "MS"}]
    assert v["players"][1]["tokens"]["K"] == 1 and v["players"][0]["hand_size"] == 3
    assert v["draw_count"] == len(st.draw) and v["end"].startswith("first of 2 draw piles")
    assert v["hand"] == ["8VL", "7SK", "4VL"] and v["to_act"] == [1]   # seat 1 rolled
    json.dumps(v)


def test_menu_one_click_per_card_play_all_legal():
    st = _position()
    menu = GAME.menu(st, 0)
    legal = GAME.legal_moves(st, 0)
    assert menu and all(m in legal for m in menu)
    keys = [(m["type"], m["card"], m.get("district")) for m in menu]
    assert len(keys) == len(set(keys))
    assert {"type": "sell", "card": "4VL"} in menu
    assert GAME.menu(st, 1) == []


def test_history_sentences():
    st = _position()
    _, ev = turn(st, 0, {"type": "buy", "card": "4VL", "district": 3, "pay": {"V": 2, "L": 2}})
    assert GAME.redact(ev[0], 1)["text"] == (
        "{p0} developed the Sailor in district 3 for 2 Waves and 2 Leaves.")
    assert GAME.redact(ev[-1], 1)["text"].startswith("{p1} rolled ")
