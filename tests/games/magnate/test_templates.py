"""The view partials render every kind of position without error and show no other hand."""
from __future__ import annotations

from pathlib import Path

import pytest

from service.games import cards
from service.games.magnate import GAME
from service.mailwire.outbound import catalogs
from service.mailwire.outbound.templating import FILTERS, GLOBALS
from tests.games.magnate.test_play import play

jinja2 = pytest.importorskip("jinja2")
ROOT = Path(__file__).resolve().parents[3] / "templates"


def _env():
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(ROOT)), autoescape=True,
                             extensions=["jinja2.ext.i18n"])
    catalogs.install(env)           # the partials' fixed words go through the catalogs
    env.filters.update(FILTERS)
    env.globals.update(GLOBALS)     # the suit marks the partials import
    return env


@pytest.mark.parametrize("seats,options", [(2, {"replace_ace": True}), (2, {"mega": True}),
                                           (3, {"ruleset": "modern", "three": True})])
def test_views_render(seats, options):
    env = _env()
    st, events = play(seats, options, 3, ["greedy"] * seats)
    names = ["Ann", "Bob", "Cyd"][:seats]
    # a mid-game position and the end
    from service.games.contract import replay
    mid = replay(GAME, events[: len(events) // 2])
    for state in (mid, st):
        for me in [*range(seats), None]:
            view = GAME.view(state, me)
            for kind in ("txt", "html"):
                out = env.get_template(f"games/magnate/view.{kind}").render(
                    view=view, names=names, me=me)
                assert "Districts" in out
                if me is not None and state is mid:
                    other = state.players[(me + 1) % seats].hand
                    mine = {cards.label(c) for c in state.players[me].hand}
                    assert not any(cards.label(c) in out for c in other
                                   if cards.label(c) not in mine)
    text = env.get_template("games/magnate/view.txt").render(view=GAME.view(st, 0),
                                                             names=names, me=0)
    assert "GAME OVER" in text


def test_open_turn_says_how_to_end_it():
    """RULINGS M9 (amended): the page and the email say plainly that the turn is still open
    and how to end it."""
    # RULINGS M9
    from tests.games.magnate.helpers import act, new, player, quiet
    st = player(quiet(new()), 0, hand=("4VL", "2MK", "3MV"), tokens={"V": 4, "L": 4, "M": 3})
    st, _ = act(st, 0, {"type": "buy", "card": "4VL", "district": 3, "pay": {"V": 2, "L": 2}})
    env = _env()
    for kind in ("txt", "html"):
        out = env.get_template(f"games/magnate/view.{kind}").render(
            view=GAME.view(st, 0), names=["Ann", "Bob"], me=0)
        assert "Your turn is still open" in out and "end" in out
        other = env.get_template(f"games/magnate/view.{kind}").render(
            view=GAME.view(st, 1), names=["Ann", "Bob"], me=1)
        assert "Ann has made the card play" in other
