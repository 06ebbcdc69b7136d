"""Names equal files (issue 48, item 7): a module is imported under its own name, a dotted path
or a file path that a docstring, a comment or a doc names exists, and no two modules share a
name. Each check reads the files with `ast` or a pattern, and each is shown to fail on a
planted example."""
from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OURS = ("service", "workers", "config", "tests")
# every Python file the project writes: the code and everything that drives it
WRITTEN = ("service", "workers", "config", "tests", "bench", "tools", ".ci")


def python_files(folders=WRITTEN) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py")
                  if "migrations" not in p.parts)


def dotted(path: Path) -> str:
    name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return name.removesuffix(".__init__")


def our_modules() -> set[str]:
    return {dotted(p) for p in python_files(OURS)}


# -- 1. no import renames one of our modules ----------------------------------------------

def renamed_imports(path: Path, source: str, modules: set[str]) -> list[str]:
    """`import service.x as y` and `from service.a import b as c` where b is a module of ours:
    the reader would look for a file named y or c. Renaming a function or a class is fine."""
    tree = ast.parse(source, str(path))
    try:
        name = dotted(path)
    except ValueError:      # a planted file outside the checkout
        name = path.stem
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"{path.name}:{node.lineno} import {a.name} as {a.asname}"
                      for a in node.names if a.asname and a.name.split(".")[0] in OURS]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parts, base] if base else parts)
            found += [f"{path.name}:{node.lineno} from {base} import {a.name} as {a.asname}"
                      for a in node.names if a.asname and f"{base}.{a.name}" in modules]
    return found


def test_no_import_renames_a_module_of_ours():
    modules = our_modules()
    found = [f"{p.relative_to(ROOT).parent}/{hit}" for p in python_files()
             for hit in renamed_imports(p, p.read_text(), modules)]
    assert found == [], "import our modules under their own names:\n" + "\n".join(found)


def test_the_rename_check_finds_planted_renames(tmp_path):
    planted = tmp_path / "planted.py"
    source = ("from service.play import repository as positions\n"
              "import service.play.time.deadlines as timing\n"
              "from service.play.errors import PlayError as Refused\n")    # a class: fine
    assert renamed_imports(planted, source, our_modules()) == [
        "planted.py:1 from service.play import repository as positions",
        "planted.py:2 import service.play.time.deadlines as timing"]


# -- 3. docstrings, comments and docs name modules that exist -----------------------------

DOTTED = re.compile(r"(?<![\w./-])((?:service|workers)(?:\.[A-Za-z_]\w*)+)")
FILE_PATH = re.compile(r"(?<![\w./-])((?:service|workers|tests|bench|tools)/[\w/]*\w\.py)\b")
DOCS = ("docs", "README.md")


def top_level_names(path: Path) -> dict[str, ast.AST]:
    tree = ast.parse(path.read_text(), str(path))
    names: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                for sub in ast.walk(target):
                    if isinstance(sub, ast.Name):
                        names[sub.id] = node
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                names[(alias.asname or alias.name).split(".")[0]] = node
        elif isinstance(node, (ast.If, ast.Try)):       # names defined under a condition
            for sub in ast.walk(node):
                if isinstance(sub, (ast.FunctionDef, ast.ClassDef)):
                    names[sub.name] = sub
                elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                    names[sub.id] = sub
    return names


def module_file(name: str) -> Path | None:
    base = ROOT / name.replace(".", "/")
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.exists():
            return candidate
    return None


def resolves(path: str) -> bool:
    """A dotted path is a module of ours, or a module and a name it defines (a class's own
    attribute after it is taken on trust: it may be made at run time)."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        found = module_file(".".join(parts[:cut]))
        if found is None:
            continue
        rest = parts[cut:]
        return not rest or rest[0] in top_level_names(found)
    return False


def missing_names(text: str) -> list[str]:
    """Every dotted module path and file path in `text` that names nothing that exists."""
    out = [m.group(1) for m in DOTTED.finditer(text) if not resolves(m.group(1))]
    return out + [m.group(1) for m in FILE_PATH.finditer(text) if not (ROOT / m.group(1)).exists()]


def test_docstrings_comments_and_docs_name_modules_that_exist():
    docs = [p for entry in DOCS for p in
            ((ROOT / entry).rglob("*.md") if (ROOT / entry).is_dir() else [ROOT / entry])]
    found = []
    for path in python_files() + docs:
        if path == Path(__file__):      # this file plants missing names on purpose
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            found += [f"{path.relative_to(ROOT)}:{number}: {name}" for name in missing_names(line)]
    assert found == [], "these name no module, name or file that exists:\n" + "\n".join(found)


def test_the_name_check_finds_planted_missing_modules():
    text = ("the clocks (service.play.timing), the digest (service.play.mail.digest), "
            "its pause (service.play.time.clocks.seat.pause), a gone function "
            "(service.play.mail.digest.no_such_thing), a gone file service/play/timing.py, "
            "and a real one service/play/repository.py")
    assert missing_names(text) == ["service.play.timing", "service.play.mail.digest.no_such_thing",
                                   "service/play/timing.py"]


# -- 2. no two modules share a name -------------------------------------------------------

# Module files (packages aside: a family's package and the web's blueprint of the same name
# are one concept on two layers). Every game's package has the same shape (docs/engines.md):
# its own `rules`, `state`, `commands`, `views`, `bots`, `plans`... A reader always meets them
# as `<game>.rules`, and the shape is what lets one learn a second engine from the first. So
# these alone repeat, and only among the games: all of them count as one module,
# `service.games.*.rules`, which no module outside the games may share a name with.
ENGINE_SHAPE = re.compile(r"service\.games\.(?!cards\b)\w+\.\w+")


def shared_names(modules: set[str]) -> dict[str, list[str]]:
    """Module basenames (packages included, `__init__` not) held by more than one module."""
    by_name: dict[str, set[str]] = defaultdict(set)
    for module in modules:
        name = module.rpartition(".")[2]
        by_name[name].add(f"service.games.*.{name}" if ENGINE_SHAPE.fullmatch(module) else module)
    return {name: sorted(held) for name, held in sorted(by_name.items()) if len(held) > 1}


def test_no_two_modules_share_a_name():
    modules = {dotted(p) for p in python_files(("service", "workers"))
               if p.name != "__init__.py"}
    shared = shared_names(modules)
    assert shared == {}, "modules that share a name: " + "; ".join(
        f"{name}: {', '.join(held)}" for name, held in shared.items())


def test_the_shared_name_check_finds_planted_twins():
    assert shared_names({"service.play.mail", "service.mail", "service.games.trees.rules",
                         "service.games.suzerain.rules", "service.play.time.calendar.rules"}
                        ) == {"mail": ["service.mail", "service.play.mail"],
                              "rules": ["service.games.*.rules",
                                        "service.play.time.calendar.rules"]}
