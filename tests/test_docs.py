"""The repository cites its own documents (docs/architecture.md, docs/rules/rulings.md), never
a file outside it that a reader of the repository does not have."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUTSIDE = re.compile(r"\.\./shared|DESIGN\.md|RULINGS\.md")


def tracked_files() -> list[Path]:
    names = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True,
                           check=True).stdout.decode().split("\0")
    return [REPO / n for n in names if n and (REPO / n).is_file()]


def test_no_tracked_file_names_a_document_outside_the_repository():
    this = Path(__file__).resolve()
    found = []
    for path in tracked_files():
        if path == this:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert not found, "cite docs/ instead:\n" + "\n".join(found)


def test_the_readme_tour_says_new_games_are_public_and_rated_unless_unticked():
    """Issue 49, item 22: the newcomer learns it before the game, not from its page after;
    and the README stays short enough to read (150 lines at most)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    tour = " ".join(readme.split("## A ten-minute tour", 1)[1].split("\n## ", 1)[0].split())
    assert "A new game is **public**" in tour and "and **rated**" in tour
    assert "unless you untick those two boxes" in tour
    lobby = (REPO / "templates/web/new_game.html").read_text(encoding="utf-8")
    for box in ("public", "rated"):        # what the tour says is what the lobby does
        assert re.search(rf'name="{box}" \{{\{{ .checked. if \(form.get\(.{box}.\) == .on. '
                         r"if form else true\) \}\}", lobby), box
    assert len(readme.splitlines()) <= 150
