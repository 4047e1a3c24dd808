"""One step of the Part 3 dynamics (exact action values for both players + update) against one
CFR+ iteration, ours and OpenSpiel's, in the same run.  Medians of several repetitions of CPU
time (``time.process_time``: less sensitive than wall time to other jobs on a shared machine).

A step is one fused Numba kernel call per player (see ``zerosum.core.action_values``); the first call
in a fresh process loads (or, without a cache, compiles) the kernels: that time is reported
separately ("first step") and kept out of the medians.

    .venv/bin/python benchmarks/bench_dynamics.py [--json] [--repeats 7] [--steps 200]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import zerosum
from zerosum.core.compile import compiled
from zerosum.solvers.cfr import CFRPlusSolver
from zerosum.solvers.dynamics import IteratedBestResponse, MagnetDynamics, MirrorDescent
from zerosum.solvers.mmd import MMDSolver, ProximalMagnet


def per_step(cls, game, steps: int, repeats: int, first: dict | None = None) -> float:
    """Median CPU seconds per step over ``repeats`` blocks of ``steps`` steps (one warm-up block);
    the first step's time goes to ``first[cls.name]``."""
    solver = cls(game)
    t0 = time.perf_counter()
    solver.iterate(1)
    if first is not None:
        first[cls.name] = time.perf_counter() - t0
    solver.iterate(steps)
    times = []
    for _ in range(repeats):
        t0 = time.process_time()
        solver.iterate(steps)
        times.append((time.process_time() - t0) / steps)
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
        t0 = time.process_time()
        for _ in range(steps):
            solver.evaluate_and_update_policy()
        times.append((time.process_time() - t0) / steps)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--steps", type=int, default=200)
    args = ap.parse_args()
    first: dict = {}
    out = {"repeats": args.repeats, "steps_per_repeat": args.steps, "clock": "process_time",
           "first_step_s": first, "games": {}}
    for gid, peer in (("leduc", None), ("openspiel:leduc_poker", "leduc_poker")):
        g = compiled(zerosum.load_game(gid))
        f = first if not first else None  # first-call (kernel load/compile) times: first game only
        ours = {
            "cfr+ iteration (zerosum)": per_step(CFRPlusSolver, g, args.steps, args.repeats, f),
            "mirror descent step": per_step(MirrorDescent, g, args.steps, args.repeats, f),
            "magnet step": per_step(MagnetDynamics, g, args.steps, args.repeats, f),
            "moving magnet (proximal) step": per_step(ProximalMagnet, g, args.steps, args.repeats, f),
            "best response step": per_step(IteratedBestResponse, g, args.steps, args.repeats, f),
            "dilated mmd step": per_step(MMDSolver, g, args.steps, args.repeats, f),
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
    print("first step in this process (kernel load or compile), s: "
          + ", ".join(f"{k} {v:.3f}" for k, v in first.items()))
    for gid, rows in out["games"].items():
        print(f"== {gid} (median CPU time of {args.repeats} x {args.steps} steps) ==")
        for k, v in rows.items():
            if v["us"] is None:
                print(f"  {k:32s}  not available")
            else:
                print(f"  {k:32s} {v['us']:10.1f} us   x{v['ratio_to_zerosum_cfr_plus']:.2f} of zerosum CFR+")


if __name__ == "__main__":
    main()
