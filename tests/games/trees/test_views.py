"""What each seat sees (docs/rules/rulings.md Trees, "Hidden information": hands to their owner, sizes
public; draw pile and root pile order to nobody; trees, harvested Aces, scores, discards public),
and the view partials that render it."""
from __future__ import annotations

import json
import random
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from service.games import cards
from service.games.contract import replay
from service.games.trees import GAME
from service.games.trees.state import DRAW_CARDS
from service.mailwire.outbound import catalogs
from service.mailwire.outbound.templating import FILTERS, GLOBALS
from tests.games.trees.helpers import act, harvest, play, table

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"


def strings(obj) -> str:
    return json.dumps(obj)


def test_view_shows_the_position_and_hides_other_hands():
    state = table([["NV", "2MK"], ["3MV", "7SK"]],
                  [("1V", ("4VL", "1V"), ("8VL", "4VL")), ("1M", ("9MS", "1M"), ("NM", "9MS"))],
                  aces=[["1S"], []], scores=[2, 0], discard=["5ML"])
    view = GAME.view(state, 0)
    assert view["game"] == "trees" and view["seat"] == 0 and view["to_act"] == [0]
    assert view["hand"] == ["NV", "2MK"] and view["outcome"] is None
    moons = view["trees"][1]
    assert moons["root"] == "1M" and moons["name"] == "the Moons tree"
    assert moons["tree"] == {"card": "1M", "name": "the Ace of Moons", "room": 1, "children": [
        {"card": "9MS", "name": "the Pact", "room": 1, "children": [
            {"card": "NM", "name": "the Huntress", "room": 0, "children": []}]}]}
    assert moons["crowns"] == ["NM"] and moons["worth"] == 1
    assert view["players"][1] == {"seat": 1, "hand_size": 2, "aces": [], "score": 0}
    assert view["players"][0]["aces"] == ["1S"]
    assert view["discard"] == ["5ML"] and view["root_pile"] == 3
    assert view["draw_pile"] == len(state["draw"])
    assert view["plays"]["NV"] == ["1V", "4VL", "8VL"]
    assert "harvest the Moons tree" in view["moves"]
    other = GAME.view(state, 1)
    assert "3MV" in strings(other) and "NV" not in strings(other) and "plays" not in other
    spectator = GAME.view(state, None)
    assert "hand" not in spectator and "NV" not in strings(spectator)
    assert not set(state["draw"]) & set(json.loads(strings(spectator)))


def test_history_hides_draws_orders_and_fixed_options():
    rng = random.Random(5)
    order = list(reversed(DRAW_CARDS))
    events = GAME.start(2, GAME.validate_options(2, {"deck": ",".join(order)}), rng)
    started = GAME.redact(events[0], 1)
    assert started["options"]["deck"] == "fixed" and started["hand"] == order[5:10]
    assert not set(order) & set(json.loads(strings(GAME.redact(events[0], None)))["options"])
    assert "hand" not in GAME.redact(events[0], None)
    state = table([["2MK"], []], [("1M",), ("1L", ("5ML", "1L"), ("NL", "5ML"))],
                  draw=[], discard=["3MV", "4MS"])
    state, evs = act(state, 0, harvest("1L"))
    said = {e.type: GAME.redact(e, 1) for e in evs}
    # the sentences' templates (for the display to translate) apart: the rest is the record
    seen = {t: {k: v for k, v in e.items() if k != "say"} for t, e in said.items()}
    assert said["CardDrawn"]["say"] == {"template": "{player} drew a card.",
                                        "mine": "You drew a card.", "seat": 0,
                                        "args": {"player": "{p0}"}}
    assert seen["RootsShuffled"] == {"type": "RootsShuffled", "count": 4,
                                     "text": "The root pile was shuffled."}
    assert seen["DiscardsReshuffled"]["count"] == 4 and "order" not in seen["DiscardsReshuffled"]
    assert seen["CardDrawn"] == {"type": "CardDrawn", "seat": 0, "text": "{p0} drew a card."}
    mine = GAME.redact(evs[-1], 0)
    assert mine["card"] == state["hands"][0][-1]
    assert mine["text"] == "{p0} drew " + cards.name(mine["card"]) + "."


def test_history_sentences():
    state = table([["NV"], []], [("1V", ("4VL", "1V")), ("1M",)])
    _, evs = act(state, 0, play("NV", "4VL"))
    assert GAME.redact(evs[0], None)["text"] == \
        "{p0} played the Sea under the Sailor in the Waves tree."


def render(view, me, ext):
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)),
                      autoescape=select_autoescape(["html"]), trim_blocks=True,
                      lstrip_blocks=True, extensions=["jinja2.ext.i18n"])
    catalogs.install(env)           # the partials' fixed words go through the catalogs
    env.filters.update(FILTERS)
    env.globals.update(GLOBALS)     # what the partials use besides their context (suit marks)
    return env.get_template(f"games/trees/view.{ext}").render(view=view, names=["Ann", "Bo"],
                                                               me=me)


def test_partials_render_every_seat_without_secrets():
    rng = random.Random(11)
    state = replay(GAME, GAME.start(2, GAME.validate_options(2, {}), rng))
    for _ in range(12):
        seat = next(iter(GAME.to_act(state)))
        state = replay(GAME, GAME.decide(state, seat, GAME.bots["greedy"](state, seat, rng),
                                         rng), state)
    for me in (0, 1, None):
        view = GAME.view(state, me)
        for ext in ("html", "txt"):
            text = render(view, me, ext)
            assert "Trees in play".lower() in text.lower()
            for card in GAME.secrets(state, me):
                assert cards.name(card) not in text, (me, ext, card)
        txt = render(view, me, "txt")
        assert max(len(line) for line in txt.splitlines()) < 72
        if me is not None:
            assert "YOUR HAND" in txt


def test_the_turn_email_menu_offers_every_legal_move_in_ordinary_positions():
    """Issue 2: on their turn, one signed link per legal move."""
    import random

    from service.games.contract import replay
    from service.games.trees import GAME
    rng = random.Random(3)
    state = replay(GAME, GAME.start(2, GAME.validate_options(2, {}), rng))
    for _ in range(40):
        if GAME.outcome(state) is not None:
            break
        seat = min(GAME.to_act(state))
        legal = GAME.legal_moves(state, seat)
        if len(legal) <= 40:
            assert sorted(map(str, GAME.menu(state, seat))) == sorted(map(str, legal))
        state = replay(GAME, GAME.decide(state, seat, GAME.bots["random"](state, seat, rng), rng),
                       state)
