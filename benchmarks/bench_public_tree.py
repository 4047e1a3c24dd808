"""Public tree against the history tree, same game, same run: CFR+ iteration and exact NashConv
(CPU-time medians; the sides take turns, a few consecutive calls each, round after round, and
each ratio is the median of the rounds' ratios, so that load changes on this shared machine
cancel), compile time and memory per information-set action.

    .venv/bin/python benchmarks/bench_public_tree.py [--json] [--ranks 13 --copies 4 --raises 8] [--leduc]
    .venv/bin/python benchmarks/bench_public_tree.py --turn Ks7d2c9h [--solver dcfr] [--dtype float32]

The peer is our own history tree (OpenSpiel has no such family member); ``--leduc`` adds the
Leduc member against pyspiel's C++ CFR+ on ``leduc_poker`` (the same game).
"""

from __future__ import annotations

import os

# one thread for BLAS: the history tree's NashConv otherwise runs NumPy's products on both cores,
# and CPU time then counts the second thread's work and its spinning (26 ms instead of 12-15 ms)
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from common import cpu_median, emit, interleaved, paired_ratio

from zerosum import load_game
from zerosum.core.compile import compile_game
from zerosum.core.evaluation import nash_conv_of_plans
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.solver import public_solver
from zerosum.solvers import SOLVERS


def _compare(game, repeats: int) -> dict:
    t0 = time.process_time()
    tree = public_tree(game)
    public_compile = time.process_time() - t0
    pub = public_solver("cfr+", tree)
    pub.iterate(3)  # warm-up (Numba compile)
    pub.checkpoint()
    single = public_solver("cfr+", tree, dtype="float32")
    ia = sum(tree.infoset_actions())
    row = {"game": game.id, "histories": tree.histories, "public_nodes": tree.n_nodes, "infoset_actions": ia,
           "public_compile_s": public_compile,
           "bytes_per_ia_f64": pub.nbytes() / ia, "bytes_per_ia_f32": single.nbytes() / ia,
           "state_bytes_per_ia_f64": sum(a.nbytes for a in pub.regrets + pub.average) / ia}
    t0 = time.process_time()
    cg = compile_game(game)
    row["history_compile_s"] = time.process_time() - t0
    row["history_bytes"] = cg.nbytes()
    hist = SOLVERS["cfr+"](cg)
    hist.iterate(3)

    def hist_nash_conv():  # the same two NashConvs as the public checkpoint
        xa, ya = hist.average_plans()
        nash_conv_of_plans(cg, xa, ya)
        nash_conv_of_plans(cg, *hist.plan)
        float(xa @ (cg.payoff @ ya))

    # the two sides in turn (a few consecutive calls each), round after round: a load change
    # mid-run hits both
    it = interleaved({"history": lambda: hist.iterate(1), "public": lambda: pub.iterate(1)}, repeats)
    nc = interleaved({"history": hist_nash_conv, "public": pub.checkpoint}, repeats)  # average + current
    med = statistics.median
    row.update({"history_iter_ms": 1e3 * med(it["history"]), "public_iter_ms": 1e3 * med(it["public"]),
                "iter_ratio": paired_ratio(it, "history", "public"),
                "history_nashconv_ms": 1e3 * med(nc["history"]), "public_nashconv_ms": 1e3 * med(nc["public"]),
                "nashconv_ratio": paired_ratio(nc, "history", "public")})
    return row


def _leduc_vs_openspiel(repeats: int) -> dict:
    import pyspiel

    tree = public_tree(load_game("poker"))
    pub = public_solver("cfr+", tree)
    pub.iterate(3)
    pub_iter = cpu_median(lambda: pub.iterate(1), repeats=repeats, inner=20)
    theirs = pyspiel.CFRPlusSolver(pyspiel.load_game("leduc_poker"))
    theirs.evaluate_and_update_policy()
    os_iter = cpu_median(theirs.evaluate_and_update_policy, repeats=repeats, inner=5)
    return {"game": "leduc (public tree) vs openspiel leduc_poker", "openspiel_iter_ms": 1e3 * os_iter,
            "public_iter_ms": 1e3 * pub_iter, "iter_ratio": os_iter / pub_iter}


def _turn_subgame(board: str, solver: str, target: float, cpu_limit: float, every: int, dtype: str) -> dict:
    """Solve a limit hold'em turn subgame (full uniform ranges) until NashConv <= target * pot."""
    from zerosum.poker.holdem import HoldemGame

    start = time.process_time()
    game = HoldemGame(board=board)
    tree = public_tree(game)
    pub = public_solver(solver, tree, dtype=dtype)
    compile_s = time.process_time() - start
    goal = target * tree.pot
    trace = []
    while True:
        pub.iterate(every)
        avg = pub._evaluate(pub.average_source())
        cpu = time.process_time() - start
        trace.append((pub.iteration, round(cpu, 1), avg["nash_conv"]))
        print(f"  iteration {pub.iteration}: NashConv {avg['nash_conv']:.5f} ({100 * avg['nash_conv'] / tree.pot:.3f}% "
              f"of the pot), CPU {cpu:.0f} s", file=sys.stderr, flush=True)
        if avg["nash_conv"] <= goal or cpu > cpu_limit:
            break
    ia = sum(tree.infoset_actions())
    return {"game": game.id, "solver": solver, "dtype": dtype, "histories": tree.histories,
            "public_nodes": tree.n_nodes, "hands": tree.n_hands[0], "infoset_actions": ia, "pot": tree.pot,
            "iterations": pub.iteration, "nash_conv": trace[-1][2], "nash_conv_pct_pot": 100 * trace[-1][2] / tree.pot,
            "cpu_s": trace[-1][1], "compile_s": compile_s, "bytes_per_ia": pub.nbytes() / ia,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "trace": trace}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--ranks", type=int, default=13)
    ap.add_argument("--copies", type=int, default=4)
    ap.add_argument("--raises", type=int, default=8)
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--leduc", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--turn", metavar="BOARD", help="instead: solve this hold'em turn subgame (e.g. Ks7d2c9h)")
    ap.add_argument("--solver", default="dcfr")
    ap.add_argument("--dtype", default="float64")
    ap.add_argument("--target", type=float, default=0.001, help="NashConv goal as a fraction of the pot")
    ap.add_argument("--cpu-limit", type=float, default=600.0)
    ap.add_argument("--every", type=int, default=100, help="iterations between two NashConv checks")
    args = ap.parse_args(argv)
    if args.turn:
        row = _turn_subgame(args.turn, args.solver, args.target, args.cpu_limit, args.every, args.dtype)
        emit([row], "hold'em turn subgame on the public tree", args.json)
        return
    game = load_game("poker", ranks=args.ranks, copies=args.copies, raises=args.raises)
    rows = [_compare(game, args.repeats)]
    if args.leduc:
        rows.append(_leduc_vs_openspiel(args.repeats))
    emit(rows, "public tree vs history tree (CFR+ iteration, exact NashConv; CPU medians)", args.json,
         {"peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "numpy": np.__version__})


if __name__ == "__main__":
    main()
