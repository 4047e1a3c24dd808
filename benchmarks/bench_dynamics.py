"""One step of the Part 3 dynamics (exact action values for both players + update) against one
CFR+ iteration, ours and OpenSpiel's, in the same run.  Medians of several repetitions.

    .venv/bin/python benchmarks/bench_dynamics.py [--json] [--repeats 7] [--steps 200]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import zerosum
from zerosum.compiled import compiled
from zerosum.solvers.cfr import CFRPlusSolver
from zerosum.solvers.dynamics import IteratedBestResponse, MagnetDynamics, MirrorDescent
from zerosum.solvers.mmd import MMDSolver


def per_step(cls, game, steps: int, repeats: int) -> float:
    """Median seconds per step over ``repeats`` blocks of ``steps`` steps (one warm-up block)."""
    solver = cls(game)
    solver.iterate(steps)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        solver.iterate(steps)
        times.append((time.perf_counter() - t0) / steps)
    return statistics.median(times)


def openspiel_cfr_plus(name: str, steps: int, repeats: int):
    try:
        import pyspiel
    except ImportError:
        return None
    solver = pyspiel.CFRPlusSolver(pyspiel.load_game(name))
    solver.evaluate_and_update_policy()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(steps):
            solver.evaluate_and_update_policy()
        times.append((time.perf_counter() - t0) / steps)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--steps", type=int, default=200)
    args = ap.parse_args()
    out = {"repeats": args.repeats, "steps_per_repeat": args.steps, "games": {}}
    for gid, peer in (("leduc", None), ("openspiel:leduc_poker", "leduc_poker")):
        g = compiled(zerosum.load_game(gid))
        ours = {
            "cfr+ iteration (zerosum)": per_step(CFRPlusSolver, g, args.steps, args.repeats),
            "mirror descent step": per_step(MirrorDescent, g, args.steps, args.repeats),
            "magnet step": per_step(MagnetDynamics, g, args.steps, args.repeats),
            "best response step": per_step(IteratedBestResponse, g, args.steps, args.repeats),
            "dilated mmd step": per_step(MMDSolver, g, args.steps, args.repeats),
        }
        if peer:
            ours["cfr+ iteration (OpenSpiel C++)"] = openspiel_cfr_plus(peer, max(args.steps // 10, 5),
                                                                        args.repeats)
        ref = ours["cfr+ iteration (zerosum)"]
        out["games"][gid] = {k: {"us": None if v is None else v * 1e6,
                                 "ratio_to_zerosum_cfr_plus": None if v is None else v / ref}
                             for k, v in ours.items()}
    if args.json:
        print(json.dumps(out))
        return
    for gid, rows in out["games"].items():
        print(f"== {gid} (median of {args.repeats} x {args.steps} steps) ==")
        for k, v in rows.items():
            if v["us"] is None:
                print(f"  {k:32s}  not available")
            else:
                print(f"  {k:32s} {v['us']:10.1f} us   x{v['ratio_to_zerosum_cfr_plus']:.2f} of zerosum CFR+")


if __name__ == "__main__":
    main()
