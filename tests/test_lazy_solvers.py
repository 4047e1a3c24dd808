"""``zerosum.solvers`` imports its classes on first use: the public tree's solve does not pay for the
history tree's (scipy.sparse, the sequence form, the networks), and ``SOLVERS`` still maps every
name to its class."""

from __future__ import annotations

import subprocess
import sys


def _modules_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys; print(' '.join(sys.modules))"],
                         check=True, capture_output=True, text=True).stdout
    return set(out.split())


def test_the_public_tree_solver_does_not_import_the_history_tree_solvers():
    loaded = _modules_after("from zerosum.public_tree.solver import public_solver\n"
                            "from zerosum.solvers import SOLVERS\nassert 'dcfr' in SOLVERS and len(SOLVERS) > 10")
    assert "scipy.sparse" not in loaded
    assert "zerosum.solvers.cfr" not in loaded and "zerosum.core.compile" not in loaded


def test_solvers_maps_each_name_to_its_class():
    from zerosum.solvers import SOLVERS, CFRSolver
    from zerosum.solvers.cfr import CFRPlusSolver
    from zerosum.solvers.dcfr import DCFRSolver

    assert SOLVERS["dcfr"] is DCFRSolver and SOLVERS["cfr+"] is CFRPlusSolver
    assert SOLVERS["cfr"] is CFRSolver
    assert "no-such-solver" not in SOLVERS and SOLVERS.get("no-such-solver") is None
    assert all(isinstance(SOLVERS[name], type) for name in SOLVERS)
