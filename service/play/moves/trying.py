"""`try` (issue 50): the seat's view after moves of its own, tried and never made.

A try must tell the seat nothing it does not know, so it is played out in the position as the
seat may know it (the engine's `plan_world`, the hook plans are judged by: what the seat
cannot see made of stand-ins, the same in every position the seat cannot tell from this one),
with a fixed chance. Its answer is then a function of the seat's knowledge alone
(tests/games/test_hidden_information.py asks it in worlds dealt again):

* a card the tried moves would show the seat (a draw, a blind claim, a card turned up) is
  shown as unknown ("?"), and the lines after such a move are not tried: what could follow
  depends on that card;
* what the stand-ins change without the tried moves touching it (another seat's hand size)
  is shown as it really is;
* a move that would end the game is not played out: the final scores count cards the seat
  cannot see.

Nothing is written: no event, no clock, no email (tests/web/test_try.py)."""
from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from service.games.contract import CommandError, IllegalMove, replay
from service.mailwire.outbound.catalogs import N_, _, spoken
from service.play.errors import GameOver, Refused, reason

#: lines one try may hold
MAX_LINES = 20
#: a card the seat would learn only by making the moves
UNKNOWN = "?"
#: what a view says beside an unknown card's id (its name, its suits), unknown too
UNKNOWN_WORDS = {"name": "an unknown card", "suits": UNKNOWN, "rank": UNKNOWN}
#: the chance a try is played with: the same answer every time
SEED = 50


class TryRefused(Refused):
    title = N_("That cannot be tried")


@dataclass(frozen=True)
class Tried:
    view: dict                    # the seat's view after the moves tried
    moves: list[str] = field(default_factory=list)      # the moves tried, as the game says them
    legal: list[str] = field(default_factory=list)      # the seat's moves then, if any
    stopped: str = ""             # why the try stopped before its last line ("" when it did not)

    @property
    def text(self) -> str:
        """The answer, in the language of the moment (the writer's, the page's, the API
        client's); the moves as the game says them."""
        lines = [_("Tried (nothing was played, nobody was told):")]
        lines += [f"* {m}" for m in self.moves]
        if self.stopped:
            lines.append(self.stopped)
        scores = _scores(self.view)
        if scores:
            lines.append(_("Scores then: %(scores)s", scores=scores))
        hand = self.view.get("hand")
        if isinstance(hand, list):
            cards = ", ".join(_("an unknown card") if c == UNKNOWN else str(c) for c in hand)
            lines.append(_("Your hand then: %(cards)s", cards=cards or _("empty")))
        if self.legal:
            lines.append(_("Your moves then:"))
            lines += [f"  {m}" for m in self.legal]
        elif self.view.get("seat") not in (self.view.get("to_act") or []):
            lines.append(_("Then it would not be your move."))
        return "\n".join(lines)


def tried(engine, state, seat: int, lines: Iterable[str]) -> Tried:
    """Play `lines` (the seat's own move lines, in order) in the position as `seat` may know
    it and answer with its view then; TryRefused with the reason when a line cannot be read
    or played. Pure: changes nothing it is given."""
    lines = [ln.strip() for ln in lines if ln.strip()]
    _triable(engine, state, lines)
    real_before = engine.view(state, seat)
    world = engine.plan_world(state, seat)
    world_before = engine.view(world, seat)
    known = _strings(real_before)
    cards = {c for zone in engine.zones(state).values() for c in zone}
    chance = random.Random(SEED)
    done: list[str] = []
    stopped = ""
    for n, line in enumerate(lines):
        try:
            moves = engine.parse(world, seat, line)
        except CommandError as exc:
            raise TryRefused(_numbered(n, line, exc)) from None
        after = world
        try:
            for move in moves:
                after = replay(engine, engine.decide(after, seat, move, chance), after)
        except IllegalMove as exc:
            raise TryRefused(_numbered(n, line, exc)) from None
        if engine.outcome(after) is not None:
            stopped = _("\"%(line)s\" would end the game; the final scores count cards you "
                        "cannot see, so the try stops before it.", line=line)
            break
        world = after
        done += [engine.describe(m) for m in moves]
        if _strings(engine.view(world, seat)) & cards - known:
            if n + 1 < len(lines):
                stopped = _("That would show you a card you cannot know yet (shown as "
                            "unknown), so the lines after it were not tried.")
            break
    view = _masked(_as_really(engine.view(world, seat), world_before, real_before),
                   cards - known)
    unknown = cards - known
    legal = [] if stopped or engine.outcome(world) is not None else [
        engine.describe(m) for m in engine.legal_moves(world, seat)
        if not _strings(m) & unknown]
    return Tried(view, done, legal, stopped)


def _triable(engine, state, lines: list[str]) -> None:
    """TryRefused (GameOver) when these lines cannot be tried here at all."""
    if not lines:
        raise TryRefused(_("Write the moves to try after the word, e.g. try play the Mill "
                           "under the Sea."))
    if len(lines) > MAX_LINES:
        raise TryRefused(_("That is %(n)s lines to try; at most %(most)s at once.",
                           n=len(lines), most=MAX_LINES))
    if engine.outcome(state) is not None:
        raise GameOver(_("This game has finished; there is nothing left to try."))
    sealed = getattr(engine, "sealed_choices", None)
    if sealed:
        raise TryRefused(_("try is not available in %(game)s: %(why)s.", game=engine.title,
                           why=spoken(sealed, {})))
    if getattr(engine, "plan_world", None) is None:
        raise TryRefused(_("try is not available in %(game)s yet.", game=engine.title))


def _numbered(n: int, line: str, refusal) -> str:
    return _("Line %(n)s, \"%(line)s\", cannot be played then: %(why)s", n=n + 1, line=line,
             why=reason(refusal))


def _strings(obj: Any) -> set[str]:
    """Every string in a JSON-like value, keys included."""
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(_strings(k) | _strings(v) for k, v in obj.items())) \
            if obj else set()
    if isinstance(obj, (list, tuple, set, frozenset)):
        return set().union(*(_strings(x) for x in obj)) if obj else set()
    return set()


def _as_really(after: Any, world_before: Any, real_before: Any) -> Any:
    """The view after the try, with what the stand-ins alone made different (and the moves
    left as it was) shown as it really is: another seat's hand size, say."""
    if after == world_before:
        return real_before
    if isinstance(after, dict) and isinstance(world_before, dict) and \
            isinstance(real_before, dict):
        return {k: _as_really(v, world_before[k], real_before[k])
                if k in world_before and k in real_before else v for k, v in after.items()}
    if isinstance(after, list) and isinstance(world_before, list) and \
            isinstance(real_before, list) and len(after) == len(world_before) == \
            len(real_before) and not all(isinstance(x, str) for x in after):
        return [_as_really(a, w, r) for a, w, r in zip(after, world_before, real_before,
                                                       strict=True)]
    return after


def _masked(obj: Any, unknown: set[str]) -> Any:
    """`obj` with every card of `unknown` shown as "?"."""
    if isinstance(obj, str):
        return UNKNOWN if obj in unknown else obj
    if isinstance(obj, dict):
        out = {(UNKNOWN if k in unknown else k): _masked(v, unknown) for k, v in obj.items()}
        if obj.get("card") in unknown:      # a card's own words name it too
            out.update({k: UNKNOWN_WORDS[k] for k in UNKNOWN_WORDS if k in out})
        return out
    if isinstance(obj, (list, tuple)):
        return [_masked(x, unknown) for x in obj]
    return obj


def _scores(view: dict) -> str:
    """The scores as the view holds them, where it does (Trees' players' `score`)."""
    players = view.get("players")
    if isinstance(players, list) and players and all(
            isinstance(p, dict) and "score" in p for p in players):
        return ", ".join(_("seat %(n)s: %(score)s", n=p.get("seat", n) + 1, score=p["score"])
                         for n, p in enumerate(players))
    scores = view.get("scores")
    if isinstance(scores, list):
        return ", ".join(_("seat %(n)s: %(score)s", n=n + 1, score=s)
                         for n, s in enumerate(scores))
    return ""
