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


KERNELS = '''
import numpy as np
from numba import njit


@njit(cache=True)
def cached(x):
    out = np.empty(x.size)
    for i in range(x.size):
        out[i] = x[i] * 2.0
    return out


@njit(cache=False)
def compiled_here(x):
    return np.sort(x)[::-1].copy(), str(x.size)
'''

LOADS = r"""
import json, sys
import numpy as np
from zerosum.cli import compiling
compiling.install()
sys.path.insert(0, sys.argv[1])
import startup_kernels as k
import numba.core.caching as caching
x = np.array([3.0, 1.0, 2.0])
doubled = k.cached(x).tolist()
hits = sum(k.cached.stats.cache_hits.values())
order, size = k.compiled_here(x)
print(json.dumps({"light": getattr(caching.Cache.load_overload, "zerosum_light", False), "doubled": doubled,
                  "hits": hits, "order": order.tolist(), "size": size}))
"""


def test_a_kernel_loaded_from_the_cache_without_the_refresh_then_one_compiled(tmp_path):
    # compiling._load_without_refresh: the cache's load skips Numba's registry refresh; a kernel
    # compiled after it in the same process (strings, sorting: registries the load did not fill)
    # still compiles, as Numba's compiler refreshes them itself
    (tmp_path / "startup_kernels.py").write_text(KERNELS)
    first = run(LOADS.replace("sys.argv[1]", repr(str(tmp_path))))
    second = run(LOADS.replace("sys.argv[1]", repr(str(tmp_path))))
    expected = {"light": True, "doubled": [6.0, 2.0, 4.0], "order": [3.0, 2.0, 1.0], "size": "3"}
    assert {k: v for k, v in first.items() if k != "hits"} == expected
    assert second == {**expected, "hits": 1}  # the second process loaded it from the cache
