"""docs/engines.md: the package's imports run one way, state < copies < flow < rules <
commands < history < views < bots < __init__, so it has no import circle, and nothing is imported
inside a function (which is how the old circle was hidden)."""
from __future__ import annotations

import ast
from pathlib import Path

from service.games import aristocracy

ORDER = ["state", "copies", "flow", "rules", "commands", "history", "views", "bots", "__init__"]
HERE = Path(aristocracy.__file__).parent


def _imports(tree) -> list[tuple[str, bool]]:
    """(sibling module, imported at the top level?) for every relative import."""
    top = set(map(id, tree.body))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names = [node.module] if node.module else [a.name for a in node.names]
            out += [(n.split(".")[0], id(node) in top) for n in names]
    return out


def test_every_module_is_in_the_order():
    assert sorted(p.stem for p in HERE.glob("*.py")) == sorted(ORDER)


def test_imports_run_one_way_and_at_the_top():
    for name in ORDER:
        tree = ast.parse((HERE / f"{name}.py").read_text())
        for module, at_top in _imports(tree):
            assert at_top, f"{name}.py imports .{module} inside a function"
            assert ORDER.index(module) < ORDER.index(name), f"{name}.py imports .{module}"


def test_the_game_records_its_rules_version():
    assert aristocracy.GAME.rules_version == 4
    assert set(aristocracy.GAME.bots) >= {"easy", "normal"}
