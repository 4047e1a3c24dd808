"""Pruning in the public tree's pass (``--option prune=1``, issue 53 item 2): time per iteration
pruned and unpruned, the share of node visits pruned, and the exploitability of both runs at the
same checkpoints, per hold'em spot.

    .venv/bin/python benchmarks/bench_pruning.py [--spots NAME,...] [--iters 200] [--dtype float64]
        [--check-every 50] [--no-isomorphism] [--json]
    .venv/bin/python benchmarks/bench_pruning.py --traverser [--spots ...] [--iters 200]
    .venv/bin/python benchmarks/bench_pruning.py --pass-at 100 [--repeats 40] [--spots ...]

Per spot (a file of ``../shared/data/poker-spots``, by name or path; default the two turns, the
flop with ``--spots texassolver-sample-flop-qsjh2h --iters 6``): two DCFR solvers (``restart=4``,
the CLI's default variant), one with ``prune=True``, built on one tree and run in lockstep,
alternating which goes first at each iteration (so a change of the machine's load hits both
alike); the medians of their wall and CPU seconds per iteration, the pruned run's ``pruned_fraction``, and at
every ``--check-every`` iterations both runs' exploitability (NashConv / 2, as a fraction of the
pot) and their ratio.  The machine's load average is printed before and after (this machine is
shared: compare the medians of one run only).  The first two iterations compile and are not timed.
``--swap``: the two solvers trade roles every two iterations (each solver's own arrays then weigh
on both sides alike).  ``--control`` runs the same comparison with both unpruned (its ratio is the method's bias and
noise on this machine).  The trees have suit isomorphism, as the CLI builds them (``--no-isomorphism``: the whole tree).

``--pass-at T``: each player's update pass alone at iteration T, run ``--repeats`` times from the
same state, pruned, unpruned and unpruned again (a control), in turn: CPU medians, finer than
whole iterations.

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


def make_solvers(path: Path, dtype: str, isomorphism: bool = True, control: bool = False):
    """The spot's tree and two DCFR (restart=4) solvers on it: unpruned, pruned (``control``: both
    unpruned, what the same comparison gives with no difference: its bias and noise)."""
    from zerosum.public_tree.solver import public_solver

    tree = spot_tree(path, isomorphism)
    solvers = [public_solver("dcfr", tree, dtype=dtype, restart=4, prune=prune) for prune in (False, not control)]
    for s in solvers:
        s.light_checks = True  # a checkpoint: the average's NashConv (two best responses), as a target reads
    return tree, solvers


def timed(solver) -> tuple[float, float]:
    """One iteration's wall and CPU seconds (CPU: less moved by the other processes of a shared machine)."""
    t0, c0 = time.perf_counter(), time.process_time()
    solver.iterate(1)
    return time.perf_counter() - t0, time.process_time() - c0


def run_spot(path: Path, iters: int, dtype: str, check_every: int, isomorphism: bool = True,
             control: bool = False, swap: bool = False) -> dict:
    """One spot's row: median seconds per iteration of each run, the pruned share, the checks.
    ``swap``: the two solvers trade roles every two iterations (pruning is exact, so both stay the
    same run), which cancels what a solver's own arrays cost (their place in memory: the control
    showed 1-4 % between two unpruned solvers); the checks then compare two mixed runs."""
    tree, (plain, pruned) = make_solvers(path, dtype, isomorphism, control)
    both = (plain, pruned)
    for s in (plain, pruned):  # compile (and the first iteration's pure strategies), not timed
        s.iterate(2)
    times = {"plain": [], "pruned": []}
    cpu = {"plain": [], "pruned": []}
    checks = []
    for t in range(3, iters + 1):
        first, second = (pruned, plain) if swap and t % 4 >= 2 else (plain, pruned)
        first.prune, second.prune = False, not control
        order = (("plain", first), ("pruned", second)) if t % 2 else (("pruned", second), ("plain", first))
        for label, s in order:
            wall, secs = timed(s)
            times[label].append(wall)
            cpu[label].append(secs)
        if t % check_every == 0 or t == iters:
            a, b = (s.checkpoint()["nash_conv_average"] / 2 / tree.pot for s in (plain, pruned))
            checks.append({"iteration": t, "plain": a, "pruned": b, "ratio": b / a if a else 1.0})
    med = {k: statistics.median(v) for k, v in times.items()}
    cmed = {k: statistics.median(v) for k, v in cpu.items()}
    return {"spot": path.stem, "nodes": int(tree.n_nodes), "dtype": dtype, "iterations": iters,
            "s_per_iter_plain": med["plain"], "s_per_iter_pruned": med["pruned"],
            "speedup": med["plain"] / med["pruned"], "cpu_per_iter_plain": cmed["plain"],
            "cpu_per_iter_pruned": cmed["pruned"], "cpu_speedup": cmed["plain"] / cmed["pruned"],
            "pruned_fraction": sum(s.visits[1] for s in both) / (sum(s.visits[0] for s in both) / 2), "checks": checks,
            "max_ratio": max(c["ratio"] for c in checks)}


def pass_timing(path: Path, iters: int, repeats: int, dtype: str) -> dict:
    """One pass timed alone: a DCFR run taken to ``iters`` iterations, then each player's update
    pass run ``repeats`` times from the same state (its sums restored before each call, outside
    the timing), pruned, unpruned and unpruned again (the control), in turn; CPU medians."""
    from zerosum.public_tree import kernels
    from zerosum.public_tree.arrays import pass_step
    from zerosum.public_tree.solver import public_solver

    s = public_solver("dcfr", spot_tree(path), dtype=dtype, restart=4)
    s.iterate(iters)
    v, t = s.variant, iters + 1
    ws, out = s.workspace, {"spot": path.stem, "iteration": t}
    for p in (0, 1):
        saved = (s.regrets[p].copy(), s.average[p].copy())
        secs = {"pruned": [], "plain": [], "control": []}
        for _ in range(repeats):
            for label, times in secs.items():
                s.regrets[p][:], s.average[p][:] = saved
                c0 = time.process_time()
                step = pass_step(p, kernels.UPDATE, v.average_weight(t), v.regret_rule(t), prune=label == "pruned")
                ws.walk(step, s.regrets[p], s.regrets[1 - p], s.average[p])
                times.append(time.process_time() - c0)
                if label == "pruned":
                    out[f"p{p}_pruned_visits"] = ws.pruned / ws.visited
        med = {k: statistics.median(x) for k, x in secs.items()}
        out[f"p{p}_ms"] = {k: round(x * 1e3, 3) for k, x in med.items()}
        out[f"p{p}_speedup"] = med["plain"] / med["pruned"]
        out[f"p{p}_control"] = med["plain"] / med["control"]
        s.regrets[p][:], s.average[p][:] = saved
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spots", default=",".join(DEFAULT_SPOTS))
    ap.add_argument("--iters", type=int, default=200)
    ap.add_argument("--dtype", default="float64")
    ap.add_argument("--check-every", type=int, default=50)
    ap.add_argument("--control", action="store_true", help="both runs unpruned: the comparison's own bias and noise")
    ap.add_argument("--swap", action="store_true", help="the solvers trade roles every two iterations")
    ap.add_argument("--no-isomorphism", action="store_true", help="the whole tree (the CLI's default is on)")
    ap.add_argument("--traverser", action="store_true",
                    help="instead: how often RBP on the traverser's own actions could skip (bench_pruning_rbp)")
    ap.add_argument("--pass-at", type=int, default=0,
                    help="instead: each player's pass timed alone at this iteration (--repeats times)")
    ap.add_argument("--repeats", type=int, default=40)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.pass_at:
        print(f"load average before: {os.getloadavg()}", flush=True)
        for name in args.spots.split(","):
            print(json.dumps(pass_timing(spot_path(name), args.pass_at, args.repeats, args.dtype)), flush=True)
        print(f"load average: {os.getloadavg()}", flush=True)
        return
    if args.traverser:
        from bench_pruning_rbp import main as traverser_main

        traverser_main(args.spots.split(","), args.iters, spot_tree)
        return
    print(f"load average before: {os.getloadavg()}", flush=True)
    rows = []
    for name in args.spots.split(","):
        row = run_spot(spot_path(name), args.iters, args.dtype, args.check_every, not args.no_isomorphism,
                       args.control, args.swap)
        rows.append(row)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(f"{row['spot']} ({row['nodes']} nodes, {row['dtype']}, {row['iterations']} iterations): "
                  f"{row['s_per_iter_plain'] * 1e3:.1f} ms unpruned, {row['s_per_iter_pruned'] * 1e3:.1f} ms pruned "
                  f"(x{row['speedup']:.3f}); CPU {row['cpu_per_iter_plain'] * 1e3:.1f} ms, "
                  f"{row['cpu_per_iter_pruned'] * 1e3:.1f} ms (x{row['cpu_speedup']:.3f}); visits pruned {row['pruned_fraction']:.2%}; exploitability ratio "
                  f"pruned/unpruned at most {row['max_ratio']:.6f}", flush=True)
            for c in row["checks"]:
                print(f"    iteration {c['iteration']}: {c['plain']:.6%} / {c['pruned']:.6%} of the pot", flush=True)
        print(f"load average: {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
