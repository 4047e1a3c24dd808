"""PSRO with an exact best-response oracle: time per iteration and memory at 50, 100 and 150
strategies per player (Lab 15 Part 4), and one iteration's work against OpenSpiel's tools.

1. Ours on the lab's rank Leduc, 150 iterations per meta-solver: wall time per iteration (median
   over the 5 iterations ending at 50, 100, 150 and over the repetitions), the parts of a Nash
   iteration (LP on the empirical game, the two oracle calls, the two new empirical entries
   vectors), and the bytes held by the empirical game.  An iteration costs one LP plus work
   linear in the population: nothing is replayed.
2. Same game, same members (our Nash-PSRO population on ``openspiel:leduc_poker``, converted):
   the oracle-and-extension work of one iteration at population k done with OpenSpiel's tools
   (python ``PolicyAggregator`` for the meta-strategy as one policy, C++ ``TabularBestResponse``,
   C++ ``expected_returns`` for the new row and column), against ours.  OpenSpiel's own
   ``psro_v2`` needs cvxpy, which zerosum does not install, and estimates entries by sampling.

    .venv/bin/python benchmarks/bench_psro.py [--json] [--reps 3] [--peer-size 30] [--no-peer]
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from common import emit

import zerosum
from zerosum.solvers.psro import PSROSolver, best_response_oracle

SIZES = (50, 100, 150)


def _median_time(fn, repeats=21):
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return statistics.median(out)


def ours_scaling(reps: int) -> list[dict]:
    game = zerosum.compiled(zerosum.load_game("leduc"))
    rows = []
    for meta in ("latest", "uniform", "nash"):
        per_iter = {k: [] for k in SIZES}
        parts = {k: {"meta_s": [], "oracle_s": [], "extend_s": []} for k in SIZES}
        memory = {}
        for _ in range(reps):
            solver = PSROSolver(game, meta)
            solver.checkpoint()
            times = []
            while solver.iteration < max(SIZES):
                t0 = time.perf_counter()
                solver.iterate()
                solver.checkpoint()  # meta-solver and oracle of the new population
                times.append(time.perf_counter() - t0)
                k = solver.iteration
                if k in SIZES:
                    per_iter[k].append(statistics.median(times[-5:]))
                    emp = solver.empirical
                    memory[k] = sum(p[:emp.size[i]].nbytes for i, p in enumerate(emp.plans)) + emp.payoffs.nbytes
                    parts[k]["meta_s"].append(_median_time(solver.meta_strategies))
                    m = solver.meta_strategies()
                    plans = [emp.mixture_plan(p, m[p]) for p in (0, 1)]
                    parts[k]["oracle_s"].append(_median_time(
                        lambda plans=plans: [best_response_oracle(game, p, plans[1 - p]) for p in (0, 1)]))
                    trial = copy.deepcopy(emp)
                    new = [emp.members(p)[-1].copy() for p in (0, 1)]
                    t0 = time.perf_counter()
                    trial.add(0, new[0])
                    trial.add(1, new[1])
                    parts[k]["extend_s"].append(time.perf_counter() - t0)
        for k in SIZES:
            rows.append({"meta_solver": meta, "population": k,
                         "seconds_per_iteration": statistics.median(per_iter[k]),
                         **{name: statistics.median(v) for name, v in parts[k].items()},
                         "empirical_game_bytes": memory[k]})
    return rows


def peer_iteration(size: int, reps: int) -> dict:
    """One iteration's oracle and extension work at population ``size`` on openspiel:leduc_poker."""
    import pyspiel
    from open_spiel.python.algorithms import policy_aggregator, policy_utils

    from zerosum.core.sequence_form import behavioral_from_realization
    from zerosum.games.openspiel import to_openspiel_policy, to_pyspiel_policy

    game = zerosum.load_game("openspiel:leduc_poker")
    cg = zerosum.compiled(game)
    os_game = game.game
    solver = PSROSolver(cg, "nash")
    solver.run(size)
    emp = solver.empirical
    meta = solver.meta_strategies()
    plans = [emp.mixture_plan(p, meta[p]) for p in (0, 1)]

    def ours():
        brs = [best_response_oracle(cg, p, plans[1 - p]) for p in (0, 1)]
        # the new member's row and column of the empirical game, as EmpiricalGame.add computes them
        row = emp.members(1) @ (cg.payoff_t @ emp.members(0)[-1])
        col = emp.members(0) @ (cg.payoff @ emp.members(1)[-1])
        return brs, row, col

    ours_s = _median_time(ours, max(reps, 3))

    # the same members as OpenSpiel policies
    trees = cg.treeplexes
    uniform = [t.uniform() for t in trees]
    members = [[], []]
    for p in (0, 1):
        for x in emp.members(p):
            probs = list(uniform)
            probs[p] = behavioral_from_realization(trees[p], x)
            members[p].append(zerosum.TabularPolicy(cg, probs))
    py_members = [[to_openspiel_policy(m, game) for m in members[p]] for p in (0, 1)]
    cpp_members = [[to_pyspiel_policy(m, game) for m in members[p]] for p in (0, 1)]

    def peer():
        agg = policy_aggregator.PolicyAggregator(os_game)
        mixed = agg.aggregate([0, 1], py_members, [np.asarray(m) for m in meta])
        table = policy_utils.policy_to_dict(mixed, os_game)
        values = [pyspiel.TabularBestResponse(os_game, p, table).value(os_game.new_initial_state().history_str())
                  for p in (0, 1)]
        root = os_game.new_initial_state()
        row = [pyspiel.expected_returns(root, [cpp_members[0][-1], y], -1, True)[0] for y in cpp_members[1]]
        col = [pyspiel.expected_returns(root, [x, cpp_members[1][-1]], -1, True)[0] for x in cpp_members[0]]
        return values, row, col

    peer_s = _median_time(peer, reps)
    return {"operation": f"oracle + extension at population {size} (openspiel:leduc_poker)",
            "zerosum_s": ours_s, "openspiel_s": peer_s, "speedup": peer_s / ours_s}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--peer-size", type=int, default=30)
    ap.add_argument("--no-peer", action="store_true")
    args = ap.parse_args(argv)
    rows = ours_scaling(args.reps)
    extra = {}
    if not args.no_peer:
        extra["peer"] = peer_iteration(args.peer_size, args.reps)
    emit(rows, "PSRO with exact best responses on the lab's Leduc (wall time, medians)", args.json, extra)


if __name__ == "__main__":
    main()
