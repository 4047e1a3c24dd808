"""The public tree split over Ray workers against one process, in the same run.

    .venv/bin/python benchmarks/bench_ray.py [--board Ks7d2c9h] [--iterations 10] [--rounds 3] [--workers 2] [--json]

Solves the limit hold'em turn subgame (full uniform ranges) with DCFR in one process
(:mod:`zerosum.public_tree.solver`) and split at the river card over ``--workers`` Ray actors
(:mod:`zerosum.public_tree.split`), the same iterations, after one warm-up iteration each
(Numba compilation).  The two alternate in ``--rounds`` rounds of ``--iterations`` each (so a
change in the machine's load hits both); the load average is printed with the figures.
Prints per-iteration wall times (median over all rounds), their ratio (and each round's), bytes the driver
sends and receives per iteration, the driver's share of the split run's wall time, compute seconds
per worker and per subtree, and checks that both runs end with the same NashConv.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time


def _timed_iterations(solver, n: int) -> tuple[list[float], float]:
    """Wall seconds of each iteration, and this process's CPU seconds over all of them."""
    times = []
    c0 = time.process_time()
    for _ in range(n):
        t0 = time.perf_counter()
        solver.iterate(1)
        times.append(time.perf_counter() - t0)
    return times, time.process_time() - c0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="Ks7d2c9h")
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--range0", default="")
    ap.add_argument("--range1", default="")
    ap.add_argument("--raises", type=int, default=3)
    ap.add_argument("--dtype", default="float64", choices=["float64", "float32"])
    ap.add_argument("--split-only", action="store_true",
                    help="Only the split run (a game one process cannot hold: the flop subgame), with NashConv "
                         "at --marks and each worker's memory.")
    ap.add_argument("--marks", default="", help="Iterations (after the warm-up) at which --split-only prints NashConv.")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    import ray

    from zerosum.poker.holdem import HoldemGame
    from zerosum.public_tree.compile import public_tree
    from zerosum.public_tree.solver import public_solver
    from zerosum.public_tree.split import split_solver

    t0 = time.perf_counter()
    game = HoldemGame(board=args.board, range0=args.range0, range1=args.range1, raises=args.raises,
                      max_bytes=10 ** 13 if args.split_only else None)  # the split spreads the memory
    tree = public_tree(game)
    compile_s = time.perf_counter() - t0
    from zerosum.distributed.ray_runtime import LOCAL_SYSTEM_CONFIG

    ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False, configure_logging=False,
             _system_config=LOCAL_SYSTEM_CONFIG)  # workers at this process's priority, as --ray auto
    if args.split_only:
        return split_only(args, tree, compile_s)
    single = public_solver("dcfr", tree)
    single.iterate(1)
    split = split_solver("dcfr", tree, args.workers, checkpoint_every=10 ** 9)
    split.iterate(1)
    stats0 = split.stats()
    load0 = os.getloadavg()
    t_single, t_split, round_ratios, cpu_single, cpu_driver, wall = [], [], [], 0.0, 0.0, 0.0
    for _ in range(args.rounds):  # alternate, so that a change in the machine's load hits both
        ts, cs = _timed_iterations(single, args.iterations)
        t0 = time.perf_counter()
        tp, cp = _timed_iterations(split, args.iterations)
        wall += time.perf_counter() - t0
        t_single += ts
        t_split += tp
        cpu_single += cs
        cpu_driver += cp
        round_ratios.append(statistics.median(tp) / statistics.median(ts))
    n_it = args.iterations * args.rounds
    stats = split.stats()
    nc_single = single.checkpoint()["nash_conv_average"]
    nc_split = split.checkpoint()["nash_conv_average"]
    subtrees = sum(stats["subtrees"])
    compute = [b - a for a, b in zip(stats0["compute_s"], stats["compute_s"])]
    cpu = [b - a for a, b in zip(stats0["cpu_s"], stats["cpu_s"])]
    driver = stats["driver_s"] - stats0["driver_s"]
    row = {
        "game": tree.game_id, "hands": list(tree.n_hands), "public_nodes": tree.n_nodes, "workers": args.workers,
        "subtrees": subtrees, "trunk_nodes": stats["trunk_nodes"], "iterations": n_it,
        "single_iter_s": statistics.median(t_single), "split_iter_s": statistics.median(t_split),
        "wall_ratio": statistics.median(t_split) / statistics.median(t_single),
        "round_ratios": round_ratios, "load_average_1min": [load0[0], os.getloadavg()[0]],
        "bytes_per_iteration": stats["bytes_per_iteration"], "driver_share": driver / wall,
        "compute_s_per_worker_iteration": [c / n_it for c in compute],
        "compute_s_per_subtree_pass": sum(compute) / (n_it * 2 * subtrees),
        "worker_busy_share": [c / wall for c in compute],
        "single_cpu_s_per_iteration": cpu_single / n_it,
        "worker_cpu_s_per_iteration": [c / n_it for c in cpu],
        "driver_cpu_s_per_iteration": cpu_driver / n_it,
        "cpu_ratio_max_worker_to_single": max(cpu) / cpu_single,
        "cpu_critical_path_ratio": (max(cpu) + cpu_driver) / cpu_single,
        "nash_conv_single": nc_single, "nash_conv_split": nc_split, "same": abs(nc_single - nc_split) <= 1e-12,
        "driver_state_bytes": split.nbytes(), "single_state_bytes": single.nbytes(),
    }
    split.close()
    if args.json:
        print(json.dumps(row))
        return
    for k, v in row.items():
        print(f"{k:34s} {v}")


def split_only(args, tree, compile_s: float) -> None:
    """The split run alone: per-iteration wall and CPU, NashConv at the marks, memory per worker."""
    import resource

    import ray

    from zerosum.public_tree.split import split_solver

    t0 = time.perf_counter()
    split = split_solver("dcfr", tree, args.workers, checkpoint_every=10 ** 9, dtype=args.dtype)
    setup_s = time.perf_counter() - t0
    marks = sorted({int(m) for m in args.marks.split(",") if m.strip()} | {args.iterations})
    worker_bytes = ray.get([a.nbytes.remote() for a in split.actors])
    split.iterate(1)  # warm-up (Numba)
    stats0 = split.stats()
    times, rows, done = [], [], 0
    for m in marks:
        ts, _ = _timed_iterations(split, m - done)
        times += ts
        done = m
        t0 = time.perf_counter()
        c = split.checkpoint()
        rows.append({"iteration": split.iteration, "nash_conv_average": c["nash_conv_average"],
                     "nash_conv_current": c["nash_conv_current"], "value": c["value_average"],
                     "evaluate_s": time.perf_counter() - t0})
        print(json.dumps(rows[-1]), flush=True)
    stats = split.stats()
    cpu = [b - a for a, b in zip(stats0["cpu_s"], stats["cpu_s"])]
    subtrees = sum(stats["subtrees"])
    row = {
        "game": tree.game_id, "hands": list(tree.n_hands), "public_nodes": tree.n_nodes, "dtype": args.dtype,
        "infoset_actions": [int(x) for x in tree.infoset_actions()], "workers": args.workers,
        "subtrees": stats["subtrees"], "trunk_nodes": stats["trunk_nodes"], "compile_s": compile_s,
        "setup_s": setup_s, "iterations": done, "iter_s_median": statistics.median(times),
        "worker_cpu_s_per_iteration": [c / done for c in cpu],
        "cpu_s_per_subtree_iteration": sum(cpu) / (done * subtrees),
        "bytes_per_iteration": stats["bytes_per_iteration"], "worker_bytes": worker_bytes,
        "bytes_per_subtree": sum(worker_bytes) / subtrees, "driver_state_bytes": split.nbytes(),
        "driver_maxrss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
        "load_average_1min": os.getloadavg()[0], "checkpoints": rows,
    }
    split.close()
    print(json.dumps(row) if args.json else "\n".join(f"{k:30s} {v}" for k, v in row.items()))


if __name__ == "__main__":
    main()
