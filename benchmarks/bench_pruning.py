"""Pruning in the public tree's pass (``--option prune=1``, issue 53 item 2): time per iteration
pruned and unpruned, the share of node visits pruned, and the exploitability of both runs at the
same checkpoints, per hold'em spot.

    .venv/bin/python benchmarks/bench_pruning.py [--spots NAME,...] [--iters 200] [--dtype float64]
        [--check-every 50] [--no-isomorphism] [--json]
    .venv/bin/python benchmarks/bench_pruning.py --traverser [--spots ...] [--iters 200]

Per spot (a file of ``../shared/data/poker-spots``, by name or path; default the two turns, the
flop with ``--spots texassolver-sample-flop-qsjh2h --iters 6``): two DCFR solvers (``restart=4``,
the CLI's default variant), one with ``prune=True``, built on one tree and run in lockstep,
alternating which goes first at each iteration (so a change of the machine's load hits both
alike); the medians of their seconds per iteration, the pruned run's ``pruned_fraction``, and at
every ``--check-every`` iterations both runs' exploitability (NashConv / 2, as a fraction of the
pot) and their ratio.  The machine's load average is printed before and after (this machine is
shared: compare the medians of one run only).  The first two iterations compile and are not timed.
The trees have suit isomorphism, as the CLI builds them (``--no-isomorphism``: the whole tree).

``--traverser``: what regret-based pruning of the traverser's own actions could skip instead
(:mod:`bench_pruning_rbp`, NumPy outside the pass: slow, the turns only).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPOTS_DIR = ROOT.parent / "shared" / "data" / "poker-spots"
DEFAULT_SPOTS = ("limit-turn-ks7d2c9h", "pfs-example-turn-td9d6h-qc")
sys.path.insert(0, str(ROOT / "src"))


def spot_path(name: str) -> Path:
    path = Path(name)
    return path if path.suffix == ".json" else SPOTS_DIR / f"{name}.json"


def spot_tree(path: Path, isomorphism: bool = True):
    """The spot's public tree, with suit isomorphism as ``zerosum solve holdem --spot`` builds it."""
    from zerosum.games import load_game
    from zerosum.poker.spots import read_spot
    from zerosum.public_tree.compile import public_tree

    return public_tree(load_game("holdem", **read_spot(str(path))), isomorphism=isomorphism)


def make_solvers(path: Path, dtype: str, isomorphism: bool = True):
    """The spot's tree and two DCFR (restart=4) solvers on it: unpruned, pruned."""
    from zerosum.public_tree.solver import public_solver

    tree = spot_tree(path, isomorphism)
    solvers = [public_solver("dcfr", tree, dtype=dtype, restart=4, prune=prune) for prune in (False, True)]
    for s in solvers:
        s.light_checks = True  # a checkpoint: the average's NashConv (two best responses), as a target reads
    return tree, solvers


def timed(solver) -> float:
    t0 = time.perf_counter()
    solver.iterate(1)
    return time.perf_counter() - t0


def run_spot(path: Path, iters: int, dtype: str, check_every: int, isomorphism: bool = True) -> dict:
    """One spot's row: median seconds per iteration of each run, the pruned share, the checks."""
    tree, (plain, pruned) = make_solvers(path, dtype, isomorphism)
    for s in (plain, pruned):  # compile (and the first iteration's pure strategies), not timed
        s.iterate(2)
    times = {"plain": [], "pruned": []}
    checks = []
    for t in range(3, iters + 1):
        order = (("plain", plain), ("pruned", pruned)) if t % 2 else (("pruned", pruned), ("plain", plain))
        for label, s in order:
            times[label].append(timed(s))
        if t % check_every == 0 or t == iters:
            a, b = (s.checkpoint()["nash_conv_average"] / 2 / tree.pot for s in (plain, pruned))
            checks.append({"iteration": t, "plain": a, "pruned": b, "ratio": b / a if a else 1.0})
    med = {k: statistics.median(v) for k, v in times.items()}
    return {"spot": path.stem, "nodes": int(tree.n_nodes), "dtype": dtype, "iterations": iters,
            "s_per_iter_plain": med["plain"], "s_per_iter_pruned": med["pruned"],
            "speedup": med["plain"] / med["pruned"], "pruned_fraction": pruned.pruned_fraction, "checks": checks,
            "max_ratio": max(c["ratio"] for c in checks)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spots", default=",".join(DEFAULT_SPOTS))
    ap.add_argument("--iters", type=int, default=200)
    ap.add_argument("--dtype", default="float64")
    ap.add_argument("--check-every", type=int, default=50)
    ap.add_argument("--no-isomorphism", action="store_true", help="the whole tree (the CLI's default is on)")
    ap.add_argument("--traverser", action="store_true",
                    help="instead: how often RBP on the traverser's own actions could skip (bench_pruning_rbp)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.traverser:
        from bench_pruning_rbp import main as traverser_main

        traverser_main(args.spots.split(","), args.iters, spot_tree)
        return
    print(f"load average before: {os.getloadavg()}", flush=True)
    rows = []
    for name in args.spots.split(","):
        row = run_spot(spot_path(name), args.iters, args.dtype, args.check_every, not args.no_isomorphism)
        rows.append(row)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(f"{row['spot']} ({row['nodes']} nodes, {row['dtype']}, {row['iterations']} iterations): "
                  f"{row['s_per_iter_plain'] * 1e3:.1f} ms unpruned, {row['s_per_iter_pruned'] * 1e3:.1f} ms pruned "
                  f"(x{row['speedup']:.3f}); visits pruned {row['pruned_fraction']:.2%}; exploitability ratio "
                  f"pruned/unpruned at most {row['max_ratio']:.6f}", flush=True)
            for c in row["checks"]:
                print(f"    iteration {c['iteration']}: {c['plain']:.6%} / {c['pruned']:.6%} of the pot", flush=True)
        print(f"load average: {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
