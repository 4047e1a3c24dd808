"""Start-up of a short hold'em solve: ``zerosum solve holdem --spot RIVER.json -n 1 --json`` as a
whole process, and where its time goes.

    .venv/bin/python benchmarks/bench_startup.py [--spot FILE.json] [--runs 9] [--baseline OTHER/src]
                                                 [--breakdown 5] [--json] [--args "solve holdem ..."] [--floor]

Runs the command ``--runs`` times as the ``zerosum`` console script does (``zerosum.cli.entry``),
from this tree's ``src`` and, with ``--baseline``, from another tree's ``src`` in turn (A B A B,
so that a change of the machine's load hits both), and prints the median wall and CPU seconds
(user + sys) and the load average before and after.  The two trees' outputs are compared, the
timing fields aside.  ``--args`` runs another command instead (its arguments, split at spaces:
``--args "solve holdem --param board=Ks7d2c9h -n 1 --json --option threads=2"``; the line still
says the default spot).  The default spot is the warm-up's river (:data:`zerosum.cli.warmup.SPOTS`);
the kernels must be in Numba's cache already (``zerosum warm-up`` in each tree).

``--floor`` adds a process that only imports NumPy and Numba (``python -c "import numpy, numba"``)
to each round, in turn with the others, and prints its median and each tree's median above it:
what of a short solve is zerosum's and what any Numba program pays before its first line (the
example turn's one-iteration two-thread solve: 0.337 s against 0.265 s of imports, on
2026-12-06; docs/benchmarks.md, "Where the two-thread walls stand").

The breakdown (``--breakdown`` runs of each tree, medians) runs the same command in a process
that times its parts, each exclusive of the parts inside it: the interpreter's start, each
package's imports, Numba's registry refresh (made by the first kernel loaded, its imports
included), each kernel's first call (loaded from the cache), the game, the tree, the solver's
set-up, the iteration and its checks, the result, the JSON, the rest of the command (click, the
checks of the arguments), and the exit.  An import made inside a timed part counts to that part.

``PYTHONDONTWRITEBYTECODE`` is dropped from the commands' environment: the modules' bytecode is
read from ``__pycache__`` (written by the first run), as an installed package's would be.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "src"
COMMAND = "from zerosum.cli import entry; entry()"
#: what any Numba program imports before its first line (``--floor``)
FLOOR = "import numpy, numba"
#: fields of the solve's JSON that are times, so differ between runs
TIMING_FIELDS = frozenset({"compile_s", "solve_s", "seconds", "elapsed_s", "wall_s", "time_s"})
#: module -> (attribute path, part label) wrapped as the module loads; a label ending in ":" is
#: followed by the called dispatcher's function name (a kernel's first call)
PARTS = {
    "numba.core.base": [("BaseContext.refresh", "Numba's registry refresh")],
    "numba.core.dispatcher": [("Dispatcher._compile_for_args", "kernel:")],
    "zerosum.cli.imperfect": [("load_spot_game", "the game (spot file, ranges, betting)"),
                              ("emit_json", "the JSON output")],
    "zerosum.cli.common": [("load_from_cli", "the game (--param)")],
    "zerosum.public_tree.evaluators.sweep": [("showdown_prefix_arrays", "the showdown's prefix-sum indices")],
    "zerosum.public_tree.passes": [("terminal_batches", "the terminal batches"),
                                   ("runout_plan", "the all-in runouts' matrices")],
    "zerosum.public_tree.solver": [("PublicTreeSolver.iterate", "the iterations"),
                                   ("PublicTreeSolver.checkpoint", "the checks")],
    "zerosum.cli.public_tree": [("public_tree_with_progress", "the tree"),
                                ("make_public_solver", "the solver's set-up"),
                                ("run_iterations", "the iteration and its checks"),
                                ("public_result", "the result (sizes, first actions)")],
}

#: the timed process of the breakdown: wraps the functions of PARTS (and the import system's
#: ``_find_and_load``) as their modules load, keeps each part's time exclusive of the parts run
#: inside it, and writes the totals to the file named by ZEROSUM_STARTUP_OUT at exit
PROBE = r"""
import sys, time
T0 = (time.perf_counter(), time.process_time())
import atexit, os, importlib._bootstrap as boot
PARTS = %(parts)r
TOTALS, STACK, WRAPPED = {}, [], set()

def timed(label_of, fn, is_import=False):
    def wrapper(*args, **kwargs):
        label = label_of(args)
        STACK.append([time.perf_counter(), time.process_time(), 0.0, 0.0, is_import])
        try:
            return fn(*args, **kwargs)
        finally:
            w0, c0, wi, ci, _ = STACK.pop()
            w, c = time.perf_counter() - w0, time.process_time() - c0
            t = TOTALS.setdefault(label, [0.0, 0.0, 0])
            t[0] += w - wi; t[1] += c - ci; t[2] += 1
            if STACK:
                STACK[-1][2] += w; STACK[-1][3] += c
    return wrapper

def labeller(label, fn):
    if not label.endswith(":"):
        return lambda a: label
    return lambda a: label + " " + getattr(getattr(a[0], "py_func", fn), "__name__", "?")

def wrap(module):
    for path, label in PARTS.get(module.__name__, ()):
        owner, _, attr = path.rpartition(".")
        target = module
        for name in filter(None, owner.split(".")):
            target = getattr(target, name)
        fn = getattr(target, attr)
        setattr(target, attr, timed(labeller(label, fn), fn))

find_and_load = boot._find_and_load
def _find_and_load(name, import_):
    if STACK and not STACK[-1][4]:  # inside a timed part: the import is that part's
        module = find_and_load(name, import_)
    else:
        module = timed(lambda a: "import " + name.partition(".")[0], find_and_load, True)(name, import_)
    if name in PARTS and name not in WRAPPED:  # (importlib.import_module comes here for loaded ones too)
        WRAPPED.add(name)
        wrap(module)
    return module
boot._find_and_load = _find_and_load

def report():
    end = (time.perf_counter(), time.process_time())
    with open(os.environ["ZEROSUM_STARTUP_OUT"], "w") as f:
        f.write(repr({"t0": T0, "end": end, "parts": TOTALS}))
atexit.register(report)
sys.argv[0] = "zerosum"
%(command)s
"""


def default_spot(folder: str) -> str:
    """The warm-up's river spot written to ``folder``: its path."""
    sys.path.insert(0, str(HERE))
    from zerosum.cli.warmup import SPOTS

    path = os.path.join(folder, "river.json")
    with open(path, "w") as f:
        json.dump({"name": "bench-startup-river", **SPOTS["river"]}, f)
    return path


def run_once(src: str, args: list[str], code: str = COMMAND, extra_env: dict | None = None) -> dict:
    """One process of ``code`` with ``args`` on ``src``: wall and CPU seconds, its stdout, its
    start and end on the monotonic clock (the probe's own clock)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=src, **(extra_env or {}))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    run = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, check=False)
    end = time.perf_counter()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        raise SystemExit(f"the command failed ({run.returncode}) on {src}:\n{run.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": end - start, "cpu": cpu, "stdout": run.stdout, "start": start, "end": end}


def comparable(stdout: str) -> dict:
    """The solve's JSON without its timing fields."""
    def strip(o):
        if isinstance(o, dict):
            return {k: strip(v) for k, v in o.items() if k not in TIMING_FIELDS}
        if isinstance(o, list):
            return [strip(v) for v in o]
        return o
    return strip(json.loads(stdout))


def breakdown_once(src: str, args: list[str], folder: str) -> dict:
    """One timed process (:data:`PROBE`): ``{part: (wall s, CPU s)}``, exclusive, summing to the whole."""
    import ast

    out = os.path.join(folder, "parts.txt")
    probe = PROBE % {"parts": {m: [tuple(p) for p in v] for m, v in PARTS.items()}, "command": COMMAND}
    run = run_once(src, args, probe, {"ZEROSUM_STARTUP_OUT": out})
    with open(out) as f:
        data = ast.literal_eval(f.read())
    (w0, c0), (w1, c1) = data["t0"], data["end"]
    rows = {"interpreter start": (w0 - run["start"], c0)}
    for label, (w, c, _) in data["parts"].items():
        if label.startswith("import "):
            top = label.split()[1]
            label = "import (standard library)" if top in sys.stdlib_module_names else f"import {top}"
        elif label.startswith("kernel: "):
            label = f"kernel {label.split()[1]} (first call)"
        rows[label] = tuple(a + b for a, b in zip(rows.get(label, (0.0, 0.0)), (w, c)))
    timed_w = sum(w for k, (w, _) in rows.items() if k != "interpreter start")
    timed_c = sum(c for k, (_, c) in rows.items() if k != "interpreter start")
    rows["the rest of the command"] = (w1 - w0 - timed_w, c1 - c0 - timed_c)
    rows["the exit"] = (run["end"] - w1, run["cpu"] - c1)
    rows["whole process"] = (run["wall"], run["cpu"])
    return rows


def medians(samples: list[dict]) -> dict:
    """Each part's median wall and CPU milliseconds over the runs (0 where a run lacks it)."""
    labels = list(dict.fromkeys(k for s in samples for k in s))
    return {k: [round(1000 * statistics.median(s.get(k, (0.0, 0.0))[i] for s in samples), 1) for i in (0, 1)]
            for k in labels}


def _order(label: str) -> tuple:
    first = ("interpreter start",)
    last = ("the game", "the tree", "the solver", "the iteration", "the result", "the JSON", "the rest", "the exit",
            "whole process")
    if label in first:
        return (0, label)
    if label.startswith("import"):
        return (1, label)
    if label.startswith(("Numba", "kernel")):
        return (2, label)
    return (3, next((i for i, p in enumerate(last) if label.startswith(p)), 0), label)


def print_table(result: dict) -> None:
    """The whole-process figures, then the breakdown as a table (ms)."""
    print(f"spot {result['spot']}: {result['runs']} runs each, load average {result['load_before']} -> "
          f"{result['load_after']}")
    for name, r in result["trees"].items():
        print(f"  {name:9s} wall {r['wall_median']:.3f} s (least {min(r['walls']):.3f}), "
              f"CPU {r['cpu_median']:.3f} s (least {min(r['cpus']):.3f})  [{r['src']}]")
    if "floor" in result:
        f = result["floor"]
        print(f"  floor     wall {f['wall_median']:.3f} s, CPU {f['cpu_median']:.3f} s  (python -c \"{FLOOR}\"); above it: "
              + ", ".join(f"{n} {r['wall_median'] - f['wall_median']:.3f} s wall" for n, r in result["trees"].items()))
    if "same_output" in result:
        print(f"  same output (timing fields aside): {result['same_output']}")
    if not result.get("breakdown"):
        return
    names = list(result["breakdown"])
    labels = sorted(dict.fromkeys(k for b in result["breakdown"].values() for k in b), key=_order)
    print(f"\nbreakdown, medians of {result['breakdown_runs']} runs (ms, wall / CPU)")
    print(f"  {'part':52s}" + "".join(f"{n:>20s}" for n in names))
    for label in labels:
        cells = "".join("{:>20s}".format("{:.1f} / {:.1f}".format(*result["breakdown"][n].get(label, (0, 0))))
                        for n in names)
        print(f"  {label:52s}{cells}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spot", default=None, help="a spot file (default: the warm-up's river)")
    ap.add_argument("--runs", type=int, default=9, help="whole-process runs of each tree")
    ap.add_argument("--breakdown", type=int, default=5, help="timed runs of each tree for the breakdown (0: none)")
    ap.add_argument("--baseline", default=None, help="another tree's src folder, run in turn with this one")
    ap.add_argument("--iterations", "-n", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--args", default=None,
                    help="the zerosum arguments instead of a spot's (e.g. \"solve holdem --param board=Ks7d2c9h -n 1 --json\")")
    ap.add_argument("--floor", action="store_true", help='each round also times python -c "import numpy, numba"')
    opts = ap.parse_args()
    trees = {"this": str(HERE)}
    if opts.baseline:
        trees["baseline"] = str(Path(opts.baseline).resolve())
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as folder:
        spot = opts.spot or default_spot(folder)
        args = opts.args.split() if opts.args else ["solve", "holdem", "--spot", spot, "-n", str(opts.iterations),
                                                    "--json"]
        for src in trees.values():  # bytecode written, kernels loaded once: not counted
            run_once(src, args)
        load_before = [round(x, 2) for x in os.getloadavg()]
        runs = {name: [] for name in trees}
        floor = []
        for _ in range(opts.runs):
            for name, src in trees.items():
                runs[name].append(run_once(src, args))
            if opts.floor:
                # (one BLAS thread, as the console script sets it before NumPy loads: else OpenBLAS's
                # threads start and spin, and the floor's CPU exceeds its wall)
                floor.append(run_once(str(HERE), [], code=FLOOR, extra_env={"OPENBLAS_NUM_THREADS": "1"}))
        parts = {name: [] for name in trees}
        for _ in range(opts.breakdown):
            for name, src in trees.items():
                parts[name].append(breakdown_once(src, args, folder))
        load_after = [round(x, 2) for x in os.getloadavg()]
    result = {"spot": opts.spot or "the warm-up's river", "runs": opts.runs, "load_before": load_before,
              "load_after": load_after, "breakdown_runs": opts.breakdown, "trees": {}}
    for name, src in trees.items():
        walls, cpus = [r["wall"] for r in runs[name]], [r["cpu"] for r in runs[name]]
        result["trees"][name] = {"src": src, "wall_median": statistics.median(walls),
                                 "cpu_median": statistics.median(cpus), "walls": walls, "cpus": cpus}
    if floor:
        result["floor"] = {"command": FLOOR, "wall_median": statistics.median(r["wall"] for r in floor),
                           "cpu_median": statistics.median(r["cpu"] for r in floor)}
    if opts.baseline:
        result["same_output"] = comparable(runs["this"][0]["stdout"]) == comparable(runs["baseline"][0]["stdout"])
    if opts.breakdown:
        result["breakdown"] = {name: medians(parts[name]) for name in trees}
    if opts.json:
        print(json.dumps(result, indent=1))
    else:
        print_table(result)


if __name__ == "__main__":
    main()
