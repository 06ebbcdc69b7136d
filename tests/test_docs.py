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
