"""The package's layout as rules that fail when broken: no import cycle (between modules, or between
the packages under ``zerosum``), no ``_private`` name imported from another package, and the
command line's libraries (click, ``zerosum.cli``) imported only by ``zerosum.cli``.

Every ``import`` and ``from ... import`` counts, at module level or inside a function (a deferred
import is still a dependency); importing ``zerosum.a.b`` also runs ``zerosum.a``'s ``__init__``,
so it counts as an import of that package too (unless the importer lives inside that package).  The top-level package (``zerosum/__init__.py``,
lazy re-exports of the public names) is left out: it stands above everything.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "src" / "zerosum"


def _modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return out


MODULES = _modules()


def _imports():
    """(importer, imported module, name or None, line) for every zerosum import in the package."""
    for name, (path, is_package) in sorted(MODULES.items()):
        package = name if is_package else name.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if not target.startswith("zerosum"):
                    continue
                for alias in node.names:
                    full = f"{target}.{alias.name}"
                    if full in MODULES:  # from package import submodule
                        yield name, full, None, node.lineno
                    else:
                        yield name, target, alias.name, node.lineno
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("zerosum"):
                        yield name, alias.name, None, node.lineno


def _with_parents(module: str, importer: str) -> list[str]:
    """``module`` and the packages importing it initializes, less the importer's own packages
    (Python runs those before the importer in any case: a submodule is not a dependency of them)."""
    parts = module.split(".")
    own = {".".join(importer.split(".")[:k]) for k in range(1, len(importer.split(".")))}
    return [m for m in (".".join(parts[:k]) for k in range(2, len(parts) + 1)) if m not in own]


def _graph(key) -> dict[str, set[str]]:
    graph = defaultdict(set)
    for importer, target, _, _ in _imports():
        if importer == "zerosum":
            continue
        for t in _with_parents(target, importer):
            a, b = key(importer), key(t)
            if a != b:
                graph[a].add(b)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _package_of(module: str) -> str:
    """``zerosum.X`` for anything under zerosum/X (a top-level module is its own package)."""
    return ".".join(module.split(".")[:2])


def test_no_import_cycle_between_modules():
    assert _cycles(_graph(lambda m: m)) == []


def test_no_import_cycle_between_packages():
    assert _cycles(_graph(_package_of)) == []


def test_the_rules_see_the_imports():
    """The walk above finds what it checks: zerosum.solvers imports zerosum.core, and a deferred
    import inside a function counts (zerosum.cli.imperfect imports zerosum.core.compile in one)."""
    packages = _graph(_package_of)
    assert "zerosum.core" in packages["zerosum.solvers"]
    assert "zerosum.core.compile" in _graph(lambda m: m)["zerosum.cli.imperfect"]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_private_name_imported_across_packages():
    """``from zerosum.x.y import _name`` only from a module of the same directory."""
    found = []
    for importer, target, name, line in _imports():
        if name is None or not name.startswith("_") or name.startswith("__"):
            continue
        target_path, _ = MODULES.get(target, (None, False))
        importer_path, _ = MODULES[importer]
        if target_path is None or target_path.parent != importer_path.parent:
            found.append(f"{importer}:{line} imports {name} from {target}")
    assert found == []


def test_command_line_libraries_only_in_cli():
    """click and zerosum.cli are imported by zerosum.cli alone: experiments, builders and solvers
    return results and report progress through zerosum.progress."""
    found = []
    for name, (path, _) in sorted(MODULES.items()):
        if name == "zerosum.cli" or name.startswith("zerosum.cli."):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "click" for a in node.names) or isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "click":
                found.append(f"{name}:{node.lineno} imports click")
    for importer, target, _, line in _imports():
        if not importer.startswith("zerosum.cli") and (target == "zerosum.cli" or target.startswith("zerosum.cli.")):
            found.append(f"{importer}:{line} imports {target}")
    assert found == []
