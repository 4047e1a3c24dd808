"""Lab 15 "Going further: Discounting", and beyond: CFR, CFR+, LCFR, DCFR, PCFR+ and PDCFR+ side
by side, against the exact value from the sequence-form LP.

For each game: NashConv of the average (and current) strategy at checkpoints, the distance of the
average strategy's value to the LP's game value, and the cost of one iteration (timed without the
checkpoints' exact evaluation).  One log-log figure: NashConv of the average against iterations.
"""

from __future__ import annotations

import time

from ..errors import ZerosumError
from ..progress import counted
from .report import Report, Table

VARIANTS = ("cfr", "cfr+", "lcfr", "dcfr", "pcfr+", "pdcfr+")
CHECKPOINTS = (10, 30, 100, 300, 1000, 3000, 10000, 30000, 100000)


def run_variant(cg, name: str, marks, progress=None):
    """Checkpoints of one variant and its seconds per iteration (iterations only, no evaluation)."""
    from ..solvers import SOLVERS

    solver = SOLVERS[name](cg)
    rows, spent = [], 0.0
    for m in marks:
        t0 = time.perf_counter()
        solver.iterate(m - solver.iteration)
        spent += time.perf_counter() - t0
        if progress is not None:
            progress(1)
        rows.append(solver.checkpoint())
    return rows, spent / marks[-1]


def discounting(plot=None, progress=False, iterations: int = 1000, games: str = "kuhn,leduc",
                variants: str = ",".join(VARIANTS)) -> Report:
    # imported here, not above: the command line reads VARIANTS without loading the solvers
    from ..core.compile import compiled
    from ..games import load_game
    from ..plots import loglog_panels
    from ..solvers import SOLVERS
    from ..solvers.lp import LPSolver

    names = [v.strip() for v in variants.split(",") if v.strip()]
    unknown = [v for v in names if v not in SOLVERS or v == "lp"]
    if unknown or not names:
        raise ZerosumError(f"unknown variant(s) {', '.join(unknown) or '(none)'}; choose from {', '.join(VARIANTS)}")
    game_names = [g.strip() for g in games.split(",") if g.strip()]
    if not game_names:
        raise ZerosumError("--games needs at least one game")
    marks = [c for c in CHECKPOINTS if c < iterations] + [iterations]
    report = Report("discounting")
    series = {}
    with counted(len(game_names) * len(names) * len(marks), "discounting", enabled=progress) as advance:
        for gname in game_names:
            cg = compiled(load_game(gname))
            lp = LPSolver(cg)
            exact = lp.value
            avg = Table(f"{cg.game_id}: NashConv of the average strategy (LP value {exact:.12f}, "
                        f"LP solved in {lp.lp_seconds:.3f} s)",
                        ["variant", *[str(m) for m in marks], "current at end", "|value - LP value|",
                         "ms / iteration", "cost vs cfr+"], digits=None)
            runs = {}
            for name in names:
                runs[name] = run_variant(cg, name, marks, advance)
            base = runs["cfr+"][1] if "cfr+" in runs else None
            for name, (rows, per_it) in runs.items():
                avg.add(name, *[float(f"{r['nash_conv_average']:.3e}") for r in rows],
                        float(f"{rows[-1]['nash_conv_current']:.3e}"),
                        float(f"{abs(rows[-1]['value_average'] - exact):.3e}"),
                        round(per_it * 1e3, 4), round(per_it / base, 2) if base else None)
                series.setdefault(gname, {})[name] = ([r["iteration"] for r in rows],
                                                      [r["nash_conv_average"] for r in rows])
            report.tables.append(avg)
            report.notes.append(f"{cg.game_id}: the LP's game value is {exact:.12f} (NashConv of the LP "
                                f"strategies {lp.run(1)[0]['nash_conv_average']:.1e}); every variant's value "
                                f"approaches it, see the |value - LP value| column.")
    if plot:
        # one panel per game, each variant drawn alike in every panel (12 curves on one axes could not be read)
        loglog_panels(series, plot, "NashConv of the average strategy (LP equilibrium: 0)")
        report.figures.append(str(plot))
    return report
