"""What the README and ``help(zerosum)`` promise a new user (issue 10 item 12), checked."""

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
