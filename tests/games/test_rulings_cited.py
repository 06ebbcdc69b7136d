"""Every numbered ruling in docs/rules/rulings.md (M1.., S1.., T1.., A1..) has a test that cites
it, so a ruling cannot be added, or a test deleted, without anyone noticing that the rule it
settles is no longer checked.

A test cites a ruling by writing ``RULINGS <id>`` in a comment or docstring: ``# RULINGS T5``,
or a list, ``# RULINGS T5, T6`` (``and`` and ``/`` also separate). ``rulings.md T1-T8`` in prose
is not a citation: a range says nothing about which test checks which ruling.

One test per game letter, so a failure says which game's tests are missing citations.
"""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

HERE = Path(__file__).resolve()
TESTS = HERE.parents[1]
REPO = TESTS.parent
GAMES = {"T": "Trees", "M": "Magnate", "S": "Suzerain", "A": "Aristocracy"}

# "**M1 Income**", "**T2**", "- **S12** Each owned ...": a ruling is defined where its id opens
# a bold span. Mentions elsewhere ("(M19)", "see M12") are references, not definitions.
DEFINED = re.compile(r"\*\*([MSTA])(\d+)\b")
ID = r"[MSTA]\d+"
CITED = re.compile(rf"\bRULINGS\s+({ID}(?:\s*(?:,|/|\band\b)\s*{ID})*)")


def rulings_file() -> Path:
    """The project's rulings, docs/rules/rulings.md."""
    return REPO / "docs" / "rules" / "rulings.md"


@cache
def rulings() -> dict[str, list[str]]:
    """Ruling ids by game letter, in number order: {"T": ["T1", ..., "T8"], ...}."""
    found: dict[str, set[int]] = {letter: set() for letter in GAMES}
    for letter, number in DEFINED.findall(rulings_file().read_text()):
        found[letter].add(int(number))
    return {letter: [f"{letter}{n}" for n in sorted(nums)] for letter, nums in found.items()}


@cache
def citations() -> dict[str, set[Path]]:
    """Ruling id -> the test files citing it (this file aside: its examples cite nothing)."""
    out: dict[str, set[Path]] = {}
    for path in TESTS.rglob("*.py"):
        if path.resolve() == HERE:
            continue
        for group in CITED.findall(path.read_text(encoding="utf-8", errors="replace")):
            for ruling in re.findall(ID, group):
                out.setdefault(ruling, set()).add(path)
    return out


def test_the_rulings_are_found_and_numbered_without_gaps():
    """Guards the check itself: a parse that found nothing would pass every game vacuously."""
    found = rulings()
    for letter, ids in found.items():
        assert ids, f"no {GAMES[letter]} rulings found in {rulings_file()}"
        assert ids == [f"{letter}{n}" for n in range(1, len(ids) + 1)], (
            f"{GAMES[letter]} rulings are not numbered 1..{len(ids)}: {ids}")


def test_the_citation_pattern():
    text = "# RULINGS T5\n# RULINGS T1, T2 and T3 / T4\nsee rulings.md T6-T8, RULINGS  M12"
    cited = {r for g in CITED.findall(text) for r in re.findall(ID, g)}
    assert cited == {"T1", "T2", "T3", "T4", "T5", "M12"}


@pytest.mark.parametrize("letter", list(GAMES))
def test_every_ruling_has_a_test_citing_it(letter):
    cited = citations()
    missing = [r for r in rulings()[letter] if r not in cited]
    assert not missing, (
        f"{GAMES[letter]}: {len(missing)} ruling(s) of docs/rules/rulings.md with no test citing them "
        f"('# RULINGS {missing[0]}' in the test that checks it): {', '.join(missing)}")


def test_trees_rulings_t1_to_t8_are_cited_in_the_trees_tests():
    """Trees' eight rulings are all checked today, by the Trees tests themselves."""
    trees_tests = TESTS / "games" / "trees"
    missing = [f"T{n}" for n in range(1, 9)
               if not any(p.is_relative_to(trees_tests) for p in citations().get(f"T{n}", ()))]
    assert not missing, f"not cited in {trees_tests}: {', '.join(missing)}"
    assert rulings()["T"] == [f"T{n}" for n in range(1, 9)], "a Trees ruling was added: cite it"
