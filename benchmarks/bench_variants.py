"""CFR variants on Leduc: NashConv of the average strategy at 1,000 iterations and the CPU cost
of one iteration, next to CFR+'s, all in the same run (zerosum only: OpenSpiel's Python
LCFR/DCFR take ~0.2 s per Leduc iteration and are compared for exactness in the tests).

    python benchmarks/bench_variants.py [--game leduc] [--iterations 1000] [--json]
"""

from __future__ import annotations

import argparse
import statistics
import time

from common import emit

from zerosum import load_game
from zerosum.core.compile import compiled
from zerosum.solvers import SOLVERS
from zerosum.solvers.lp import LPSolver

VARIANTS = ("cfr", "cfr+", "lcfr", "dcfr", "pcfr+", "pdcfr+")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="leduc")
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5, help="timing batches per variant")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    cg = compiled(load_game(args.game))
    exact = LPSolver(cg).value
    rows = []
    for name in VARIANTS:
        solver = SOLVERS[name](cg)
        solver.iterate(5)  # warm-up
        batch = 100
        per_it = []
        for _ in range(args.repeat):  # CPU per iteration, interleaved batches
            s = SOLVERS[name](cg)
            c0 = time.process_time()
            s.iterate(batch)
            per_it.append((time.process_time() - c0) / batch)
        final = SOLVERS[name](cg).run(args.iterations)[-1]
        rows.append({"variant": name, "nash_conv_average": final["nash_conv_average"],
                     "nash_conv_current": final["nash_conv_current"],
                     "value_minus_lp": final["value_average"] - exact,
                     "cpu_ms_per_iteration": statistics.median(per_it) * 1e3})
    base = next(r["cpu_ms_per_iteration"] for r in rows if r["variant"] == "cfr+")
    for r in rows:
        r["cost_vs_cfr_plus"] = r["cpu_ms_per_iteration"] / base
    emit(rows, f"CFR variants on {cg.game_id}, {args.iterations} iterations (alternating updates)", args.json,
         {"lp_value": exact})


if __name__ == "__main__":
    main()
