"""Deep CFR, Single Deep CFR and NFSP against tabular CFR+: exact NashConv by nodes touched and CPU time.

Every network policy is tabulated over all information sets and evaluated exactly
(:mod:`zerosum.deep.network_policy`), so the three deep methods and CFR+ are compared on one
scale.  Each deep method runs with its default settings over ``seeds`` seeds; the table gives
the mean final NashConv (and the worst seed's), nodes touched and CPU seconds; the figure draws
the mean NashConv against nodes touched and against CPU seconds.
"""

from __future__ import annotations

import time

import numpy as np

from ..core.compile import compiled
from ..errors import ZerosumError
from ..games import load_game
from ..progress import counted
from .report import Report, Table

METHODS = ("deep-cfr", "sd-cfr", "nfsp")


def _marks(last: int, n: int = 6) -> list[int]:
    return sorted({max(1, round(last * f)) for f in np.geomspace(1 / 2 ** (n - 1), 1, n)})


def _method_run(game, method: str, seed: int, iterations: int, options: dict, advance=None):
    """One deep method's run with one seed: its rows and CPU seconds (``game``: the compiled game,
    or its name where this runs as a Ray task)."""
    from ..solvers import SOLVERS

    g = compiled(load_game(game)) if isinstance(game, str) else game
    solver = SOLVERS[method](g, seed=seed, **options)
    t0 = time.process_time()
    rows = solver.run(iterations, _marks(iterations), progress=advance)
    return rows, time.process_time() - t0


def deep(plot=None, progress=False, game: str = "kuhn", iterations=None, seeds: int = 3, methods=METHODS,
         options=None, cfr_iterations: int = 1000, ray: str | None = None, workers: int | None = None) -> Report:
    """The comparison table; ``iterations`` per method (default: deep-cfr/sd-cfr 100, nfsp 20,000);
    ``ray`` (auto or an address) runs each (method, seed) as a Ray task (same numbers)."""
    from ..distributed.parallel import run_all
    from ..solvers import CFRPlusSolver

    g = compiled(load_game(game))
    iterations = {"deep-cfr": 100, "sd-cfr": 100, "nfsp": 20000, **(iterations or {})}
    options = options or {}
    unknown = [m for m in methods if m not in METHODS]
    if unknown:
        raise ZerosumError(f"unknown method {unknown[0]!r}; choose from {', '.join(METHODS)}")
    runs: dict[str, list] = {}
    with counted(sum(iterations[m] for m in methods) * seeds, f"deep methods on {g.game_id}",
                      enabled=progress and ray is None) as advance:
        plan = [(m, seed) for m in methods for seed in range(1, seeds + 1)]
        calls = [(game if ray else g, m, seed, iterations[m], options.get(m, {}), None if ray else advance)
                 for m, seed in plan]
        for (m, _), out in zip(plan, run_all(_method_run, calls, ray, workers)):
            runs.setdefault(m, []).append(out)
    t0 = time.process_time()
    cfr = CFRPlusSolver(g)
    cfr_rows = cfr.run(cfr_iterations, _marks(cfr_iterations, 10))
    cfr_cpu = time.process_time() - t0
    table = Table(f"Deep methods on {g.game_id}, default settings: exact NashConv of the network policy "
                  f"(mean over {seeds} seeds)", ["method", "iterations", "NashConv", "worst seed", "nodes touched",
                                                 "samples", "CPU s per run"],
                  digits=[None, None, 4, 4, None, None, 1])
    by_nodes, by_cpu = {}, {}
    for m, rs in runs.items():
        final = [rows[-1]["nash_conv_average"] for rows, _ in rs]
        table.add(m, iterations[m], float(np.mean(final)), float(np.max(final)),
                  int(np.mean([rows[-1]["nodes"] for rows, _ in rs])),
                  int(np.mean([rows[-1]["samples"] for rows, _ in rs])), float(np.mean([c for _, c in rs])))
        curve = np.mean([[r["nash_conv_average"] for r in rows] for rows, _ in rs], axis=0)
        by_nodes[m] = ([r["nodes"] for r in rs[0][0]], list(curve))
        by_cpu[m] = ([float(np.mean([rows[k]["cpu_seconds"] for rows, _ in rs])) for k in range(len(curve))],
                     list(curve))
    table.add("cfr+ (tabular)", cfr_iterations, cfr_rows[-1]["nash_conv_average"], None, cfr_rows[-1]["nodes"], None,
              cfr_cpu)
    by_nodes["cfr+"] = ([r["nodes"] for r in cfr_rows], [r["nash_conv_average"] for r in cfr_rows])
    report = Report("deep", [table], notes=[
        ("NashConv: exact, of the networks tabulated over every information set (Deep CFR: the average-strategy "
        "network; SD-CFR: the average recovered from every iteration's value networks; NFSP: the average-policy "
        "network); CPU s include training; cfr+'s CPU s is for the whole tabular run")])
    if plot:
        from ..plots import loglog_panels

        loglog_panels({"against nodes touched": by_nodes, "against CPU seconds": by_cpu}, plot,
                      f"Deep methods on {g.game_id}", xlabel="nodes touched / CPU seconds")
        report.figures.append(str(plot))
    return report
