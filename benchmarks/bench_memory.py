"""Peak memory of a hold'em solve, whole processes and step by step (issue 53, item 5).

    .venv/bin/python benchmarks/bench_memory.py [SPOT ...] [--threads 1,2] [-n 2] [--steps] [--json]

SPOT: a spot file, or a name in ../shared/data/poker-spots (default: every spot there).  The peak
resident memory (GNU time's ``%M``, per process: see ``bench_poker_solvers.run_measured`` for why
not ``os.wait4``) of a bare ``python -c pass``, ``import zerosum``, ``import numba``, and per spot
and thread count ``zerosum solve holdem --spot SPOT -n N --json`` (its peak is reached in the first
iteration and check: the sums are touched then), with the solve's own ``bytes`` (solver + tree) and
its value and NashConv (to compare two trees' runs).

``--steps``: per spot, one process that runs the solve's steps as the command line does (Numba's
start as :mod:`zerosum.cli.compiling` makes it) and reads its resident memory (``VmRSS``) and
high-water mark (``VmHWM``) after each: the imports, the game, the tree (its first kernel loaded
from Numba's cache), the solver's set-up, the first iteration (the sums touched, the pass loaded),
the first check (its float64 pass), and one more of each.  The kernels must be in Numba's cache
(``zerosum warm-up``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPOTS_DIR = ROOT.parent / "shared" / "data" / "poker-spots"
TIME = "/usr/bin/time"
MIB = 2 ** 20
CLI = "import sys; sys.argv[0] = 'zerosum'; from zerosum.cli import entry; entry()"


def spot_path(name: str) -> Path:
    path = Path(name)
    if path.exists():
        return path
    found = SPOTS_DIR / (name if name.endswith(".json") else name + ".json")
    if not found.exists():
        raise SystemExit(f"no spot {name!r} (a file, or a name in {SPOTS_DIR})")
    return found


def peak_of(args: list[str]) -> tuple[float, str]:
    """Peak RSS in MiB of ``python ARGS`` (GNU time's ``%M``) and its stdout."""
    if not os.access(TIME, os.X_OK):
        raise SystemExit(f"{TIME} (GNU time) is needed for a process's own peak")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        out = subprocess.run([TIME, "-f", "%M", "-o", tf.name, sys.executable, *args], env=env, cwd=ROOT,
                             capture_output=True, text=True, check=True)
        return int(tf.read().split()[-1]) / 1024, out.stdout


def whole_processes(spots: list[Path], threads: list[int], iterations: int) -> dict:
    out = {"python": peak_of(["-c", "pass"])[0], "import zerosum": peak_of(["-c", "import zerosum"])[0],
           "import numba": peak_of(["-c", "import numba"])[0], "solves": []}
    for spot in spots:
        for t in threads:
            peak, text = peak_of(["-c", CLI, "solve", "holdem", "--spot", str(spot), "-n", str(iterations), "--json",
                                  "--option", f"threads={t}"])
            result = json.loads(text)
            out["solves"].append({"spot": spot.stem, "threads": t, "peak_mib": peak,
                                  "solver_and_tree_mib": result["bytes"] / MIB, "value": result["value"],
                                  "nash_conv": result["nash_conv"]})
    return out


def _status() -> tuple[float, float]:
    with open("/proc/self/status") as f:
        got = {line.split(":")[0]: int(line.split()[1]) / 1024 for line in f if line.startswith(("VmRSS", "VmHWM"))}
    return got["VmRSS"], got["VmHWM"]


def steps(spot: str, threads: int) -> dict:
    """The child of ``--steps``: (step, VmRSS, VmHWM) in MiB after each step of the solve."""
    marks = [("python", *_status())]
    from zerosum.cli.compiling import install

    install()  # Numba's start as the command line has it (zerosum.cli.numba_start)
    import numpy  # noqa: F401

    marks.append(("import numpy", *_status()))
    import numba  # noqa: F401

    marks.append(("import numba", *_status()))
    from zerosum.poker import spots as spot_files
    from zerosum.poker.holdem import HoldemGame
    from zerosum.public_tree.compile import public_tree
    from zerosum.public_tree.solver import public_solver

    marks.append(("zerosum's modules", *_status()))
    with open(spot) as f:
        game = HoldemGame(**spot_files.spot_params(json.load(f)))
    marks.append(("the game", *_status()))
    tree = public_tree(game, isomorphism=True)
    marks.append(("the tree (its first kernel loaded)", *_status()))
    solver = public_solver("dcfr", tree, dtype="float32", threads=threads)
    marks.append(("the solver's set-up", *_status()))
    for k in (1, 2):
        solver.iterate(1)
        marks.append((f"iteration {k}", *_status()))
        row = solver.checkpoint()
        marks.append((f"check {k}", *_status()))
    return {"marks": marks, "solver_mib": solver.nbytes() / MIB, "tree_mib": tree.nbytes() / MIB,
            "value": row["value_average"], "nash_conv": row["nash_conv_average"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("spots", nargs="*", help="spot files or names in ../shared/data/poker-spots (default: all)")
    ap.add_argument("--threads", default="1,2", help="thread counts of the solves (default 1,2)")
    ap.add_argument("-n", "--iterations", type=int, default=2, help="iterations of each solve (default 2)")
    ap.add_argument("--steps", action="store_true", help="also the resident memory after each step, per spot")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--child-steps", nargs=2, metavar=("SPOT", "THREADS"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child_steps:
        print(json.dumps(steps(args.child_steps[0], int(args.child_steps[1]))))
        return
    spots = [spot_path(s) for s in args.spots] or sorted(SPOTS_DIR.glob("*.json"))
    threads = [int(t) for t in args.threads.split(",")]
    out = whole_processes(spots, threads, args.iterations)
    if args.steps:
        out["steps"] = {s.stem: json.loads(peak_of([__file__, "--child-steps", str(s), "1"])[1]) for s in spots}
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"peak MiB: python {out['python']:.1f}, import zerosum {out['import zerosum']:.1f}, "
          f"import numba {out['import numba']:.1f}")
    for row in out["solves"]:
        print(f"{row['spot']:40s} threads {row['threads']}: peak {row['peak_mib']:8.1f} MiB, solver + tree "
              f"{row['solver_and_tree_mib']:8.1f}, above them {row['peak_mib'] - row['solver_and_tree_mib']:6.1f}")
    for spot, got in out.get("steps", {}).items():
        print(f"\n{spot} (one thread): solver {got['solver_mib']:.1f} MiB, tree {got['tree_mib']:.1f}")
        before = 0.0
        for name, rss, hwm in got["marks"]:
            print(f"  {name:36s} VmRSS {rss:8.1f} (+{rss - before:7.1f})  VmHWM {hwm:8.1f}")
            before = rss


if __name__ == "__main__":
    main()
