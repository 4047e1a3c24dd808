"""Lab 15 Part 4: populations grown with an exact best-response oracle, three meta-solvers.

NashConv (the lab's "exploitability") of the meta-strategy at 1, 5, ..., 150 iterations on the
rank Leduc of the lab, for iterated best response, fictitious play and PSRO with a Nash
meta-solver (the double oracle).  The Nash meta-solver picks one equilibrium of the empirical
game; where the empirical game has several, the choice is the LP's.  ``band`` reruns PSRO with
other tie-breaking rules (HiGHS's dual simplex and interior point, members numbered forwards and
backwards) and shows the lowest and highest NashConv at each checkpoint.
"""

from __future__ import annotations

from ..games import load_game
from ..plots import loglog
from ..progress import counted
from ..solvers.psro import PSROSolver
from .report import Report, Table

CHECKPOINTS = (1, 5, 10, 20, 40, 80, 150)
#: (row label, meta-solver)
METHODS = (("iterated BR", "latest"), ("fictitious play", "uniform"), ("PSRO (Nash)", "nash"))
#: (label, LP method, members numbered backwards) for the tie-breaking band
TIE_RULES = (("dual simplex, members in order", "highs-ds", False),
             ("dual simplex, members reversed", "highs-ds", True),
             ("interior point, members in order", "highs-ipm", False),
             ("interior point, members reversed", "highs-ipm", True))


def _curve(game, meta, iterations, advance, **options):
    solver = PSROSolver(load_game(game) if isinstance(game, str) else game, meta, **options)
    return solver.run(iterations, range(1, iterations + 1), progress=advance)


def _curve_call(game, meta, iterations, advance, options):
    return _curve(game, meta, iterations, advance, **options)


def lab_part4(plot=None, progress=False, iterations: int = 150, band: bool = False,
              game: str = "leduc", ray: str | None = None, workers: int | None = None) -> Report:
    """The Part 4 table (and, with ``band``, the LP tie-breaking band); ``plot`` is a PNG path or None;
    ``ray`` (auto or an address) runs each PSRO run (meta-solver or tie rule) as a Ray task (same numbers)."""
    from ..distributed.parallel import run_all

    g = load_game(game)
    marks = [c for c in CHECKPOINTS if c < iterations] + [iterations]
    plan = [(label, meta, {}) for label, meta in METHODS]
    plan += [(label, "nash", {"lp_method": method, "reverse": rev}) for label, method, rev in (TIE_RULES if band else ())]
    with counted(len(plan) * (iterations - 1), "Part 4: PSRO", enabled=progress and ray is None) as advance:
        calls = [(game if ray else g, meta, iterations, None if ray else advance, opts) for _, meta, opts in plan]
        out = dict(zip([label for label, _, _ in plan], run_all(_curve_call, calls, ray, workers)))
    curves = {label: out[label] for label, _ in METHODS}
    ties = {label: out[label] for label, _, _ in (TIE_RULES if band else ())}
    table = Table("Part 4: PSRO with exact best responses: NashConv (the lab's exploitability) of the meta-strategy",
                  ["iterations", *map(str, marks)], digits=[None] + [3] * len(marks))
    for label, curve in curves.items():
        table.add(label, *(curve[m - 1]["nash_conv"] for m in marks))
    report = Report("psro", [table])
    support = curves["PSRO (Nash)"][-1]["support"]
    report.notes.append(f"populations of {iterations} strateg{'y' if iterations == 1 else 'ies'} per player; the Nash meta-strategy uses "
                        f"{support[0]} and {support[1]} of them at iteration {iterations}")
    if band:
        tb = Table("PSRO (Nash) under other LP tie-breaking rules: NashConv of the meta-strategy",
                   ["rule", *map(str, marks)], digits=[None] + [6] * len(marks))
        rows = {"default (HiGHS's choice), members in order": curves["PSRO (Nash)"], **ties}
        for label, curve in rows.items():
            tb.add(label, *(curve[m - 1]["nash_conv"] for m in marks))
        lo = [min(c[m - 1]["nash_conv"] for c in rows.values()) for m in marks]
        hi = [max(c[m - 1]["nash_conv"] for c in rows.values()) for m in marks]
        tb.add("band: lowest", *lo)
        tb.add("band: highest", *hi)
        report.tables.append(tb)
        same = [m for m, a, b in zip(marks, lo, hi) if round(a, 3) == round(b, 3)]
        report.notes.append("the empirical game can have several equilibria, and which one the LP returns "
                            "is arbitrary; the band shows how much that choice moves NashConv "
                            f"(same 3 decimals at iterations {', '.join(map(str, same)) or 'none'})")
    if plot:
        series = {label: ([c["iteration"] for c in curve], [c["nash_conv"] for c in curve])
                  for label, curve in curves.items()}
        loglog(series, plot, f"Lab 15 Part 4: populations with a best-response oracle ({g.id})",
               ylabel="NashConv of the meta-strategy")
        report.figures.append(str(plot))
    return report
