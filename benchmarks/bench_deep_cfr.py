"""Deep CFR on Kuhn poker: zerosum against OpenSpiel's PyTorch Deep CFR, same settings, same run.

The settings are OpenSpiel's example (``open_spiel/python/examples/deep_cfr_pytorch.py``): one
hidden layer of 64 for both networks, 375 traversals per player and iteration, advantage
networks re-initialized and trained 375 steps each iteration, 2,500 policy-network steps at the
end, batches of 256, Adam 1e-3 at a constant step, memories of 100,000.  Each side
runs ``--iterations`` iterations (the example's 101 by default) ``--repeats`` times; the table
quotes the median CPU seconds per iteration (the whole run, policy training included, divided
by the iterations; JAX's compilation is done before timing by a one-iteration warm-up) and the
ratio, and each side's exact NashConv at the end.  One thread each (PyTorch's
``set_num_threads(1)``, XLA without its multi-threaded Eigen).  If PyTorch is missing,
OpenSpiel's JAX Deep CFR is tried; if neither imports, only zerosum is measured.

    python benchmarks/bench_deep_cfr.py [--iterations N] [--repeats R] [--json]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
sys.path.insert(0, str(Path(__file__).parent))
from common import emit

SETTINGS = {"layers": 64, "traversals": 375, "advantage_steps": 375, "policy_steps": 2500, "batch": 256,
            "learning_rate": 1e-3, "memory": 100000}


def ours(iterations: int, seed: int):
    from zerosum import compiled, load_game, nash_conv
    from zerosum.solvers.deep_cfr import DeepCFRSolver

    g = compiled(load_game("kuhn"))
    s = SETTINGS
    kwargs = {"traversals": s["traversals"], "hidden": (s["layers"],), "policy_hidden": (s["layers"],),
              "learning_rate": s["learning_rate"], "batch": s["batch"], "advantage_steps": s["advantage_steps"],
              "policy_steps": s["policy_steps"], "memory": s["memory"], "decay": False}
    warm = DeepCFRSolver(g, seed=seed + 1000, **kwargs)  # compile the Numba and JAX code first
    warm.run(1)
    warm.average_policy()
    t0, w0 = time.process_time(), time.perf_counter()
    solver = DeepCFRSolver(g, seed=seed, **kwargs)
    solver.run(iterations)
    policy = solver.average_policy()
    cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    return cpu, wall, nash_conv(g, policy)


def peer(iterations: int, seed: int):
    import pyspiel
    from open_spiel.python import policy as os_policy

    s = SETTINGS
    try:
        import torch
        from open_spiel.python.pytorch import deep_cfr

        torch.set_num_threads(1)
        torch.manual_seed(seed)
        name = f"OpenSpiel PyTorch Deep CFR (torch {torch.__version__})"
    except ImportError:
        from open_spiel.python.jax import deep_cfr  # needs chex and flax

        name = "OpenSpiel JAX Deep CFR"
    game = pyspiel.load_game("kuhn_poker")
    t0, w0 = time.process_time(), time.perf_counter()
    solver = deep_cfr.DeepCFRSolver(game, policy_network_layers=(s["layers"],),
                                    advantage_network_layers=(s["layers"],), num_iterations=iterations,
                                    num_traversals=s["traversals"], learning_rate=s["learning_rate"],
                                    batch_size_advantage=s["batch"], batch_size_strategy=s["batch"],
                                    memory_capacity=s["memory"], policy_network_train_steps=s["policy_steps"],
                                    advantage_network_train_steps=s["advantage_steps"],
                                    reinitialize_advantage_networks=True)
    solver.solve()
    cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    avg = os_policy.tabular_policy_from_callable(game, solver.action_probabilities)
    conv = pyspiel.nash_conv(game, os_policy.python_policy_to_pyspiel_policy(avg))
    return name, cpu, wall, conv


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--iterations", type=int, default=101)
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    mine = [ours(args.iterations, seed) for seed in range(1, args.repeats + 1)]
    rows = [{"solver": "zerosum deep-cfr", "iterations": args.iterations,
             "cpu_s_per_iteration": statistics.median(m[0] for m in mine) / args.iterations,
             "wall_s_per_iteration": statistics.median(m[1] for m in mine) / args.iterations,
             "nash_conv": [m[2] for m in mine]}]
    extra = {"settings": SETTINGS}
    try:
        theirs = [peer(args.iterations, seed) for seed in range(1, args.repeats + 1)]
    except ImportError as e:
        extra["peer"] = f"not measured: {e}"
    else:
        rows.append({"solver": theirs[0][0], "iterations": args.iterations,
                     "cpu_s_per_iteration": statistics.median(t[1] for t in theirs) / args.iterations,
                     "wall_s_per_iteration": statistics.median(t[2] for t in theirs) / args.iterations,
                     "nash_conv": [t[3] for t in theirs]})
        extra["speedup_cpu"] = rows[1]["cpu_s_per_iteration"] / rows[0]["cpu_s_per_iteration"]
        extra["speedup_wall"] = rows[1]["wall_s_per_iteration"] / rows[0]["wall_s_per_iteration"]
    emit(rows, "Deep CFR on Kuhn poker, OpenSpiel's example settings (median CPU s per iteration)", args.json, extra)


if __name__ == "__main__":
    main()
