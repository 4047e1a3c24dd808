"""What ``zerosum solve holdem --spot RIVER.json -n 1 --json`` imports: the public tree's path and
nothing it does not use (docs/benchmarks.md, "Start-up").  No plotting (matplotlib, zerosum.plots),
no SciPy beyond the one BLAS module Numba's registry checks for (cli._BlasCheckFirst), no Rich
(the terminal tables of the text report), no Ray, no history-tree solvers, and none of Numba's
start-up that a warm run does not use (zerosum.cli.numba_start): its registries' implementation
modules (no refresh on a cached kernel's load), PyYAML, ``numpy.ma``; nor ``concurrent.futures``
(threaded passes only).  The modules are read in the command's own process at exit, not timed."""

from __future__ import annotations

import json
import subprocess
import sys

RIVER = {
    "name": "test-river-ks7d2c9h5s", "board": "Ks7d2c9h5s", "pot": 200, "stack": 900,
    "ranges": ["AA,KK,K9s,77,AKs,QJs", "QQ-22,AQs-A2s,KJo+"], "betting": "no-limit",
    "streets": {"river": {"bet": ["60%", "a"], "raise": ["2.5x"]}},
    "rake": {"rate": 0, "cap": 0},
}

#: the command's process, with the loaded modules written to argv[1] at exit (the console script's
#: entry point, as `zerosum` runs it)
WRAPPER = r"""
import atexit, json, sys
out = sys.argv.pop(1)
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
from zerosum.cli import main
sys.argv[0] = "zerosum"
sys.exit(main())
"""

NOT_IMPORTED = ("matplotlib", "zerosum.plots", "scipy.sparse", "scipy.optimize", "scipy.stats", "rich",
                "ray", "zerosum.distributed.ray_runtime", "zerosum.solvers.cfr", "zerosum.core.compile",
                "zerosum.cli.ray", "torch", "yaml.reader", "concurrent.futures")
#: not imported where the kernels load from Numba's cache (a compile refreshes Numba's registries,
#: which imports them): a few of the registries' implementation modules, and numpy.ma
NOT_IMPORTED_WARM = ("numba.np.random.generator_core", "numba.typed.dictimpl", "numba.np.npdatetime", "numpy.ma")
#: what the command says on stderr when it compiles (zerosum.cli.compiling)
COMPILES = "compiling the kernels for this machine"


def test_a_river_solve_imports_only_its_path(tmp_path):
    spot = tmp_path / "river.json"
    spot.write_text(json.dumps(RIVER))
    modules = tmp_path / "modules.json"
    run = subprocess.run([sys.executable, "-c", WRAPPER, str(modules), "solve", "holdem", "--spot", str(spot),
                          "-n", "1", "--json"], check=False, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["iterations"] == 1
    loaded = set(json.loads(modules.read_text()))
    assert "zerosum.public_tree.solver" in loaded and "numba" in loaded  # (the wrapper saw the solve)
    assert "scipy.linalg" not in loaded  # (its cython_blas alone: what Numba's registry checks for)
    never = NOT_IMPORTED + (() if COMPILES in run.stderr else NOT_IMPORTED_WARM)
    unused = sorted(m for m in loaded if any(m == n or m.startswith(n + ".") for n in never))
    assert unused == []
