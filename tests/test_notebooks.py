"""The notebooks in notebooks/ are stored without outputs and run top to bottom.

Each notebook asserts the numbers its text relies on (Kuhn's -1/18, Lab 15's tables, node
counts), so running it is a test: a notebook that breaks, or that asserts a wrong number, fails
here.  Execution needs the ``notebooks`` extra (nbclient, nbformat, ipykernel).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
EXPECTED = ["kuhn.ipynb", "lab15.ipynb", "search.ipynb", "your_own_game.ipynb"]
TIMEOUT_S = 600  # per cell; each notebook takes seconds


def _notebook_paths():
    return sorted(NOTEBOOKS.glob("*.ipynb"))


def _execute(nb):
    """Run ``nb`` in a fresh kernel with notebooks/ as the working directory."""
    nbclient = pytest.importorskip("nbclient", reason="the notebooks extra (nbclient) is not installed")
    pytest.importorskip("ipykernel", reason="the notebooks extra (ipykernel) is not installed")
    client = nbclient.NotebookClient(nb, timeout=TIMEOUT_S, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()
    return nb


def test_the_four_notebooks_exist():
    assert sorted(p.name for p in _notebook_paths()) == sorted(EXPECTED)


@pytest.mark.parametrize("path", _notebook_paths(), ids=lambda p: p.stem)
def test_notebook_is_stored_without_outputs(path):
    nb = json.loads(path.read_text())
    assert nb["cells"], f"{path.name} has no cells"
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "code":
            assert cell.get("outputs") == [], f"{path.name} cell {i} has stored outputs"
            assert cell.get("execution_count") is None, f"{path.name} cell {i} has an execution count"


@pytest.mark.parametrize("path", _notebook_paths(), ids=lambda p: p.stem)
def test_notebook_runs_top_to_bottom(path):
    nbformat = pytest.importorskip("nbformat", reason="the notebooks extra (nbformat) is not installed")
    nb = nbformat.read(path, as_version=4)
    _execute(nb)
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors


def test_a_wrong_number_in_a_notebook_fails():
    """The harness really fails on a notebook's assert: change the closed-form value of the
    bluffing game from 1/3 to 1/4 and the run must stop with an AssertionError."""
    nbformat = pytest.importorskip("nbformat", reason="the notebooks extra (nbformat) is not installed")
    nbclient = pytest.importorskip("nbclient", reason="the notebooks extra (nbclient) is not installed")
    nb = nbformat.read(NOTEBOOKS / "your_own_game.ipynb", as_version=4)
    right = '"value": Fraction(1, 3)}'
    cells = [c for c in nb.cells if c.cell_type == "code" and right in c.source]
    assert len(cells) == 1, "the asserted value moved; update this test"
    cells[0].source = cells[0].source.replace(right, '"value": Fraction(1, 4)}')
    with pytest.raises(nbclient.exceptions.CellExecutionError, match="AssertionError"):
        _execute(nb)
