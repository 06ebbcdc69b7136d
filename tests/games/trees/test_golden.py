"""Golden playthroughs (tests/games/golden.py): a seeded 2-player game between random bots and
a 4-player game played by the greedy bot. Regenerate after an intended rules change with
TURNPOST_REGEN_GOLDEN=1."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.games.trees import GAME
from tests.games.golden import check

HERE = Path(__file__).parent / "golden"


def test_two_players_random():
    check(HERE / "two_players_random.jsonl", GAME, 2, {}, seed=2, bot="random")


def test_four_players_greedy():
    check(HERE / "four_players_greedy.jsonl", GAME, 4, {"bonus": 2}, seed=4, bot="greedy")


# --------------------------------------------------------------------- readable failures


def _planted(tmp_path, edit):
    """The stored 2-player golden file with `edit(lines)` applied, compared the usual way;
    returns the failure message."""
    lines = (HERE / "two_players_random.jsonl").read_text().splitlines()
    edit(lines)
    path = tmp_path / "two_players_random.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(AssertionError) as err:
        check(path, GAME, 2, {}, seed=2, bot="random")
    return str(err.value)


def _change_step(lines, step, change):
    entry = json.loads(lines[step + 1])
    assert entry["step"] == step
    change(entry)
    lines[step + 1] = json.dumps(entry, sort_keys=True)


def test_a_changed_step_is_reported_briefly_at_the_first_difference(tmp_path):
    """A golden file is megabytes; the failure names the first differing step and what
    differs there (move, legal moves, history event, view keys), in a few dozen lines."""
    def edit(lines):
        def at_7(e):
            e["move"] = "harvest the Moons tree"
            e["legal"] = e["legal"][1:]
            e["views"]["0"]["draw_pile"] += 1
            e["views"]["None"]["discard"].append("NM")
            e["history"]["1"][-1]["text"] = "Something else happened."

        def at_9(e):
            e["move"] = "unroot the Suns tree"   # a later difference: not reported
        _change_step(lines, 7, at_7)
        _change_step(lines, 9, at_9)

    msg = _planted(tmp_path, edit)
    assert len(msg) < 3000, msg
    assert len(msg.splitlines()) <= 45
    assert "first difference at step 7" in msg
    assert "move: stored " in msg and "harvest the Moons tree" in msg
    assert "legal moves new now (1)" in msg
    assert "view of seat 0: keys differing: draw_pile" in msg
    assert "view of seat None: keys differing: discard" in msg
    assert "history seen by seat 1" in msg and "Something else happened." in msg
    assert "unroot the Suns tree" not in msg
    assert "TURNPOST_REGEN_GOLDEN=1" in msg


def test_a_huge_difference_is_still_short(tmp_path):
    """Every view of every seat different from step 3 on: still one short report."""
    def edit(lines):
        for n in range(3, len(lines) - 1):
            _change_step(lines, n, lambda e: e["views"].update(
                {s: {k: ["x" * 500] for k in v} for s, v in e["views"].items()}))

    msg = _planted(tmp_path, edit)
    assert len(msg) < 3000, msg
    assert "first difference at step 3" in msg and "TURNPOST_REGEN_GOLDEN=1" in msg


def test_a_shorter_recording_is_reported(tmp_path):
    msg = _planted(tmp_path, lambda lines: lines.append(lines[-1]))
    assert len(msg) < 3000
    assert "only the one stored goes on" in msg
