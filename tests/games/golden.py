"""Golden playthroughs, in the manner of OpenSpiel's: a seeded game played by a bot, recording
for every position who is to act, every seat's view, the legal moves as canonical text, the
move taken and what each seat saw of its events. A rules change shows up as a diff here.

Regenerate after an intended change:  TURNPOST_REGEN_GOLDEN=1 make test
"""
from __future__ import annotations

import json
import os
import random
from pathlib import Path

from service.games.contract import replay

MAX_MOVES_LISTED = 60  # huge menus (Magnate payments) are counted, and the first ones listed


def _recorded(seen: dict | None) -> dict | None:
    # a sentence's template and parameters (service.games.text.said) are for translating it:
    # the golden holds the English `text` they make, so an engine's move to templates keeps
    # its games as they were
    if seen is None or "say" not in seen:
        return seen
    return {k: v for k, v in seen.items() if k != "say"}


def record(game, seats: int, options: dict, seed: int, bot: str = "random") -> str:
    rng = random.Random(seed)
    options = game.validate_options(seats, options)
    events = game.start(seats, options, rng)
    state = replay(game, events)
    lines = [json.dumps({"game": game.id, "seats": seats, "options": options, "seed": seed,
                         "bot": bot}, sort_keys=True)]
    play = game.bots[bot]
    step = 0
    while True:
        seen = {str(s): [_recorded(game.redact(e, s)) for e in events]
                for s in [*range(seats), None]}
        entry = {"step": step, "history": seen,
                 "views": {str(s): game.view(state, s) for s in [*range(seats), None]}}
        if game.outcome(state) is not None:
            entry["outcome"] = game.outcome(state).to_json()
            lines.append(json.dumps(entry, sort_keys=True))
            break
        to_act = sorted(game.to_act(state))
        seat = rng.choice(to_act)
        legal = [game.describe(m) for m in game.legal_moves(state, seat)]
        move = play(state, seat, rng)
        entry.update({"to_act": to_act, "seat": seat, "legal_count": len(legal),
                      "legal": legal[:MAX_MOVES_LISTED], "move": game.describe(move)})
        lines.append(json.dumps(entry, sort_keys=True))
        events = game.decide(state, seat, move, rng)
        state = replay(game, events, state)
        step += 1
    return "\n".join(lines) + "\n"


def check(path: Path, game, seats: int, options: dict, seed: int, bot: str = "random"):
    """Compare a fresh recording with the stored file (or write it when regenerating).

    A difference fails with a short account of the first differing step only (`first_difference`):
    a golden file holds megabytes of views, and the first divergence is the one that explains the
    rest."""
    text = record(game, seats, options, seed, bot)
    if os.environ.get("TURNPOST_REGEN_GOLDEN") or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        if not os.environ.get("TURNPOST_REGEN_GOLDEN"):
            raise AssertionError(f"{path} did not exist; written now, check it and commit it")
        return
    report = first_difference(path.name, path.read_text().splitlines(), text.splitlines())
    if report is not None:
        # raised, not asserted: pytest would otherwise print both whole files as the diff
        raise AssertionError(report)


# ------------------------------------------------------------------ readable failures

MAX_LINES = 40       # lines of the report (each is one fact), before the regeneration hint
MAX_CHARS = 2400     # characters of the report, before the hint: it must fit on a screen
MAX_WIDTH = 110      # characters of one JSON value shown
MAX_LISTED = 6       # differing keys or moves listed per kind
REGEN_HINT = ("If the change is intended, regenerate and review the diff: "
              "TURNPOST_REGEN_GOLDEN=1 pytest {test}")


def first_difference(name: str, stored: list[str], fresh: list[str]) -> str | None:
    """A short report of the first step where a fresh recording departs from the stored one,
    or None when they are the same. Line 1 of a golden file is its header; line n+2 is step n."""
    for n, (old, new) in enumerate(zip(stored, fresh, strict=False)):
        if old != new:
            return _report(name, n, old, new)
    if len(stored) == len(fresh):
        return None
    longer, which = (stored, "stored") if len(stored) > len(fresh) else (fresh, "recorded now")
    n = min(len(stored), len(fresh))
    lines = [f"{name}: the playthroughs agree for {n - 1} steps, then only the one {which} "
             f"goes on ({len(stored) - 1} steps stored, {len(fresh) - 1} now).",
             f"  its next line: {_short(longer[n])}"]
    return _finish(name, lines)


def _report(name: str, n: int, old: str, new: str) -> str:
    try:
        a, b = json.loads(old), json.loads(new)
    except ValueError:
        return _finish(name, [f"{name}: line {n + 1} differs (not JSON)",
                              f"  stored: {_short(old)}", f"  now:    {_short(new)}"])
    if n == 0:
        lines = [f"{name}: the header differs (game, seats, options, seed or bot)"]
        lines += _keys_diff("header", a, b)
        return _finish(name, lines)
    step = a.get("step", n - 1)
    lines = [f"{name}: first difference at step {step} (line {n + 1}); later steps not compared"]
    for key in ("to_act", "seat", "move", "legal_count", "outcome"):
        if a.get(key) != b.get(key):
            lines.append(f"  {key}: stored {_short(a.get(key))}  now {_short(b.get(key))}")
    lines += _legal_diff(a.get("legal") or [], b.get("legal") or [])
    lines += _history_diff(a.get("history") or {}, b.get("history") or {})
    old_views, new_views = a.get("views") or {}, b.get("views") or {}
    shown = False   # values for the first differing view only; the others name their keys
    for seat in sorted(set(old_views) | set(new_views)):
        diff = _keys_diff(f"view of seat {seat}", old_views.get(seat), new_views.get(seat),
                          values=not shown)
        shown = shown or bool(diff)
        lines += diff
    return _finish(name, lines)


def _legal_diff(old: list, new: list) -> list[str]:
    if old == new:
        return []
    gone = [m for m in old if m not in new]
    added = [m for m in new if m not in old]
    if not gone and not added:
        return ["  legal moves: the same moves in another order"]
    out = []
    if gone:
        out.append(f"  legal moves no longer offered ({len(gone)}): {_short(gone[:MAX_LISTED])}")
    if added:
        out.append(f"  legal moves new now ({len(added)}): {_short(added[:MAX_LISTED])}")
    return out


def _history_diff(old: dict, new: dict) -> list[str]:
    """The first differing event for the first seat whose history differs (the others mostly
    differ the same way)."""
    for seat in sorted(set(old) | set(new)):
        a, b = old.get(seat) or [], new.get(seat) or []
        if a == b:
            continue
        i = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                 min(len(a), len(b)))
        out = [f"  history seen by seat {seat}: event {i} of this step differs "
               f"({len(a)} events stored, {len(b)} now)"]
        out.append(f"    stored: {_short(a[i]) if i < len(a) else '(none)'}")
        out.append(f"    now:    {_short(b[i]) if i < len(b) else '(none)'}")
        return out
    return []


def _keys_diff(what: str, old, new, values: bool = True) -> list[str]:
    """The top-level keys of two mappings that differ, each with both values, shortened."""
    if old == new:
        return []
    if not isinstance(old, dict) or not isinstance(new, dict):
        return [f"  {what}: stored {_short(old)}  now {_short(new)}"]
    keys = sorted(k for k in set(old) | set(new) if old.get(k, _MISSING) != new.get(k, _MISSING))
    out = [f"  {what}: keys differing: {', '.join(keys[:MAX_LISTED * 2])}"]
    for key in keys[:MAX_LISTED] if values else ():
        out.append(f"    {key}: stored {_short(old.get(key, _MISSING))}")
        out.append(f"    {' ' * len(key)}  now    {_short(new.get(key, _MISSING))}")
    return out


class _Missing:
    def __repr__(self) -> str:
        return "(absent)"


_MISSING = _Missing()


def _short(value) -> str:
    text = value if isinstance(value, str) else (
        repr(value) if isinstance(value, _Missing) else json.dumps(value, sort_keys=True))
    return text if len(text) <= MAX_WIDTH else text[:MAX_WIDTH - 15] + f"... ({len(text)} chars)"


def _finish(name: str, lines: list[str]) -> str:
    kept, size = [], 0
    for line in lines[:MAX_LINES]:
        if size + len(line) > MAX_CHARS:
            break
        kept.append(line)
        size += len(line) + 1
    if len(kept) < len(lines):
        lines = [*kept, f"  ... {len(lines) - len(kept)} more lines left out"]
    test = os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0] or f"(the test of {name})"
    return "\n".join([*lines, REGEN_HINT.format(test=test)])
