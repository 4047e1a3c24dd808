"""Lab 15 Part 2: external-sampling MCCFR against CFR and CFR+ on Leduc hold'em, by nodes touched.

ES-MCCFR runs 100,000 iterations with checkpoints at 1k, 3k, 10k, 30k and 100k, over several
seeds (mean, standard deviation and range of the exact NashConv of the average strategy); CFR
and CFR+ are shown at the lab's iterations and at the node counts of the MCCFR checkpoints.
Nodes touched are counted the same way for every solver (:mod:`zerosum.solvers.nodes`).
"""

from __future__ import annotations

import numpy as np

from ..core.compile import compiled
from ..games import load_game
from ..plots import loglog
from ..solvers import CFRPlusSolver, CFRSolver
from ..solvers.mccfr import ExternalSamplingSolver, OutcomeSamplingSolver
from .report import Report, Table

MCCFR_CHECKPOINTS = (1000, 3000, 10000, 30000, 100000)
CFR_CHECKPOINTS = (10, 30, 100, 300)
#: Lab 15's single-seed figures, for the note
LAB = {1000: 1.4146, 3000: 0.5381, 10000: 0.3258, 30000: 0.1704, 100000: 0.0682}


def _full_width_by_nodes(cls, game, node_marks):
    """Run a full-width solver until it has touched each node count; NashConv at each crossing
    and at Lab 15's iterations."""
    solver = cls(game)
    at_nodes, at_iterations, curve = [], [], []
    targets = sorted(node_marks)
    while targets or solver.iteration < max(CFR_CHECKPOINTS):
        solver.iterate(1)
        hit = targets and solver.nodes_touched >= targets[0]
        if hit or solver.iteration in CFR_CHECKPOINTS or solver.iteration in (1, 3):
            row = solver.checkpoint()
            curve.append(row)
            if solver.iteration in CFR_CHECKPOINTS:
                at_iterations.append(row)
            while targets and solver.nodes_touched >= targets[0]:
                at_nodes.append((targets.pop(0), row))
    return at_nodes, at_iterations, curve


def _seed_run(sampler: str, game: str, seed: int, iterations: int, marks) -> list:
    """One MCCFR run: (NashConv, nodes) at each mark (a pure function of its arguments)."""
    cls = {"es-mccfr": ExternalSamplingSolver, "os-mccfr": OutcomeSamplingSolver}[sampler]
    rows = cls(compiled(load_game(game)), seed=seed).run(iterations, marks)
    return [(r["nash_conv_average"], r["nodes"]) for r in rows]


def lab_part2(plot=None, progress=False, seeds: int = 1, iterations: int = 100000, game: str = "leduc",
              outcome_sampling: bool = False, ray: str | None = None, workers: int | None = None) -> Report:
    """Part 2's tables; ``seeds`` MCCFR runs (seeds 0 .. seeds-1); ``plot`` a PNG path or None;
    ``ray`` (auto or an address) spreads the seeds' runs over Ray workers (same numbers)."""
    from ..distributed.parallel import run_all

    g = compiled(load_game(game))
    marks = [c for c in MCCFR_CHECKPOINTS if c < iterations] + [iterations]
    samplers = ["es-mccfr"] + (["os-mccfr"] if outcome_sampling else [])
    calls = [(name, game, seed, iterations, marks) for name in samplers for seed in range(seeds)]
    out = run_all(_seed_run, calls, ray, workers)
    runs = {name: np.array(out[k * seeds:(k + 1) * seeds]) for k, name in enumerate(samplers)}
    es = runs["es-mccfr"]
    spread = seeds > 1
    cols = ["MCCFR iterations", "nodes touched", "NashConv"]
    if spread:
        cols = ["MCCFR iterations", "nodes touched (mean)", "NashConv mean", "std", "min", "max", "lab"]
    table = Table(f"Part 2: external-sampling MCCFR on {g.game_id}, NashConv of the average strategy"
                  + (f" over {seeds} seeds" if spread else ""), cols,
                  digits=[None, 0, 4, 4, 4, 4, 4] if spread else [None, None, 4])
    for k, m in enumerate(marks):
        nc, nodes = es[:, k, 0], es[:, k, 1]
        if spread:
            table.add(m, float(nodes.mean()), float(nc.mean()), float(nc.std(ddof=1)), float(nc.min()),
                      float(nc.max()), LAB.get(m) if game == "leduc" else None)
        else:
            table.add(m, int(nodes[0]), float(nc[0]))
    node_marks = [float(es[:, k, 1].mean()) for k in range(len(marks))]
    compare = Table("CFR and CFR+ for comparison, by nodes touched",
                    ["solver", "iterations", "nodes touched", "NashConv"], digits=[None, None, None, 4])
    equal = Table("at equal nodes: NashConv when each solver first reaches the MCCFR checkpoint's nodes",
                  ["nodes touched", "ES-MCCFR", "CFR", "CFR iterations", "CFR+", "CFR+ iterations"],
                  digits=[0, 4, 4, None, 4, None])
    curves = {}
    crossings = {}
    for cls in (CFRSolver, CFRPlusSolver):
        at_nodes, at_its, curve = _full_width_by_nodes(cls, g, node_marks)
        for row in at_its:
            compare.add(cls.name.upper(), row["iteration"], row["nodes"], row["nash_conv_average"])
        crossings[cls.name] = at_nodes
        curves[cls.name.upper()] = ([r["nodes"] for r in curve], [r["nash_conv_average"] for r in curve])
    for k, n in enumerate(node_marks):
        a, b = crossings["cfr"][k][1], crossings["cfr+"][k][1]
        equal.add(n, float(es[:, k, 0].mean()), a["nash_conv_average"], a["iteration"], b["nash_conv_average"],
                  b["iteration"])
    report = Report("mccfr", [table, compare, equal])
    if outcome_sampling:
        os_ = runs["os-mccfr"]
        t = Table("outcome-sampling MCCFR (epsilon 0.6), NashConv of the average strategy",
                  ["MCCFR iterations", "nodes touched (mean)", "NashConv mean", "min", "max"],
                  digits=[None, 0, 4, 4, 4])
        for k, m in enumerate(marks):
            t.add(m, float(os_[:, k, 1].mean()), float(os_[:, k, 0].mean()), float(os_[:, k, 0].min()),
                  float(os_[:, k, 0].max()))
        report.tables.append(t)
    if game == "leduc" and spread and iterations >= max(LAB):
        inside = [m for k, m in enumerate(marks) if m in LAB and es[:, k, 0].min() <= LAB[m] <= es[:, k, 0].max()]
        report.notes.append(
            f"Lab 15's single-seed figures inside our range over {seeds} seeds at {len(inside)} of "
            f"{len(LAB)} checkpoints ({', '.join(f'{m:,}' for m in inside)}); nodes touched per ES "
            f"iteration: {node_marks[-1] / marks[-1]:.1f} here, 36.1 in the lab.")
    if plot:
        series = {f"{name.upper()} (mean of {seeds})" if spread else name.upper():
                  (list(runs[name][:, :, 1].mean(axis=0)), list(runs[name][:, :, 0].mean(axis=0)))
                  for name in runs}
        series.update(curves)
        loglog(series, plot, f"Lab 15 Part 2 on {g.game_id}: NashConv against nodes touched",
               xlabel="nodes touched")
        report.figures.append(str(plot))
    return report
