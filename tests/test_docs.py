"""The documentation site: it builds with ``mkdocs build --strict`` (no broken link, no missing
page, no API entry that fails to render), every public class and function reachable from the API
pages has a docstring, and the JSON fields the CLI prints are the ones docs/cli.md lists."""

from __future__ import annotations

import importlib
import inspect
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
API_PAGES = sorted((DOCS / "api").glob("*.md"))

#: Modules on the API pages whose docstrings this check skips: other work in progress owns them
#: (their missing docstrings are listed in that work's report), so this file cannot fix them.
EXCLUDED = {
    "zerosum",                        # the top-level package (re-exports only; owned by issue 10)
    "zerosum.games",                  # its __init__ is being edited by issue 10
    "zerosum.plots",
    "zerosum.core.compile", "zerosum.core.policy",
    "zerosum.games.matrix", "zerosum.games.openspiel", "zerosum.poker.holdem", "zerosum.params",
    "zerosum.solvers.cfr", "zerosum.solvers.lcfr", "zerosum.solvers.dcfr", "zerosum.solvers.pcfr",
    "zerosum.solvers.pdcfr_plus",
    "zerosum.perfect.agents", "zerosum.perfect.connect4", "zerosum.perfect.connect4_solver",
}
EXCLUDED_PREFIXES = ("zerosum.experiments", "zerosum.learning", "zerosum.public_tree")

#: Packages not on the API pages: the command line has its own page (docs/cli.md).
NOT_ON_API_PAGES = ("zerosum.cli",)


def _documented_modules() -> list[str]:
    names = []
    for page in API_PAGES:
        names += re.findall(r"^::: ([\w.]+)", page.read_text(), flags=re.MULTILINE)
    return names


def _is_excluded(module: str) -> bool:
    return module in EXCLUDED or module.startswith(EXCLUDED_PREFIXES)


def _public_callables(module):
    """(qualified name, object) for the module's public functions and classes, and each public
    class's public methods and properties; only objects defined in the module itself (a
    re-export is checked where it is defined)."""
    names = getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]
    for name in names:
        obj = getattr(module, name, None)
        if getattr(obj, "__module__", None) != module.__name__:
            continue
        if inspect.isfunction(obj) or hasattr(obj, "py_func"):        # plain or Numba-compiled
            yield f"{module.__name__}.{name}", obj
        elif inspect.isclass(obj):
            yield f"{module.__name__}.{name}", obj
            for attr, member in vars(obj).items():
                if attr.startswith("_"):
                    continue
                if isinstance(member, (staticmethod, classmethod)):
                    member = member.__func__
                if inspect.isfunction(member) or isinstance(member, property):
                    yield f"{module.__name__}.{name}.{attr}", (obj, attr, member)


def _docstring(entry) -> str | None:
    if isinstance(entry, tuple):        # a method or property: its own docstring or the one it overrides
        cls, attr, _member = entry
        for klass in cls.__mro__:
            candidate = vars(klass).get(attr)
            if isinstance(candidate, (staticmethod, classmethod)):
                candidate = candidate.__func__
            doc = getattr(candidate, "__doc__", None) if candidate is not None else None
            if doc and doc.strip():
                return doc
        return None
    return inspect.getdoc(entry)


def test_every_api_page_is_in_the_navigation():
    nav = (ROOT / "mkdocs.yml").read_text()
    for page in API_PAGES:
        assert f"api/{page.name}" in nav, f"{page.name} is not in mkdocs.yml's nav"


def test_every_package_is_on_an_api_page():
    """Each package (a folder with an __init__) has its docstring on a page.  Single modules are
    not required here, so that a module added by other work does not break the build of this
    check; docs/api/ is where to add them."""
    on_pages = set(_documented_modules())
    missing = []
    for init in sorted((ROOT / "src" / "zerosum").rglob("__init__.py")):
        module = ".".join(init.parent.relative_to(ROOT / "src").parts)
        if module == "zerosum" or module.startswith(NOT_ON_API_PAGES):
            continue
        if module not in on_pages:
            missing.append(module)
    assert not missing, f"add these packages to a page in docs/api/: {missing}"


def test_every_public_name_on_the_api_pages_has_a_docstring():
    missing = []
    for name in _documented_modules():
        if _is_excluded(name):
            continue
        module = importlib.import_module(name)
        if not inspect.getdoc(module):
            missing.append(name)
        missing += [qualified for qualified, obj in _public_callables(module) if not _docstring(obj)]
    assert not missing, f"public names without a docstring: {missing}"


def test_the_docstring_check_can_fail():
    """The check sees an undocumented method and accepts one documented in a base class."""

    class Base:
        def documented(self):
            """Here."""

    class Child(Base):
        def documented(self):
            return 1

        def bare(self):
            return 2

    assert _docstring((Child, "documented", vars(Child)["documented"]))
    assert _docstring((Child, "bare", vars(Child)["bare"])) is None


def _json_keys(*args) -> set[str]:
    result = CliRunner().invoke(importlib.import_module("zerosum.cli").cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return set(json.loads(result.stdout))


@pytest.mark.parametrize("args", [
    ("solve", "kuhn", "-n", "10"),
    ("solve", "kuhn", "-a", "lp"),
    ("evaluate", "kuhn", "POLICY"),
    ("games",),
    ("search", "tictactoe", "-a", "alphabeta"),
    ("tournament", "tictactoe", "--agents", "random,alphabeta", "-n", "2", "--seed", "1"),
], ids=lambda a: "-".join(a[:2]) if a[:2] != ("solve", "kuhn") else "-".join(a))
def test_cli_json_fields_are_documented(args, tmp_path):
    if "POLICY" in args:
        import zerosum

        game = zerosum.load_game("kuhn")
        path = tmp_path / "policy.json"
        zerosum.TabularPolicy.uniform(game).save(path)
        args = tuple(str(path) if a == "POLICY" else a for a in args)
    text = (DOCS / "cli.md").read_text()
    undocumented = sorted(k for k in _json_keys(*args) if f"`{k}`" not in text and not re.search(
        rf"[{{,]\s*{re.escape(k)}\s*[,}}:]", text))
    assert not undocumented, f"document these JSON fields of `zerosum {args[0]}` in docs/cli.md: {undocumented}"


def test_site_builds_strict(tmp_path):
    pytest.importorskip("mkdocs", reason="the docs extra (mkdocs) is not installed")
    for plugin in ("material", "mkdocstrings_handlers.python", "mkdocs_jupyter"):
        pytest.importorskip(plugin, reason=f"the docs extra ({plugin}) is not installed")
    site = tmp_path / "site"
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", ZEROSUM_DOCS_EXECUTE="false")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                         check=False, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-4000:]
    solvers = (site / "api" / "solvers.html").read_text()
    assert "CFRPlusSolver" in solvers and "ExternalSamplingSolver" in solvers
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        title = json.loads(notebook.read_text())["cells"][0]["source"]
        title = ("".join(title) if isinstance(title, list) else title).splitlines()[0].lstrip("# ")
        assert title.split(":")[0] in (site / "notebooks" / f"{notebook.stem}.html").read_text(), notebook.name
    for page in DOCS.glob("*.md"):
        assert (site / f"{page.stem}.html").exists(), page.name
