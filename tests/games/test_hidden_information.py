"""Hidden-information invariance (issue 48, item 5): worlds that agree with one seat's view
tell that seat the same things.

For positions of seeded random play (tests/games/positions.py) and one seat of each, the
cards that seat cannot see are dealt again (tests/games/worlds.py) and the seat is asked,
in the real position and in each world alike, everything the service would tell it: its view
and the mark its links carry, whose turn it is, its legal moves and menu, the moves made in its
name (the clock's, a turn's end, a forced move) and the bots' moves for it, the answer to its
own move lines (read, refused and why), what `try` answers (issue 50), the answer to plan lines through the service's own
check (service.play.moves.standingplans: kept, or refused and why), the plan world and
`never_possible` it is judged against, the plan hints, and its turn email rendered from its
view through the templates as the relay renders it. Any difference is a leak: the answer
would tell the seat where a card it cannot see lies.

The last tests prove that the comparison can fail: an engine made to peek (its view naming
the unseen cards in order; Suzerain's plan world built from the real deck, as it was before
issue 48) is caught.
"""
from __future__ import annotations

import base64
import dataclasses
import itertools
import json
import random
import re
from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any

import pytest

from service.display.seatview import seat_page
from service.games import registry
from service.games.contract import CommandError, IllegalMove, replay
from service.games.suzerain.plans import possible_hand
from service.linking.freshness import mark
from service.linking.signer import Signer
from service.linking.urls import Urls
from service.mailwire.outbound.compose import Envelope, compose_turn
from service.mailwire.outbound.templating import make_env
from service.play.errors import PlayError
from service.play.moves import planplay, standingplans, trying
from tests.games.positions import GAMES, Position, positions
from tests.games.worlds import DEALS, deal_again

#: worlds dealt again per position
WORLDS = 3
#: at most this many plan lines (condition x answer) and own move lines asked per position
PLAN_LINES = 12
MOVE_LINES = 10
#: own lines tried one by one with `try` per position
TRY_LINES = 4
CONDITIONS = 6
#: the turn email is rendered (in the real position and every world) for every EMAIL_EVERY-th
#: position: it is made of what the rest compares, and rendering is the slowest question
EMAIL_EVERY = 4
NAMES = ["Anna", "Ben", "Cleo", "Dan", "Eve"]
URLS = Urls(Signer("invariance-secret"), "https://turnpost.test", "turnpost.test")
ENV = make_env()
WHEN = datetime(2026, 12, 6, 9, 0, tzinfo=timezone.utc)


def _seat(pos: Position) -> int:
    return pos.index % pos.seats


def worlds(pos: Position, seat: int | None, game=None) -> list:
    game = game or pos.game
    return [deal_again(game, DEALS[pos.game.id], pos.state, seat, random.Random(pos.index * 7 + k))
            for k in range(WORLDS)]


# ---------------------------------------------------------------- what a seat is asked


@dataclasses.dataclass(frozen=True)
class Questions:
    """What one seat is asked in every world: fixed before any world is asked, from the real
    position and the worlds alike, so each is asked the same things."""

    own: tuple[str, ...]                 # move lines of its own
    plan_lines: tuple[tuple[str, str], ...]   # (kind, rest) as `plans.judge` reads them
    others_moves: tuple[dict, ...]       # the conditions' moves, for never_possible


def _texts(game, state, seat) -> list[str]:
    return [game.describe(m) for m in game.legal_moves(state, seat)] \
        if game.outcome(state) is None else []


def _after(game, state, seat, move):
    try:
        return replay(game, game.decide(state, seat, move, random.Random(0)), state)
    except IllegalMove:
        return None


def questions(game, pos: Position, seat: int, states: list) -> Questions:
    """Own lines: the seat's moves in any of the states and a few texts said in its game.
    Plan lines: a sample of the other seats' moves in any of the states as conditions, each
    answered by its own words ("if they take blind then take blind", issue 48), then by a
    sample of the seat's moves after it and of its own lines; `next:` lines of those."""
    rng = random.Random(pos.index)
    mine = {t for s in states for t in _texts(game, s, seat)}
    heard = sorted(set(pos.said) - mine)
    own = sorted(mine | set(rng.sample(heard, min(3, len(heard)))))
    found: dict[tuple[int, str], list] = {}
    for state in states:
        for other in (s for s in range(pos.seats) if s != seat):
            for move in game.legal_moves(state, other) if game.outcome(state) is None else []:
                found.setdefault((other, game.describe(move)), []).append((state, move))
    picked = sorted(rng.sample(sorted(found), min(CONDITIONS, len(found))))
    answers = set(own)
    if planplay.takes_plans(game):
        for key in picked:
            for state, move in found[key]:
                after = _after(game, state, key[0], move)
                if after is not None and game.outcome(after) is None:
                    answers |= set(_texts(game, after, seat))
    mirrored = [(c, c[1]) for c in picked]
    rest = [p for p in itertools.product(picked, sorted(answers)) if p[0][1] != p[1]]
    pairs = (mirrored + rng.sample(rest, min(max(0, PLAN_LINES - len(mirrored)),
                                             len(rest))))[:PLAN_LINES]
    lines = [("if", f"{'they' if pos.seats == 2 else NAMES[o]} {cond} then {answer}")
             for (o, cond), answer in pairs]
    lines += [("next", answer) for answer in rng.sample(sorted(answers), min(4, len(answers)))]
    return Questions(tuple(rng.sample(own, min(MOVE_LINES, len(own)))), tuple(lines),
                     tuple(found[key][0][1] for key in picked))


def _answer_to_line(game, state, seat, text) -> Any:
    """What the seat is told of one line of its own: the moves it reads as and whether the
    first is accepted, or why not."""
    try:
        moves = game.parse(state, seat, text)
    except CommandError as exc:
        return ("not read", exc.why, tuple(exc.suggestions))
    try:
        game.decide(state, seat, moves[0], random.Random(0))
    except IllegalMove as exc:
        return ("refused", moves, exc.why)
    return ("accepted", moves)


def _try_answer(game, state, seat, lines) -> Any:
    """What `try` answers (service.play.moves.trying): the view, text and moves, or why not."""
    try:
        answer = trying.tried(game, state, seat, lines)
    except PlayError as exc:
        return "refused: " + exc.detail
    return answer.view, answer.text, answer.legal


def _plan_answer(game, state, seat, seats, kind, rest) -> str:
    try:
        return "kept: " + standingplans.judge(game, state, seat, NAMES[:seats], kind, rest).shown
    except PlayError as exc:
        return "refused: " + exc.detail


def _made_for(game, state, seat) -> Iterator[tuple[str, Any]]:
    for hook in ("timeout_move", "finish_turn", "forced_move"):
        if hasattr(game, hook):
            yield hook, getattr(game, hook)(state, seat)
    if seat in game.to_act(state):
        for name, bot in game.bots.items():
            yield f"bot {name}", bot(state, seat, random.Random(5))


def email(game, state, seat: int, seats: int) -> tuple:
    """The seat's turn email as the relay composes it (service.play.mail.relay.prepare): its
    page from its view, its plan hints, the templates; what a reader gets of it."""
    names = NAMES[:seats]
    page = seat_page(game, 1, game.id, state, 1, seat, names, [])
    links = URLS.for_seat(1, seat, page.mark)
    msg = compose_turn(ENV, page, links, Envelope("tp.invariance", "p@example.org", "Turnpost",
                                                  WHEN),
                       extra={"kind": "turn", "bounced": [], "forced": [],
                              "plan_hints": standingplans.hints(game, state, seat, names)})
    parts = tuple((part.get_content_type(), _signed(part.get_content()))
                  for part in msg.walk() if not part.is_multipart())
    return (msg["Subject"], *parts)


_TOKEN = re.compile(r"\b([A-Za-z0-9_-]{8,})\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}\b")


def _signed(content):
    """Content with each signed link token read as what it carries (game, seat, mark, move),
    not its signature, time or nonce, which differ between any two emails."""
    if not isinstance(content, str):
        return content

    def claims(found: re.Match) -> str:
        raw = found[1] + "=" * (-len(found[1]) % 4)
        data = json.loads(base64.urlsafe_b64decode(raw))
        data.pop("n", None)
        return json.dumps(data, sort_keys=True)
    return _TOKEN.sub(claims, content)


def told(game, state, seat: int, seats: int, asked: Questions, with_email: bool) -> dict:
    """Everything `seat` is told in `state`, by what it is."""
    out: dict[str, Any] = {
        "view": game.view(state, seat),
        "mark": mark(game, state, seat),
        "to act": sorted(game.to_act(state)),
        "outcome": game.outcome(state),
        "legal moves": game.legal_moves(state, seat),
        "menu": game.menu(state, seat),
        **dict(_made_for(game, state, seat)),
    }
    for text in asked.own:
        out[f"own line {text!r}"] = _answer_to_line(game, state, seat, text)
    for text in asked.own[:TRY_LINES]:
        out[f"try {text!r}"] = _try_answer(game, state, seat, [text])
    if len(asked.own) > 1:
        out["try two lines"] = _try_answer(game, state, seat, list(asked.own[:2]))
    for kind, rest in asked.plan_lines:
        out[f"plan {kind} {rest!r}"] = _plan_answer(game, state, seat, seats, kind, rest)
    if hasattr(game, "plan_world") and game.outcome(state) is None:
        out["plan world"] = game.plan_world(state, seat)
        for move in asked.others_moves:
            out[f"never possible {game.describe(move)!r}"] = \
                game.never_possible(state, seat, move)
    out["plan hints"] = standingplans.hints(game, state, seat, NAMES[:seats])
    if with_email:
        out["email"] = email(game, state, seat, seats)
    return out


def differences(pos: Position, game=None, with_email: bool = True) -> list[str]:
    """What the position's seat is told differently in a world than in the real position."""
    game = game or pos.game
    seat = _seat(pos)
    dealt = worlds(pos, seat, game)
    asked = questions(game, pos, seat, [pos.state, *dealt])
    real = told(game, pos.state, seat, pos.seats, asked, with_email)
    found = []
    for k, world in enumerate(dealt):
        other = told(game, world, seat, pos.seats, asked, with_email)
        found += [f"position {pos.index}, seat {seat}, world {k}: {what}"
                  for what in real if real[what] != other[what]]
    return found


# ---------------------------------------------------------------- the suite


def test_every_registered_engine_can_be_dealt_again():
    """A fifth game joins the suite by its `Deal` in tests/games/worlds.py."""
    assert set(GAMES) <= set(DEALS), sorted(set(GAMES) - set(DEALS))


@pytest.mark.parametrize("game_id", GAMES)
def test_a_world_dealt_again_agrees_with_everything_the_seat_sees(game_id):
    """The worlds themselves: the same cards unseen, every card the seat sees where it was,
    every place as full as it was; and most worlds differ from the real position, so the
    suite below compares something."""
    game = registry.get(game_id)
    changed = total = 0
    for pos in positions(game_id):
        for seat in [_seat(pos), None]:
            secret = game.secrets(pos.state, seat)
            zones = game.zones(pos.state)
            for world in worlds(pos, seat):
                total += 1
                changed += world != pos.state
                assert game.secrets(world, seat) == secret
                dealt = game.zones(world)
                assert dealt.keys() == zones.keys()
                for name, cards in zones.items():
                    assert len(dealt[name]) == len(cards), name
                    # (in order, but for a pile whose order is secret: Trees' roots, T6)
                    assert sorted(c for c in dealt[name] if c not in secret) == \
                        sorted(c for c in cards if c not in secret), name
    assert changed > total / 2, f"only {changed} of {total} worlds differ from the real one"


@pytest.mark.parametrize("game_id", GAMES)
def test_worlds_a_seat_cannot_tell_apart_tell_it_the_same(game_id):
    found = []
    for pos in positions(game_id):
        found += differences(pos, with_email=pos.index % EMAIL_EVERY == 0)
    assert not found, "\n".join(found[:12])


@pytest.mark.parametrize("game_id", GAMES)
def test_a_spectator_is_shown_the_same_in_every_world_it_cannot_tell_apart(game_id):
    game = registry.get(game_id)
    for pos in positions(game_id):
        real = (game.view(pos.state, None), mark(game, pos.state, None))
        for world in worlds(pos, None):
            assert (game.view(world, None), mark(game, world, None)) == real


# ---------------------------------------------------------------- the suite can fail


class Peeking:
    """An engine as it is, but for the methods given."""

    def __init__(self, game, **methods):
        self._game = game
        self.__dict__.update(methods)

    def __getattr__(self, name):
        return getattr(self._game, name)


def _peeking_view(game):
    def view(state, seat):
        secret = game.secrets(state, seat)
        unseen = [c for _, cards in sorted(game.zones(state).items()) for c in cards
                  if c in secret]
        return {**game.view(state, seat), "peek": unseen}
    return view


@pytest.mark.parametrize("game_id", GAMES)
def test_a_view_naming_the_unseen_cards_is_caught(game_id):
    game = registry.get(game_id)
    peeking = Peeking(game, view=_peeking_view(game))
    caught = [pos for pos in positions(game_id)[:8]
              if any("view" in d or "mark" in d
                     for d in differences(pos, peeking, with_email=False))]
    assert len(caught) >= 6, f"caught in {len(caught)} of 8 positions"


def _real_deck_plan_world(state, writer):
    """Suzerain's plan world before issue 48: the opponent's hand made of its possible cards,
    everything else, the deck with its hidden order included, as it really is."""
    hands = list(state.hands)
    hands[1 - writer] = possible_hand(state, writer)
    return dataclasses.replace(state, hands=tuple(hands))


def test_suzerains_plan_world_from_the_real_deck_is_caught():
    """The defect of issue 48 put back: the plan answers of the loser (and the plan world)
    differ between worlds whose decks differ."""
    game = registry.get("suzerain")
    peeking = Peeking(game, plan_world=_real_deck_plan_world)
    found = [d for pos in positions("suzerain")
             for d in differences(pos, peeking, with_email=False)]
    assert any("plan world" in d for d in found)
    assert any("plan if 'they take blind then take blind'" in d for d in found), found[:5]
