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


TYPEOF = r"""
import json, sys
import numpy as np
from zerosum.cli import numba_start
import numba
from numba.core.typing import typeof
original = typeof.typeof_impl.dispatch(np.ndarray)
numba_start.after_import()
base = np.arange(24.0).reshape(4, 6)
frozen = np.zeros(3, np.int16)
frozen.setflags(write=False)
arrays = [base, np.asfortranarray(base), base[:, ::2], frozen, np.zeros(5, bool), np.array(2.5),
          np.zeros(2, dtype=[("a", np.int32), ("b", np.float64)]), np.zeros(3, "datetime64[s]"),
          np.zeros(3, np.complex64), np.zeros(3, object)]

def typed(fn, a):
    try:
        return str(fn(a, typeof.Purpose.argument))
    except Exception as e:
        return type(e).__name__

light = [typed(typeof.typeof_impl, a) for a in arrays]
ma_after_light = "numpy.ma" in sys.modules
light.append(typed(typeof.typeof_impl, np.asmatrix(base)))  # a subclass: Numba's own (which imports numpy.ma)
numba_own = [typed(original, a) for a in arrays + [np.asmatrix(base)]]
masked = typed(typeof.typeof_impl, np.ma.masked_array([1.0, 2.0]))
print(json.dumps({"same": light == numba_own, "light": light, "ma_after_light": ma_after_light, "masked": masked}))
"""


def test_arrays_are_typed_as_numba_types_them_without_importing_numpy_ma():
    got = run(TYPEOF)
    assert got["same"], got["light"]
    assert got["light"][:4] == ["array(float64, 2d, C)", "array(float64, 2d, F)", "array(float64, 2d, A)",
                                "readonly array(int16, 1d, C)"]
    assert not got["ma_after_light"]
    assert got["masked"] == "NumbaTypeError"  # still refused once numpy.ma is there


YAML = r"""
import json, sys
from zerosum.cli import compiling
compiling.install()
import numba
from numba.core import config
loaded_with_numba = "yaml.reader" in sys.modules
parsed = config.yaml.safe_load("a: 1") if config._HAVE_YAML else None
print(json.dumps({"loaded_with_numba": loaded_with_numba, "have": config._HAVE_YAML, "parsed": parsed,
                  "debug": bool(config.DEBUG_CACHE)}))
"""


def test_numba_imports_pyyaml_only_where_its_configuration_file_is(tmp_path):
    # numba_start.holding_back_yaml: PyYAML only on first use, and a .numba_config.yaml still read
    plain = subprocess.run([sys.executable, "-c", YAML], capture_output=True, text=True, check=True, cwd=tmp_path)
    assert json.loads(plain.stdout) == {"loaded_with_numba": False, "have": True, "parsed": {"a": 1}, "debug": False}
    (tmp_path / ".numba_config.yaml").write_text("debug_cache: 1\n")
    configured = subprocess.run([sys.executable, "-c", YAML], capture_output=True, text=True, check=True,
                                cwd=tmp_path)
    assert json.loads(configured.stdout.strip().splitlines()[-1]) == {"loaded_with_numba": True, "have": True,
                                                                      "parsed": {"a": 1}, "debug": True}


FOLDER_CHECKS = r"""
import json, sys, tempfile
from zerosum.cli import compiling
compiling.install()
import numba
made = []
original = tempfile.TemporaryFile
tempfile.TemporaryFile = lambda *a, **k: made.append(k.get("dir")) or original(*a, **k)
sys.path.insert(0, sys.argv[1])
import three_kernels
print(json.dumps({"checks": len(made), "sum": three_kernels.a(1) + three_kernels.b(2) + three_kernels.c(3)}))
"""


def test_the_cache_folder_is_checked_once_for_many_kernels(tmp_path):
    # numba_start._cache_folders_checked_once: one writable check of __pycache__, not one per kernel
    (tmp_path / "three_kernels.py").write_text("from numba import njit\n\n" + "".join(
        f"@njit(cache=True)\ndef {name}(x):\n    return x + {i}\n\n\n" for i, name in enumerate("abc")))
    assert run(FOLDER_CHECKS.replace("sys.argv[1]", repr(str(tmp_path)))) == {"checks": 1, "sum": 9}


LINKED = '''
import numpy as np
from numba import njit


@njit(cache=True)
def inner(x):
    return x * 3.0 + 1.0


@njit(cache=True)
def outer(a):
    s = 0.0
    for v in a:
        s += inner(v)
    return s
'''

LAZY = r"""
import json, sys
import numpy as np
from zerosum.cli import compiling
compiling.install()
import numba
from numba.core import codegen
import llvmlite.binding as ll
parsed = []
parse = ll.parse_bitcode
codegen.ll.parse_bitcode = lambda data: parsed.append(len(data)) or parse(data)
sys.path.insert(0, sys.argv[1])
import linked_kernels as k
a = np.arange(4.0)
first = k.outer(a)
hits = sum(k.outer.stats.cache_hits.values())
parsed_loading = len(parsed)

@numba.njit
def later(a):  # compiled here, linking against the cached inner
    return k.inner(a[0]) + k.outer(a)

print(json.dumps({"light": getattr(codegen.CPUCodeLibrary._unserialize.__func__, "zerosum_light", False),
                  "first": first, "hits": hits, "parsed_loading": parsed_loading, "later": later(a),
                  "parsed_linking": len(parsed) > parsed_loading}))
"""


def test_a_cached_kernel_loads_without_parsing_its_bitcode_and_still_links(tmp_path):
    # numba_start._bitcode_parsed_when_linked: a load from the cache parses no bitcode; a kernel
    # compiled later that calls the cached ones gets their bitcode parsed then, and runs
    (tmp_path / "linked_kernels.py").write_text(LINKED)
    run(LAZY.replace("sys.argv[1]", repr(str(tmp_path))))  # compiles and writes the cache
    got = run(LAZY.replace("sys.argv[1]", repr(str(tmp_path))))
    expected = sum(3.0 * v + 1.0 for v in range(4))
    assert got == {"light": True, "first": expected, "hits": 1, "parsed_loading": 0, "later": 1.0 + expected,
                   "parsed_linking": True}


RUNTIME_KERNELS = '''
import numpy as np
from numba import njit


@njit(cache=True, _nrt=False)
def scaled(x, out):
    for i in range(x.size):
        out[i] = 2.0 * x[i]


@njit(cache=True)
def allocated(x):
    return np.cumsum(x) + np.ones(x.size)
'''

RUNTIME = r"""
import json, sys
import numpy as np
from zerosum.cli import compiling
compiling.install()
import numba
from numba.core.runtime import nrt
sys.path.insert(0, sys.argv[1])
import runtime_kernels as k
x = np.arange(3.0)
out = np.zeros(3)
k.scaled(x, out)
before = nrt.rtsys._init
got = k.allocated(x).tolist()
hits = sum(k.scaled.stats.cache_hits.values()) + sum(k.allocated.stats.cache_hits.values())
print(json.dumps({"scaled": out.tolist(), "runtime_after_scaled": before, "allocated": got,
                  "runtime_after_allocated": nrt.rtsys._init, "hits": hits}))
"""


def test_numbas_runtime_starts_with_the_first_kernel_loaded_that_calls_it(tmp_path):
    # numba_start._bitcode_parsed_when_linked: a cached kernel that allocates nothing (_nrt=False)
    # loads without starting Numba's runtime; one that allocates starts it, and runs
    (tmp_path / "runtime_kernels.py").write_text(RUNTIME_KERNELS)
    run(RUNTIME.replace("sys.argv[1]", repr(str(tmp_path))))  # compiles and writes the cache
    got = run(RUNTIME.replace("sys.argv[1]", repr(str(tmp_path))))
    assert got == {"scaled": [0.0, 2.0, 4.0], "runtime_after_scaled": False, "allocated": [1.0, 2.0, 4.0],
                   "runtime_after_allocated": True, "hits": 2}


COLLECTOR = r"""
import atexit, gc, json, sys, time
from zerosum import cli
cli.COLLECTOR_HELD_SECONDS = float(sys.argv[1])
held = []
atexit.register(lambda: print(json.dumps({"held_at_start": held[0], "enabled": gc.isenabled(),
                                          "frozen": gc.get_freeze_count()}), file=sys.stderr))
original = cli.main
def main():
    held.append(not gc.isenabled())
    if sys.argv[2] == "wait":
        time.sleep(0.5)
        return
    original()
cli.main = main
sys.argv = ["zerosum", "solve", "kuhn", "-n", "20", "--json"]
cli.entry()
"""


def test_the_console_script_holds_the_collector_for_its_start_only():
    # cli.hold_collections: no cyclic collection during the start's imports; the iterations run
    # with the collector on and the start's objects frozen (numba_start.collect_again); a command
    # that never iterates gets it back from the timer
    def run_entry(*args):
        out = subprocess.run([sys.executable, "-c", COLLECTOR, *args], capture_output=True, text=True, check=True)
        return json.loads(out.stderr.strip().splitlines()[-1])

    solved = run_entry("30", "solve")
    assert solved["held_at_start"] and solved["enabled"] and solved["frozen"] > 10_000
    waited = run_entry("0.05", "wait")
    assert waited == {"held_at_start": True, "enabled": True, "frozen": 0}
