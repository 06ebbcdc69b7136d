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
        seen = {str(s): [game.redact(e, s) for e in events] for s in [*range(seats), None]}
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
    """Compare a fresh recording with the stored file (or write it when regenerating)."""
    text = record(game, seats, options, seed, bot)
    if os.environ.get("TURNPOST_REGEN_GOLDEN") or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        if not os.environ.get("TURNPOST_REGEN_GOLDEN"):
            raise AssertionError(f"{path} did not exist; written now, check it and commit it")
        return
    stored = path.read_text().splitlines()
    fresh = text.splitlines()
    for n, (a, b) in enumerate(zip(stored, fresh)):
        assert a == b, f"{path.name}: playthrough differs from line {n + 1}"
    assert len(stored) == len(fresh), f"{path.name}: {len(stored)} lines stored, {len(fresh)} now"
