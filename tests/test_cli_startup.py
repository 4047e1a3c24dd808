"""The CLI's start-up shortcut (zerosum.cli._BlasCheckFirst): Numba's registry finds SciPy's BLAS
module without ``scipy.linalg``'s package import, and Numba's BLAS calls still work."""

import json
import subprocess
import sys

CHECK = r"""
import json, sys
import numpy as np
from zerosum import cli
sys.meta_path.insert(0, cli._BlasCheckFirst())
import numba
finder_left = any(isinstance(f, cli._BlasCheckFirst) for f in sys.meta_path)

@numba.njit
def product(a, b):
    return np.dot(a, b)

a = np.arange(12.0).reshape(3, 4)
b = np.arange(8.0).reshape(4, 2) - 3.0
ok = bool(np.array_equal(product(a, b), a @ b))
linalg_after_numba = "scipy.linalg" in sys.modules
import scipy.linalg
from scipy.linalg import cython_blas
print(json.dumps({"finder_left": finder_left, "blas_preloaded": cython_blas is sys.modules["scipy.linalg.cython_blas"],
                  "dot_ok": ok, "linalg_after_numba": linalg_after_numba,
                  "inverse_ok": bool(np.allclose(scipy.linalg.inv([[2.0, 0.0], [0.0, 4.0]]), [[0.5, 0], [0, 0.25]]))}))
"""


def run(code: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_numba_compiles_blas_calls_without_importing_scipy_linalg():
    got = run(CHECK)
    assert got == {"finder_left": False, "blas_preloaded": True, "dot_ok": True, "linalg_after_numba": False,
                   "inverse_ok": True}


def test_main_installs_the_finder_before_any_command():
    got = run("import json, sys\nfrom zerosum import cli\nsys.argv = ['zerosum', '--help']\n"
              "try:\n    cli.main()\nexcept SystemExit:\n    pass\n"
              "print(json.dumps({'installed': any(isinstance(f, cli._BlasCheckFirst) for f in sys.meta_path), "
              "'numba': 'numba' in sys.modules}))")
    assert got == {"installed": True, "numba": False}
