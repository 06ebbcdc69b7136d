"""The conformance suite (OpenSpiel's way): every registered engine keeps the contract of
service/games/contract.py, and every optional hook it has keeps the guarantee `Hooks` writes
for it, in positions of seeded random play (tests/games/positions.py). The invariants of whole
playthroughs are in test_invariants.py; "from the seat's knowledge alone" is checked in
test_hidden_information.py.

The first tests hold the declaration itself to the code: every hook the service looks up on
an engine is declared, every declared hook is looked up, documented in docs/engines.md, and
an engine offers nothing undeclared, so a hook cannot be added to one side alone.
"""
from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path

import pytest

from service.games import registry
from service.games.contract import OPTIONAL_HOOKS, REQUIRED, IllegalMove, Option, english, replay
from service.play.errors import PlayError
from service.play.moves import planplay, standingplans
from tests.games.positions import GAMES, configurations, positions

ROOT = Path(__file__).resolve().parents[2]
# `getattr(engine, "name", ...)` or `hasattr(pos.engine, "name")`: the service looking up a hook
_LOOKUP = re.compile(r"\b(?:getattr|hasattr)\(\s*(?:pos\.)?engine\s*,\s*\"(\w+)\"")
# the registry (service/games) asks a lobby entry's engine, named `game` there
_REGISTRY_LOOKUP = re.compile(r"\b(?:getattr|hasattr)\(\s*game\s*,\s*\"(\w+)\"")
# a hook called once another has been looked up (`never_possible` after `plan_world`)
_CALL = re.compile(r"\b(?:pos\.)?engine\.(\w+)\(")
NAMES = ["Anna", "Ben", "Cleo", "Dan", "Eve"]


def _looked_up(pattern: re.Pattern = _LOOKUP) -> dict[str, set[str]]:
    """Each name the service looks up on an engine (or calls, by `pattern`), with the files
    that do."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "service").rglob("*.py")) + sorted((ROOT / "workers").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text()
        names = set(pattern.findall(text))
        if rel == "service/games/registry.py":
            names |= set(_REGISTRY_LOOKUP.findall(text))
        for name in names:
            found.setdefault(name, set()).add(rel)
    return found


def test_every_hook_the_service_looks_up_is_declared_and_each_declared_one_is_used():
    looked_up = _looked_up()
    undeclared = {n: sorted(f) for n, f in looked_up.items()
                  if n not in OPTIONAL_HOOKS and n not in REQUIRED}
    assert not undeclared, f"declare these in contract.Hooks: {undeclared}"
    called = _looked_up(_CALL)
    unused = [n for n in OPTIONAL_HOOKS if n not in looked_up and n not in called]
    assert not unused, f"declared hooks the service never looks up: {unused}"
    # issue 48 named these five as missing from the contract and the docs
    assert {"plan_world", "never_possible", "plan_hints", "plan_out_of_turn",
            "sealed_choices"} <= set(OPTIONAL_HOOKS)


def test_docs_name_every_hook_with_its_guarantee():
    docs = (ROOT / "docs" / "engines.md").read_text()
    hooks = docs[docs.index("## Optional hooks"):]
    for name in OPTIONAL_HOOKS:
        row = re.search(rf"^\| `{name}\b.*\| ([^|]+) \|$", hooks, re.M)
        assert row, f"docs/engines.md: no row for {name}"
        having = sorted(g for g in GAMES if hasattr(registry.get(g), name))
        said = row[1].strip()
        listed = GAMES if said == "all four" and len(GAMES) == 4 else \
            sorted(w.strip().lower() for w in said.split(","))
        assert listed == having, f"docs/engines.md says {said!r} have {name}: {having}"


@pytest.mark.parametrize("game_id", GAMES)
def test_an_engine_has_the_contract_and_offers_only_declared_hooks(game_id):
    game = registry.get(game_id)
    missing = [n for n in REQUIRED if not hasattr(game, n)]
    assert not missing, missing
    offered = {n for n in dir(game) if not n.startswith("_")}
    unknown = offered - set(REQUIRED) - set(OPTIONAL_HOOKS)
    assert not unknown, f"{game_id} offers {sorted(unknown)}: declare them in contract.Hooks"
    assert game.id == game_id and isinstance(game.title, str) and game.title
    assert isinstance(game.seats, range) and game.seats.start >= 1 and len(game.seats)
    assert isinstance(game.rules_version, int) and game.rules_version >= 1
    assert all(isinstance(o, Option) for o in game.options.values())
    assert game.bots and all(callable(b) for b in game.bots.values())
    # hooks that only make sense together
    has = {n for n in OPTIONAL_HOOKS if hasattr(game, n)}
    assert ("plan_world" in has) == ("never_possible" in has), has
    assert not {"plan_hints", "plan_out_of_turn"} & has or "plan_world" in has, has
    assert not ("sealed_choices" in has and "plan_world" in has), has


def _with_hook(hook: str) -> list:
    return [pytest.param(g, id=g) for g in GAMES if hasattr(registry.get(g), hook)]


def _unchanged(state, call):
    """`call(state)`, checking that it left `state` as it was."""
    before = copy.deepcopy(state)
    out = call(state)
    assert state == before, "a hook changed the state it was given"
    return out


def _accepted(game, state, seat, move, whose: str = "") -> list:
    try:
        return game.decide(state, seat, json.loads(json.dumps(move)), random.Random(0))
    except IllegalMove as exc:
        raise AssertionError(f"{whose}{game.describe(move)!r} refused: {exc.why}") from None


@pytest.mark.parametrize("game_id", GAMES)
def test_the_required_methods_keep_their_guarantees(game_id):
    """To act: someone until the outcome; a seat to act has a legal move, the menu is a part of
    them, every move's text reads back; a seat not to act may have only moves `decide`
    accepts; the first event records the rules version."""
    game = registry.get(game_id)
    seats, options = configurations(game)[0]
    first = game.start(seats, options, random.Random(1))[0]
    assert first.data.get("rules") == game.rules_version
    for pos in positions(game_id):
        state = pos.state
        acting = game.to_act(state)
        assert acting <= set(range(pos.seats))
        assert bool(acting) == (game.outcome(state) is None)
        for seat in range(pos.seats):
            moves = game.legal_moves(state, seat)
            if seat in acting:
                assert moves, f"seat {seat} is to act with no legal move"
            menu = game.menu(state, seat)
            assert all(m in moves for m in menu), "a menu move that is not a legal move"
            for move in moves[:8]:
                assert game.parse(state, seat, game.describe(move)) == [move]
            if seat not in acting:
                for move in moves[:4]:
                    _accepted(game, state, seat, move)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_bot_answers_with_a_legal_move(game_id):
    game = registry.get(game_id)
    for pos in positions(game_id)[::3]:
        for seat in sorted(game.to_act(pos.state)):
            for name, bot in game.bots.items():
                move = _unchanged(pos.state, lambda s, bot=bot, seat=seat:
                                  bot(s, seat, random.Random(2)))
                _accepted(game, pos.state, seat, move, f"the {name} bot's ")


@pytest.mark.parametrize(("game_id", "hook"), [
    pytest.param(g, h, id=f"{g}-{h}") for h in ("timeout_move", "finish_turn")
    for g in GAMES if hasattr(registry.get(g), h)])
def test_a_move_made_for_a_seat_is_one_decide_accepts(game_id, hook):
    """timeout_move: None for a seat not to act; finish_turn: None where no turn is open; each
    move named one that `decide` accepts from that seat."""
    game = registry.get(game_id)
    named = 0
    for pos in positions(game_id):
        for seat in range(pos.seats):
            move = _unchanged(pos.state, lambda s, seat=seat: getattr(game, hook)(s, seat))
            if move is None:
                continue
            assert seat in game.to_act(pos.state), f"{hook} named a move for a seat not to act"
            _accepted(game, pos.state, seat, move)
            named += 1
    assert named, f"{hook} named no move in {len(positions(game_id))} positions"


@pytest.mark.parametrize("game_id", _with_hook("forced_move"))
def test_a_forced_move_is_the_only_move_and_shows_its_seat_nothing(game_id):
    game = registry.get(game_id)
    forced = 0
    for pos in positions(game_id):
        state = pos.state
        for seat in range(pos.seats):
            move = _unchanged(state, lambda s, seat=seat: game.forced_move(s, seat))
            if move is None:
                continue
            forced += 1
            assert seat in game.to_act(state)
            assert game.legal_moves(state, seat) == [move]
            after = replay(game, _accepted(game, state, seat, move), state)
            learnt = game.secrets(state, seat) - game.secrets(after, seat)
            assert not learnt, f"the forced {game.describe(move)!r} showed {sorted(learnt)}"
    assert forced, "no forced move came up: the check compared nothing"


@pytest.mark.parametrize("game_id", _with_hook("can_take_back"))
def test_a_move_that_may_be_taken_back_drew_nothing_and_showed_its_maker_nothing(game_id):
    game = registry.get(game_id)
    answers = set()
    for pos in positions(game_id):
        if game.outcome(pos.state) is not None:
            continue          # a finished game takes nothing back (service.play.moves.undo)
        events = list(pos.events)
        may = _unchanged(pos.before, lambda s, events=events: game.can_take_back(s, events))
        assert isinstance(may, bool)
        answers.add(may)
        if not may:
            continue
        for seed in (11, 12):
            again = game.decide(pos.before, pos.mover, pos.move, random.Random(seed))
            assert again == events, f"{game.describe(pos.move)!r} drew chance"
        learnt = game.secrets(pos.before, pos.mover) - game.secrets(pos.state, pos.mover)
        assert not learnt, f"{game.describe(pos.move)!r} showed its maker {sorted(learnt)}"
    assert True in answers, "no move could be taken back: the check compared nothing"


@pytest.mark.parametrize("game_id", _with_hook("freshness"))
def test_freshness_is_json_and_changes_with_the_seats_moves(game_id):
    game = registry.get(game_id)
    for pos in positions(game_id):
        for seat in [*range(pos.seats), None]:
            now = json.dumps(game.freshness(pos.state, seat), sort_keys=True)
            if seat is None:
                continue
            was = json.dumps(game.freshness(pos.before, seat), sort_keys=True)
            if game.legal_moves(pos.before, seat) != game.legal_moves(pos.state, seat):
                assert now != was, f"seat {seat}'s moves changed and its links stayed fresh"


@pytest.mark.parametrize("game_id", _with_hook("seats_for"))
def test_seats_for_is_what_validation_accepts(game_id):
    game = registry.get(game_id)
    for _entry, _label, engine, preset in registry.lobby():
        if engine is not game:
            continue
        variants = [preset] + [{**preset, n: True} for n, o in game.options.items()
                               if isinstance(o.default, bool) and n not in preset]
        for options in variants:
            allowed = set(game.seats_for(options))
            assert allowed <= set(game.seats)
            for seats in game.seats:
                try:
                    game.validate_options(seats, options)
                    valid = True
                except Exception:     # noqa: BLE001 - any refusal means "not for this count"
                    valid = False
                assert valid == (seats in allowed), (options, seats)


# ---------------------------------------------------------------- plans


def _others(pos, writer: int) -> list[int]:
    return [s for s in range(pos.seats) if s != writer]


@pytest.mark.parametrize("game_id", _with_hook("plan_world"))
def test_the_plan_world_keeps_what_the_writer_sees(game_id):
    """The same seats to act and the writer's own moves; a move another seat to act can make
    is never `never_possible`, and a reason is a clause."""
    game = registry.get(game_id)
    for pos in positions(game_id):
        state = pos.state
        if game.outcome(state) is not None:
            continue
        for writer in range(pos.seats):
            world = _unchanged(state, lambda s, w=writer: game.plan_world(s, w))
            assert game.to_act(world) == game.to_act(state)
            assert game.legal_moves(world, writer) == game.legal_moves(state, writer)
            for other in _others(pos, writer):
                if other not in game.to_act(state):
                    continue
                for move in game.legal_moves(state, other):
                    why = game.never_possible(state, writer, move)
                    assert why is None, f"{game.describe(move)!r} is legal, yet: {why}"
                for move in game.legal_moves(world, other)[:20]:
                    why = game.never_possible(state, writer, move)
                    said = english(why["template"], why["args"]) if isinstance(why, dict) \
                        else why
                    assert why is None or (isinstance(said, str) and said.strip()), why


@pytest.mark.parametrize("game_id", _with_hook("plan_hints"))
def test_each_plan_hint_is_a_plan_the_service_keeps(game_id):
    game = registry.get(game_id)
    offered = 0
    for pos in positions(game_id):
        if pos.seats != 2:
            continue
        for seat in range(2):
            for line in standingplans.hints(game, pos.state, seat, NAMES[:2]):
                offered += 1
                rest = line.removeprefix("if ")
                kept = standingplans.judge(game, pos.state, seat, NAMES[:2], "if", rest)
                assert kept.shown == line, (kept.shown, line)
    assert offered, "no plan hint came up: the check compared nothing"


@pytest.mark.parametrize("game_id", _with_hook("plan_out_of_turn"))
def test_a_move_out_of_turn_makes_only_unseen_choices(game_id):
    game = registry.get(game_id)
    unseen = frozenset(game.plan_out_of_turn)
    assert unseen and all(isinstance(t, str) for t in unseen)
    made = 0
    for pos in positions(game_id):
        if pos.mover in game.to_act(pos.before):
            continue
        made += 1
        for event in pos.events:
            assert event.type in unseen, f"{event.type} made out of turn"
            for reader in [*_others(pos, pos.mover), None]:
                assert game.redact(event, reader) is None, (event.type, reader)
    assert made, "no move out of turn came up: the check compared nothing"


@pytest.mark.parametrize("game_id", [g for g in GAMES if planplay.takes_plans(registry.get(g))])
def test_an_engine_that_takes_plans_names_every_choice_out_of_turn(game_id):
    """planplay counts any event of the named seat after a plan was written as its move,
    except those `plan_out_of_turn` names: an engine with plans and moves out of turn must
    name them, or a hidden choice would drop a plan (and tell its writer it was made)."""
    game = registry.get(game_id)
    unseen = frozenset(getattr(game, "plan_out_of_turn", ()))
    for pos in positions(game_id):
        for seat in range(pos.seats):
            if seat in game.to_act(pos.state):
                continue
            for move in game.legal_moves(pos.state, seat):
                events = _accepted(game, pos.state, seat, move)
                assert {e.type for e in events} <= unseen, game.describe(move)


@pytest.mark.parametrize("game_id", _with_hook("sealed_choices"))
def test_sealed_choices_refuse_every_plan_with_their_reason(game_id):
    game = registry.get(game_id)
    why = game.sealed_choices
    assert isinstance(why, str) and why.strip()
    assert not planplay.takes_plans(game)
    pos = positions(game_id)[0]
    names = NAMES[:pos.seats]
    for kind, rest in (("next", game.describe(game.legal_moves(
            pos.state, sorted(game.to_act(pos.state))[0])[0])), ("if", "they pass then pass")):
        with pytest.raises(PlayError) as refused:
            standingplans.judge(game, pos.state, 0, names, kind, rest)
        assert why in refused.value.detail


@pytest.mark.parametrize("game_id", _with_hook("view_said"))
def test_the_views_own_sentences_say_what_the_view_says(game_id):
    """`view_said`: each template's English is the view's string under the same key, so
    the display shows an English reader what the view says, and the others its translation."""
    game = registry.get(game_id)
    for p in positions(game_id):
        for seat in [*range(p.seats), None]:
            view = game.view(p.state, seat)
            said = _unchanged(p.state, lambda state, seat=seat: game.view_said(state, seat))
            assert said, f"{game_id}: nothing said"
            for key, sentence in said.items():
                assert sentence["text"] == view[key] and sentence["say"], (key, sentence)
