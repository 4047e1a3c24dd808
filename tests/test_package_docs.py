"""What the README, ``help(zerosum)`` and the API pages promise, checked."""

import importlib
import inspect
from pathlib import Path

import zerosum

README = Path(__file__).resolve().parents[1] / "README.md"


def test_package_docstring_says_where_things_live():
    doc = zerosum.__doc__
    assert len(doc.splitlines()) > 10
    for name in ("SOLVERS", "load_game", "compiled", "nash_conv", "TabularPolicy", "zerosum.perfect",
                 "Connect4Solver", "zerosum.experiments", "ZerosumError"):
        assert name in doc, name
    module = doc.split("``from ")[1].split(" import Connect4Solver``")[0]     # the import it shows works
    solver = importlib.import_module(module).Connect4Solver()
    assert solver.solve("2252576253462244111563365343671351441") == -1
    assert zerosum.SOLVERS["dcfr"].__name__ == "DCFRSolver"


def test_readme_options_match_the_solvers():
    text = README.read_text()
    # es-mccfr takes only a seed, os-mccfr an epsilon too: the README must not pair es with epsilon
    assert "`es-mccfr` (`--seed`)" in text
    assert "epsilon" not in inspect.signature(zerosum.SOLVERS["es-mccfr"].__init__).parameters
    assert "epsilon" in inspect.signature(zerosum.SOLVERS["os-mccfr"].__init__).parameters
    assert "from zerosum.perfect.connect4_solver import Connect4Solver" in text
    assert "--file\n../shared" not in text and "--file ../shared" not in text
    assert "F-part1.png" in text and "pip install -e '.[gambit]'" in text


def test_readme_nim_search_claim_runs():
    from click.testing import CliRunner

    from zerosum.cli import cli

    claim = "zerosum search nim --param 'heaps=[1,3,5,7]'"
    assert claim in README.read_text()
    r = CliRunner().invoke(cli, ["search", "nim", "--param", "heaps=[1,3,5,7]", "--max-nodes", "100000", "--json"])
    assert r.exit_code == 0, r.output


def test_api_pages_show_no_sphinx_roles():
    """mkdocs.yml's Griffe extension rewrites ``:func:`x``` as Markdown code for the API pages."""
    import re
    from pathlib import Path

    import pytest

    griffe = pytest.importorskip("griffe", reason="the docs extra (mkdocstrings) is not installed")
    root = Path(__file__).resolve().parents[1]
    ext = griffe.load_extensions(f"{root / 'docs' / 'griffe_sphinx_roles.py'}:SphinxRoles")
    pkg = griffe.load("zerosum", search_paths=[str(root / "src")], extensions=ext)
    role = re.compile(r":(func|meth|class|mod|attr|data|obj|exc):`")
    assert ":func:`" in (root / "src" / "zerosum" / "__init__.py").read_text()   # the source keeps them
    assert not role.search(pkg.docstring.value) and "`compiled()`" in pkg.docstring.value
    assert not role.search(pkg["solvers"].docstring.value)
    assert ":func:`" not in "".join(
        m.docstring.value for m in pkg["core"].members.values() if not m.is_alias and m.docstring)
