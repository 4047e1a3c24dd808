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


#: iterations of each method's untimed warm-up run: enough to reach every jitted step (NFSP trains
#: once its buffers hold a batch) and the checkpoint's evaluation
WARM_UP_ITERATIONS = {"deep-cfr": 1, "sd-cfr": 1, "nfsp": 10}


def warm_up(game, methods, options: dict, cfr: bool = True) -> float:
    """Run each method once, untimed, with the options of the timed runs (JAX compiles per shape,
    so other settings would not do) and seed 0, and CFR+ a few iterations: the timed rows then
    exclude JAX's and Numba's compile.  Returns the CPU seconds this took.

    Measured (``experiment deep --quick``): without it deep-cfr's row read 7.3 CPU s and sd-cfr's
    0.0 (it reused the networks deep-cfr had compiled), nfsp 2.0, and the CPU panel drew vertical
    lines, the first checkpoint holding the compile; with it 0.06, 0.02 and 0.08 (the warm-up
    13.3 CPU s, untimed; the whole command's time is unchanged, 31 s wall on
    a loaded 2-core machine) and the same NashConv: the warm-up uses its own seed."""
    from ..solvers import SOLVERS, CFRPlusSolver

    t0 = time.process_time()
    for m in methods:
        k = WARM_UP_ITERATIONS.get(m, 1)
        SOLVERS[m](game, seed=0, **options.get(m, {})).run(k, [k])
    if cfr:
        CFRPlusSolver(game).run(2, [2])
    return time.process_time() - t0


#: what one iteration of each method costs with its default settings, in milliseconds of wall time:
#: the progress of :func:`deep` advances by these weights, not by iterations, so that its fraction
#: (and the time left drawn from it) follows the work.  Counted in iterations, an nfsp iteration
#: (4 ms) weighed as much as a deep-cfr one (0.8 s): ``19 / 60,600 (0.0 %)`` with 2 % of the work done.
#: Measured once (Kuhn, seed 1, after :func:`warm_up`, on a loaded 2-core machine): deep-cfr's 100
#: iterations 81.9 s of wall time (120.8 CPU s: JAX uses both cores), sd-cfr's 100 85.2 s, nfsp's
#: 20,000 82.6 s; within each run the time grew in step with the iterations (at 10 %, 25 %, 50 %
#: and 90 % of them: 8-10 %, 24-27 %, 49-59 % and 89-90 % of the time, the checkpoints included),
#: so one weight per method does.  Other settings and games cost otherwise: the progress is then
#: only roughly proportional to the time.
ITERATION_COST_MS = {"deep-cfr": 820, "sd-cfr": 850, "nfsp": 4}


def _method_run(game, method: str, seed: int, iterations: int, options: dict, advance=None):
    """One deep method's run with one seed: its rows and CPU seconds (``game``: the compiled game,
    or its name where this runs as a Ray task: a fresh worker then warms the method up first)."""
    from ..solvers import SOLVERS

    g = compiled(load_game(game)) if isinstance(game, str) else game
    if isinstance(game, str):
        warm_up(g, [method], {method: options}, cfr=False)
    solver = SOLVERS[method](g, seed=seed, **options)
    t0 = time.process_time()
    rows = solver.run(iterations, _marks(iterations), progress=advance)
    return rows, time.process_time() - t0


def _weighted(advance, weight: int):
    """``advance`` for one method's run: ``n`` iterations are ``n * weight`` units of progress."""
    return lambda n=1: advance(n * weight)


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
    # on Ray each task warms its method up in its own worker (_method_run); CFR+ runs here
    warm_up(g, methods if ray is None else [], options)
    runs: dict[str, list] = {}
    interrupted = False  # Ctrl-C: the report holds the (method, seed) runs finished before it
    plan = [(m, seed) for m in methods for seed in range(1, seeds + 1)]
    # progress in units of expected work (ITERATION_COST_MS), so that its fraction is that of the time
    work = sum(iterations[m] * ITERATION_COST_MS[m] for m, _ in plan)
    with counted(work, f"deep methods on {g.game_id} (by expected work)", enabled=progress and ray is None) \
            as advance:
        calls = [(game if ray else g, m, seed, iterations[m], options.get(m, {}),
                  None if ray else _weighted(advance, ITERATION_COST_MS[m])) for m, seed in plan]
        try:
            if ray is None:  # one run at a time, so that those finished are kept on Ctrl-C
                for (m, _), call in zip(plan, calls):
                    out = _method_run(*call)
                    runs.setdefault(m, []).append(out)
            else:
                for (m, _), out in zip(plan, run_all(_method_run, calls, ray, workers)):
                    runs.setdefault(m, []).append(out)
        except KeyboardInterrupt:
            interrupted = True
    cfr_rows, cfr_cpu = [], 0.0
    if not interrupted:
        cfr = CFRPlusSolver(g)
        for m in _marks(cfr_iterations, 10):  # time the iterations only, as the deep methods' cpu_seconds
            t0 = time.process_time()
            cfr.iterate(m - cfr.iteration)
            cfr_cpu += time.process_time() - t0
            cfr_rows.append({**cfr.checkpoint(), "cpu_seconds": cfr_cpu})
    table = Table(f"Deep methods on {g.game_id}, default settings: exact NashConv of the network policy "
                  f"(mean over {seeds} seed{'' if seeds == 1 else 's'})", ["method", "iterations", "NashConv", "worst seed", "nodes touched",
                                                 "samples", "CPU s per run"],
                  digits=[None, None, 4, 4, None, None, 2])
    if interrupted:
        table.columns.append("seeds")
        table.digits.append(None)
    by_nodes, by_cpu = {}, {}
    for m, rs in runs.items():
        final = [rows[-1]["nash_conv_average"] for rows, _ in rs]
        table.add(m, iterations[m], float(np.mean(final)), float(np.max(final)),
                  int(np.mean([rows[-1]["nodes"] for rows, _ in rs])),
                  int(np.mean([rows[-1]["samples"] for rows, _ in rs])), float(np.mean([c for _, c in rs])),
                  *([len(rs)] if interrupted else []))
        curve = np.mean([[r["nash_conv_average"] for r in rows] for rows, _ in rs], axis=0)
        by_nodes[m] = ([r["nodes"] for r in rs[0][0]], list(curve))
        by_cpu[m] = ([float(np.mean([rows[k]["cpu_seconds"] for rows, _ in rs])) for k in range(len(curve))],
                     list(curve))
    if cfr_rows:
        table.add("cfr+ (tabular)", cfr_iterations, cfr_rows[-1]["nash_conv_average"], None, cfr_rows[-1]["nodes"],
                  None, cfr_cpu)
        by_nodes["cfr+"] = ([r["nodes"] for r in cfr_rows], [r["nash_conv_average"] for r in cfr_rows])
        by_cpu["cfr+"] = ([r["cpu_seconds"] for r in cfr_rows], [r["nash_conv_average"] for r in cfr_rows])
    report = Report("deep", [table], interrupted=interrupted, notes=[
        ("NashConv: exact, of the networks tabulated over every information set (Deep CFR: the average-strategy "
        "network; SD-CFR: the average recovered from every iteration's value networks; NFSP: the average-policy "
        "network); CPU s include training; cfr+'s CPU s is for the whole tabular run (iterations only)"),
        # the same words serial and on Ray (the reports are compared); the warm-up's seconds vary
        "CPU s exclude the compile: each method first ran once, untimed, with the same settings",
        *(["interrupted (Ctrl-C): each row's mean is over its seeds column; cfr+ did not run"] if interrupted else [])])
    if plot and by_nodes:
        _figure(by_nodes, by_cpu, plot, f"Deep methods on {g.game_id}")
        report.figures.append(str(plot))
    return report


def _figure(by_nodes, by_cpu, path, title) -> None:
    """Two log-log panels, each with its own x-axis label; the same method drawn the same way."""
    from ..plots import pyplot, save_figure

    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.2), layout="constrained")
    colors = {m: f"C{k}" for k, m in enumerate(dict.fromkeys([*by_nodes, *by_cpu]))}
    for ax, series, xlabel in ((axes[0], by_nodes, "nodes touched"), (axes[1], by_cpu, "CPU seconds")):
        for label, (xs, ys) in series.items():
            pts = [(x, y) for x, y in zip(xs, ys) if x > 0 and y > 0]  # log axes
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=".", label=label, color=colors[label])
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("NashConv")
        ax.set_title(f"against {xlabel}", fontsize="small")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].legend(fontsize="small")
    fig.suptitle(title)
    save_figure(fig, path)
