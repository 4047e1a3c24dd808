"""External- and outcome-sampling MCCFR on openspiel:leduc_poker: zerosum's Numba kernels against
pyspiel's C++ ExternalSamplingMCCFRSolver / OutcomeSamplingMCCFRSolver, same game, same run.

Reports CPU microseconds per iteration (median over batches), the ratio, and the NashConv of the
average strategy after the same number of iterations (median over seeds; pyspiel's NashConv by
open_spiel.python.algorithms.exploitability.nash_conv, ours by zerosum's exact evaluation, the two agree on the same policy).  Also
the first-call time of the Numba kernels (loading the on-disk cache, or compiling) and memory
per information set.

    .venv/bin/python benchmarks/bench_mccfr.py [--json] [--iterations 100000] [--seeds 5] [--our-seeds 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import cpu_median, emit

import zerosum
from zerosum.core.compile import compiled
from zerosum.solvers.mccfr import ExternalSamplingSolver, OutcomeSamplingSolver

PEERS = {"es-mccfr": "ExternalSamplingMCCFRSolver", "os-mccfr": "OutcomeSamplingMCCFRSolver"}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", default="leduc_poker")
    ap.add_argument("--iterations", type=int, default=100000)
    ap.add_argument("--seeds", type=int, default=5, help="pyspiel runs for the NashConv median")
    ap.add_argument("--our-seeds", type=int, default=20, help="zerosum runs for the NashConv median")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    import pyspiel
    from open_spiel.python import policy as policy_lib
    from open_spiel.python.algorithms import exploitability

    game = zerosum.load_game(f"openspiel:{args.game}")
    cg = compiled(game)
    os_game = game.game
    rows = []
    for cls in (ExternalSamplingSolver, OutcomeSamplingSolver):
        t0 = time.perf_counter()
        cls(cg, seed=0).iterate(1)
        first_call = time.perf_counter() - t0
        ours = cls(cg, seed=0)
        ours.iterate(1000)
        ours_us = cpu_median(lambda s=ours: s.iterate(10000), repeats=7) / 10000 * 1e6
        peer_cls = getattr(pyspiel, PEERS[cls.name])
        theirs = peer_cls(os_game, seed=0)
        for _ in range(200):
            theirs.run_iteration()

        def peer_batch(s=theirs):
            for _ in range(500):
                s.run_iteration()

        theirs_us = cpu_median(peer_batch, repeats=7) / 500 * 1e6
        nc_ours, nc_theirs, n_ours = [], [], []
        for seed in range(args.our_seeds):
            rows_ = cls(cg, seed=seed + 1).run(args.iterations)
            nc_ours.append(rows_[-1]["nash_conv_average"])
            n_ours.append(rows_[-1]["nodes"])
        for seed in range(args.seeds):
            p = peer_cls(os_game, seed=seed + 1)
            for _ in range(args.iterations):
                p.run_iteration()
            avg = p.average_policy()
            table = policy_lib.tabular_policy_from_callable(os_game, lambda st, a=avg: dict(a.get_state_policy(st)))
            nc_theirs.append(float(exploitability.nash_conv(os_game, table)))
        rows.append({
            "solver": cls.name, "peer": f"pyspiel.{PEERS[cls.name]}", "iterations": args.iterations,
            "ours_us_per_iteration": ours_us, "peer_us_per_iteration": theirs_us,
            "speedup": theirs_us / ours_us,
            "ours_nash_conv_median": statistics.median(nc_ours), "peer_nash_conv_median": statistics.median(nc_theirs),
            "ours_nash_conv_range": [min(nc_ours), max(nc_ours)], "peer_nash_conv": nc_theirs,
            "ours_nodes_per_iteration": statistics.median(n_ours) / args.iterations,
            "first_call_s": first_call,
        })
    n_inf = sum(t.n_infosets for t in cg.treeplexes)
    solver = ExternalSamplingSolver(cg)
    solver_bytes = solver.regrets.nbytes + solver.average_sums.nbytes + solver._sigma.nbytes + \
        solver._values.nbytes + solver._arrays[1].nbytes
    tree_bytes = sum(a.nbytes for a in (cg.tree.player, cg.tree.first_child, cg.tree.n_children,
                                        cg.tree.edge_prob, cg.tree.payoff))
    extra = {"game": f"openspiel:{args.game}", "infosets": n_inf, "histories": cg.n_histories,
             "solver_bytes_per_infoset": solver_bytes / n_inf,
             "tree_bytes_per_infoset": tree_bytes / n_inf}
    emit(rows, "MCCFR: zerosum (Numba) vs pyspiel (C++), CPU time per iteration", args.json, extra)


if __name__ == "__main__":
    main()
