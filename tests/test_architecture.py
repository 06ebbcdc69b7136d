"""The layers of the house (docs/architecture.md, README "How it is built"), checked by reading every
module's imports with `ast`: no import circle among service/, workers/ and config/; nothing
imports an adapter from below; engines import only the standard library and each other; the
two directions of mail never import each other; the use cases know no Flask or Celery; and the
project's own modules are imported at the top of a file, never inside a function."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("service", "workers", "config")

# (importer prefix, imported prefix): an edge from the first to the second is forbidden
FORBIDDEN = [
    # adapters sit on top: nothing below may import them
    *[(low, "service.web") for low in ("service.play", "service.store", "service.mailwire",
                                       "service.games", "service.play.time.clocks", "workers.tasks",
                                       "workers.imap_tasks", "workers.celery_app")],
    *[(low, "workers") for low in ("service.play", "service.store", "service.mailwire",
                                   "service.games", "service.play.time.clocks")],
    # the use cases know no web framework and no task queue
    ("service.play", "flask"), ("service.play", "celery"), ("service.play", "werkzeug"),
    # metrics and the API description are the adapters' business (Services.observe)
    ("service.play", "prometheus_client"), ("service.play", "apispec"),
    # the store knows only itself and the engines' Event type
    ("service.store", "service.play"), ("service.store", "service.mailwire"),
    # mail in two directions that never call back into each other, nor into the use cases
    ("service.mailwire.inbound", "service.mailwire.outbound"),
    ("service.mailwire.outbound", "service.mailwire.inbound"),
    ("service.mailwire", "service.play"), ("service.mailwire", "service.store"),
    # outgoing webhooks are a transport, like mail out: they know no use case and no store
    ("service.hooks", "service.play"), ("service.hooks", "service.store"),
    ("service.hooks", "service.mailwire"), ("service.hooks", "service.web"),
    ("service.hooks", "workers"),
    # the pure time-control module
    ("service.play.time.clocks", "service.play"), ("service.play.time.clocks", "service.store"),
]
# engines: nothing of ours outside service.games, no framework
ENGINE_MAY_NOT = ("service.web", "service.play", "service.store", "service.mailwire", "workers",
                  "config", "flask", "sqlalchemy", "celery", "jinja2")

# the only composition root allowed to import the app factory (Flask's Celery pattern)
ENTRY_POINTS = {"workers.worker"}


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def imports_of(name: str, path: Path) -> list[tuple[str, bool]]:
    """(imported name, inside a function?) for every import of the file. For
    `from pkg import x` the name is `pkg.x`, and `pkg` itself follows it only when `x` may be
    a name rather than a module (the caller decides which one is ours)."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    in_function: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            in_function.update(id(sub) for sub in ast.walk(node) if sub is not node)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parts, base] if base else parts)
            targets = [f"{base}.{alias.name}" for alias in node.names]
            targets.append(base + ".")      # the trailing dot marks "the package, maybe"
        else:
            continue
        out.extend((t, id(node) in in_function) for t in targets)
    return out


def graph() -> tuple[dict[str, set[str]], dict[str, set[str]], list[str]]:
    """Edges between our modules, all imported names per module, imports inside functions."""
    mods = modules()

    def ours(target: str) -> str | None:
        while target:
            if target in mods:
                return target
            target = target.rpartition(".")[0]
        return None

    edges: dict[str, set[str]] = {m: set() for m in mods}
    raw: dict[str, set[str]] = {m: set() for m in mods}
    local: list[str] = []
    for name, path in mods.items():
        found = imports_of(name, path)
        named = {t for t, _ in found if not t.endswith(".")}
        for target, inside in found:
            if target.endswith("."):
                # `from pkg import x`: an edge to pkg only if no `pkg.x` is a module of ours
                package = target[:-1]
                if any(ours(t) not in (None, ours(package)) for t in named
                       if t.startswith(package + ".")):
                    continue
                target = package
            raw[name].add(target)
            hit = ours(target)
            if hit and hit != name:
                edges[name].add(hit)
                if inside:
                    local.append(f"{path.relative_to(ROOT)} imports {hit} inside a function")
    return edges, raw, sorted(set(local))


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in edges:
        if v not in index:
            visit(v)
    return found


def under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def forbidden_edges(raw: dict[str, set[str]]) -> list[str]:
    bad = []
    for name, targets in raw.items():
        if name in ENTRY_POINTS:
            continue
        for target in targets:
            rules = FORBIDDEN + ([("service.games", t) for t in ENGINE_MAY_NOT])
            for low, high in rules:
                if under(name, low) and under(target, high) and not under(target, low):
                    bad.append(f"{name} imports {target}")
    return sorted(set(bad))


def test_no_import_circle():
    edges, _, _ = graph()
    assert circles(edges) == []


def test_nothing_imports_an_adapter_or_a_framework_from_below():
    _, raw, _ = graph()
    assert forbidden_edges(raw) == []


def test_our_modules_are_imported_at_the_top_of_a_file():
    _, _, local = graph()
    assert local == []


# -- the checks can fail -------------------------------------------------------------------

def test_the_circle_check_finds_a_planted_circle():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(edges) == [["a", "b", "c"]]


@pytest.mark.parametrize("importer, imported", [
    ("service.play.moves.submit", "service.web.ext"),
    ("service.play.mail.relay", "flask"),
    ("service.mailwire.outbound.compose", "service.mailwire.inbound.parse"),
    ("service.games.trees.rules", "service.store.models"),
    ("workers.tasks", "service.web"),
])
def test_the_layer_check_finds_a_planted_upward_import(importer, imported):
    assert forbidden_edges({importer: {imported}}) == [f"{importer} imports {imported}"]


def test_the_inside_a_function_check_reads_nested_imports(tmp_path):
    source = tmp_path / "mod.py"
    source.write_text("import os\n\ndef f():\n    from service import play\n")
    assert imports_of("pkg.mod", source) == [("os", False), ("service.play", True),
                                              ("service.", True)]


# -- the use cases' families ---------------------------------------------------------------
# lowest first: a family imports only the families before it, and only what their __init__
# offers; the core (services, errors, the repository, notify) imports no family; adapters
# (the web, the workers, the CLI) import families or service.play, never their inner modules
FAMILIES = ['service.play.time', 'service.play.players', 'service.play.moves', 'service.play.community', 'service.play.reads', 'service.play.mail', 'service.play.time.sweep']
CORE = ("service.play.services", "service.play.errors", "service.play.repository",
        "service.play.ranking", "service.play.readpolicy", "service.play.aftercommit",
        "service.play.notify", "service.play.clock")


def family_of(name: str) -> str | None:
    return next((f for f in sorted(FAMILIES, key=len, reverse=True) if under(name, f)), None)


def offered(family: str) -> set[str]:
    """The names a family's __init__ imports: its public interface."""
    tree = ast.parse((ROOT / family.replace(".", "/") / "__init__.py").read_text())
    return {a.asname or a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
            for a in node.names}


def family_breaches(raw: dict[str, set[str]]) -> list[str]:
    bad = []
    interfaces = {f: offered(f) for f in FAMILIES}
    for name, targets in raw.items():
        mine = family_of(name)
        for target in targets:
            theirs = family_of(target)
            if theirs is None or theirs == mine:
                continue
            if name in CORE or (mine and FAMILIES.index(theirs) > FAMILIES.index(mine)):
                bad.append(f"{name} imports {target} (a family above it)")
            elif target != theirs and not (target.rpartition(".")[0] == theirs
                                           and target.rpartition(".")[2] in interfaces[theirs]):
                bad.append(f"{name} imports {target} (not through {theirs})")
    return sorted(set(bad))


def test_families_reach_each_other_only_through_their_interface():
    _, raw, _ = graph()
    assert family_breaches(raw) == []


@pytest.mark.parametrize("importer, imported", [
    ("service.web.games", "service.play.moves.submit.submit"),
    ("service.play.moves.submit", "service.play.reads.pagereads"),
    ("service.play.reads.pagereads", "service.play.mail.replies.process"),
    ("service.play.services", "service.play.time"),
])
def test_the_family_check_finds_a_planted_breach(importer, imported):
    assert len(family_breaches({importer: {imported}})) == 1
