"""Suzerain views and history: what each seat sees (docs/rules/rulings.md, Suzerain, hidden information),
and the templates that render a view."""
from __future__ import annotations

import json
import random
from pathlib import Path

import jinja2

from service.games.contract import replay
from service.games.suzerain import GAME
from service.mailwire.outbound import catalogs
from service.mailwire.outbound.templating import FILTERS, GLOBALS
from tests.games.suzerain.helpers import new, play

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"


def test_view_has_the_contract_keys_and_the_public_position():
    state = play(new("NM", "PMSL")[0], "lead the Desert", "play the Mountain",
                 "take the Harvest", "remove nothing", "take the Huntress")
    v = GAME.view(state, 1)
    assert {"game", "seat", "to_act", "hand", "outcome"} <= set(v)
    assert v["to_act"] == [1] and v["phase"] == "discard" and v["outcome"] is None
    assert v["hand"] == list(state.hands[1]) and "NM" in v["pile"]
    assert v["last_trick"]["lead"] == "2SY" and v["last_trick"]["winner"] == 0
    assert v["players"][0]["kept"] == [{"card": "PMSL", "used": False}]
    assert v["players"][0]["unused_rights"] == ["PMSL"]
    assert v["deck"] == 28 and len(v["display"]) == 2
    crowns = next(r for r in v["tally"] if r["rank"] == "N")
    assert crowns["counts"] == [0, 1] and crowns["unseen"] == 5
    spectator = GAME.view(state, None)
    assert "hand" not in spectator and "pile" not in spectator
    json.dumps(v)


def test_tally_counts_own_private_cards_but_only_public_ones_of_the_other():
    # RULINGS S10 (the tally) with RULINGS Suzerain hidden information (blind claims)
    state = play(new("NM", "NS", "9VY")[0], "lead the Desert", "play the Mountain",
                 "take blind")                                      # seat 0 took the Darkness
    nines = lambda v: next(r for r in v["tally"] if r["rank"] == "9")  # noqa: E731
    assert nines(GAME.view(state, 0))["counts"] == [1, 0]
    assert nines(GAME.view(state, 1))["counts"] == [0, 0]
    assert nines(GAME.view(state, None))["counts"] == [0, 0]


def test_nothing_secret_reaches_the_other_seat_in_a_whole_game():
    """Blind claims, discards and removed cards never reach the other seat, in views or in the
    history; after the end everything is revealed."""
    # RULINGS Suzerain hidden information: hand and own discard pile owner only (sizes public),
    # blind claims and discards the taker only, removed cards owner only, Aces until played
    rng = random.Random(5)
    log = list(GAME.start(2, GAME.validate_options(2, {}), rng))
    state = replay(GAME, log)
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_act(state)
        events = GAME.decide(state, seat, GAME.bots["random"](state, seat, rng), rng)
        log += events
        state = replay(GAME, events, state)
        for s in (0, 1, None):
            secret = GAME.secrets(state, s)
            text = json.dumps(GAME.view(state, s))
            assert not [c for c in secret if f'"{c}"' in text]
            for e in log:
                seen = json.dumps(GAME.redact(e, s))
                assert not [c for c in secret if f'"{c}"' in seen], e.type
    final = GAME.view(state, 1)
    assert final["outcome"]["scores"] == list(GAME.outcome(state).scores)
    assert sorted(final["reveal"][0]["owned"] + final["reveal"][1]["owned"]) == \
        sorted(state.owned(0) + state.owned(1))
    assert {"S10", "S11", "S12", "total", "fives"} <= set(final["outcome"]["detail"]["seats"][0])


def test_history_sentences_name_seats_and_cards():
    log: list = []
    state, start = new("NM", "NS")
    play(state, "lead the Desert", "play the Mountain", "take blind", "take the Bard",
         "discard the Savage", log=log)
    texts = [GAME.redact(e, 1)["text"] for e in start + log]
    assert texts[1] == "{p1} led the Desert to trick 1."
    assert texts[2] == "{p0} played the Mountain."
    assert "{p0} took the top card of the deck blind." in texts
    assert "{p1} discarded the Savage." in texts
    assert "{p1} discarded one card." in [GAME.redact(e, 0)["text"] for e in log]


def render(kind: str, view: dict, me):
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES),
                             autoescape=kind == "html", undefined=jinja2.StrictUndefined,
                             extensions=["jinja2.ext.i18n"])
    catalogs.install(env)           # the partials' fixed words go through the catalogs
    env.filters.update(FILTERS)
    env.globals.update(GLOBALS)     # fill, and the suit marks the partials import
    return env.get_template(f"games/suzerain/view.{kind}").render(
        view=view, names=["Ann", "Bob"], me=me)


def test_templates_render_the_offer_of_a_fresh_right():
    # RULINGS S7: the winner is asked at once (rules 2); the other seat sees it is waiting
    state = play(new("NM", "PMSL")[0], "lead the Desert", "play the Mountain",
                 "take the Harvest")
    assert "use the right of the Harvest now" in GAME.view(state, 0)["prompt"]
    # a seat placeholder the service fills with a name ("Waiting for Ann to ...")
    assert GAME.view(state, 1)["prompt"].startswith("Waiting for {p0}")
    for me in (0, 1, None):
        txt = render("txt", GAME.view(state, me), me)
        assert all(len(line) < 80 for line in txt.splitlines())
        assert "Harvest" in render("html", GAME.view(state, me), me)


def test_templates_render_mid_game_and_at_the_end():
    state = play(new("NM", "PMSL")[0], "lead the Desert", "play the Mountain",
                 "take the Harvest", "remove nothing", "take the Huntress")
    for me in (0, 1, None):
        for kind in ("txt", "html"):
            out = render(kind, GAME.view(state, me), me)
            assert "Harvest" in out
    txt = render("txt", GAME.view(state, 1), 1)
    assert "the Ace of Leaves (Ace Leaves)" in txt and "Your hand" in txt
    assert all(len(line) < 80 for line in txt.splitlines())
    rng = random.Random(2)
    state = replay(GAME, GAME.start(2, GAME.validate_options(2, {}), rng))
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_act(state)
        state = replay(GAME, GAME.decide(state, seat, GAME.bots["greedy"](state, seat, rng),
                                         rng), state)
    out = render("html", GAME.view(state, 0), 0)
    assert "Final score" in out and "(S11)" in out
    txt = render("txt", GAME.view(state, 0), 0)
    assert "Final score" in txt and all(len(line) < 80 for line in txt.splitlines())
    assert "Final score" in render("txt", GAME.view(state, None), None)
