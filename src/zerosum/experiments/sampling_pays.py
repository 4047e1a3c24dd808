"""Where sampling pays (Lab 15, "Going further"): grow the poker family and time CFR+ and MCCFR
to the same NashConv; then the same members on the public tree (CFR+ and public-chance-sampling
MCCFR), and hold'em subgames (river, turn) that only the public tree holds.

For each member, every solver runs in growing chunks of iterations; only the iterations are
timed (compiling the game, and the exact NashConv checks between chunks, are not), and the time
to reach the target is the solver CPU time at the first check at or below it.  The target is a
fraction of the uniform policy's NashConv, so that members with different stakes are compared
at the same relative accuracy.
"""

from __future__ import annotations

import logging
import time

from ..core.compile import compiled
from ..core.evaluation import nash_conv, nash_conv_of_plans
from ..core.policy import TabularPolicy
from ..games import load_game
from ..plots import loglog_panels
from ..solvers import CFRPlusSolver
from ..solvers.mccfr import ExternalSamplingSolver, OutcomeSamplingSolver
from .report import Report, Table

# which solver runs now, one INFO record each (the command line shows them on stderr)
_log = logging.getLogger(__name__)

#: the family members, smallest first (Leduc hold'em, then more ranks, copies and raises)
MEMBERS = (
    {"ranks": 3, "copies": 2, "rounds": 2, "raises": 2, "bets": [2, 4]},
    {"ranks": 6, "copies": 2, "rounds": 2, "raises": 2, "bets": [2, 4]},
    {"ranks": 9, "copies": 4, "rounds": 2, "raises": 3, "bets": [2, 4]},
    {"ranks": 13, "copies": 4, "rounds": 2, "raises": 3, "bets": [2, 4]},
    {"ranks": 13, "copies": 4, "rounds": 2, "raises": 6, "bets": [2, 4]},
    {"ranks": 13, "copies": 4, "rounds": 2, "raises": 8, "bets": [2, 4]},
)


def time_to_target(solver, target: float, time_limit: float, first_chunk: int, growth: float = 1.3):
    """Solver seconds until the average strategy's NashConv is <= target (None if not within
    the limit), with the (seconds, NashConv) curve."""
    elapsed, chunk, curve = 0.0, first_chunk, []
    while elapsed < time_limit:
        t0 = time.process_time()
        solver.iterate(chunk)
        elapsed += time.process_time() - t0
        x, y = solver.average_plans()
        nc = nash_conv_of_plans(solver.game, x, y)
        curve.append((elapsed, nc))
        if nc <= target:
            return elapsed, solver.iteration, curve
        chunk = max(chunk + 1, int(chunk * growth))
    return None, solver.iteration, curve


#: hold'em subgames for the public-tree table (board, range0, range1): full uniform ranges
SUBGAMES = (("Ks7d2c9h3s", "", ""), ("Ks7d2c9h", "", ""))


def public_time_to_target(solver, target: float, time_limit: float, first_chunk: int, growth: float = 1.3):
    """As :func:`time_to_target`, for a public-tree solver (exact NashConv from its own passes)."""
    elapsed, chunk, curve = 0.0, first_chunk, []
    while elapsed < time_limit:
        t0 = time.process_time()
        solver.iterate(chunk)
        elapsed += time.process_time() - t0
        nc = solver._evaluate(solver.average_source())["nash_conv"]
        curve.append((elapsed, nc))
        if nc <= target:
            return elapsed, solver.iteration, curve
        chunk = max(chunk + 1, int(chunk * growth))
    return None, solver.iteration, curve


def _public_rows(game, target, fraction, time_limit, history_cfr_s, progress) -> list:
    """The public-tree table's row for one game."""
    from ..public_tree.compile import public_tree
    from ..public_tree.solver import public_solver

    t0 = time.process_time()
    tree = public_tree(game)
    compile_s = time.process_time() - t0
    if target is None:  # hold'em: the target from the uniform policy on the public tree itself
        uniform = public_solver("cfr", tree)
        target_nc = uniform._evaluate(uniform.average_source())["nash_conv"]
        target = fraction * target_nc
    results = {}
    for name, chunk in (("cfr+", 1), ("pcs-mccfr", 10)):
        public_solver(name, tree).iterate(1)  # Numba's first call (compile or cache load) is not timed
        if progress:
            _log.info("%s: public %s ...", game.id, name)
        results[name] = public_time_to_target(public_solver(name, tree), target, time_limit, chunk)[:2]
    plus_s = results["cfr+"][0]
    ratio = history_cfr_s / plus_s if history_cfr_s is not None and plus_s else None
    return [game.id, tree.histories, tree.n_nodes, sum(tree.infoset_actions()), compile_s, target, plus_s,
            results["cfr+"][1], results["pcs-mccfr"][0], results["pcs-mccfr"][1], ratio]


def _member_rows(params: dict, fraction: float, time_limit: float, progress: bool):
    """One family member: its row of the history-tree table, its row of the public-tree table and
    its curves (one Ray task under --ray)."""
    t0 = time.process_time()
    g = compiled(load_game("poker", **params))
    compile_s = time.process_time() - t0
    target = fraction * nash_conv(g, TabularPolicy.uniform(g))
    results, series = {}, {}
    for name, solver, chunk in (("CFR+", CFRPlusSolver(g), 1),
                                ("ES-MCCFR", ExternalSamplingSolver(g, seed=0), 1000),
                                ("OS-MCCFR", OutcomeSamplingSolver(g, seed=0), 10000)):
        if progress:
            _log.info("%s: %s ...", g.game_id, name)
        seconds, its, curve = time_to_target(solver, target, time_limit, chunk)
        results[name] = (seconds, its)
        series[name] = ([c[0] for c in curve], [c[1] / target for c in curve])
    done = {k: v[0] for k, v in results.items() if v[0] is not None}
    fastest = min(done, key=done.get) if done else "none"
    s = g.sizes()
    row = [g.game_id, s["histories"], s["infosets"][0], s["terminals"], compile_s, target,
           results["CFR+"][0], results["CFR+"][1], results["ES-MCCFR"][0], results["ES-MCCFR"][1],
           results["OS-MCCFR"][0], results["OS-MCCFR"][1], fastest]
    public = _public_rows(load_game("poker", **params), target, fraction, time_limit, results["CFR+"][0], progress)
    return row, public, series


def _subgame_row(params: dict, fraction: float, time_limit: float, progress: bool) -> list:
    return _public_rows(load_game("holdem", **params), None, fraction, time_limit, None, progress)


def crossover(plot=None, progress=False, fraction: float = 0.1, time_limit: float = 10.0,
              members=MEMBERS, subgames=(), ray: str | None = None, workers: int | None = None) -> Report:
    """Both tables; ``ray`` (auto or an address) runs each member and each subgame as a Ray task
    (the iterations to the target are the serial run's; the seconds are each task's CPU time)."""
    from ..distributed.parallel import run_all

    table = Table(f"time to NashConv <= {fraction:g} x uniform's NashConv (solver CPU seconds; compile excluded)",
                  ["game", "histories", "infosets/player", "terminals", "compile s", "target",
                   "CFR+ s", "CFR+ iterations", "ES-MCCFR s", "ES iterations", "OS-MCCFR s",
                   "OS iterations", "fastest"],
                  digits=[None, None, None, None, 2, 4, 3, None, 3, None, 3, None, None])
    public = Table(f"the same on the public tree (CPU seconds to NashConv <= {fraction:g} x uniform's), "
                   f"and hold'em subgames no history tree holds",
                   ["game", "histories", "public nodes", "infoset-actions", "compile s", "target",
                    "public CFR+ s", "CFR+ iterations", "PCS-MCCFR s", "PCS iterations",
                    "history CFR+ s / public CFR+ s"],
                   digits=[None, None, None, None, 2, 4, 3, None, 3, None, 1])
    series = {}
    progress = progress and ray is None
    out = run_all(_member_rows, [(params, fraction, time_limit, progress) for params in members], ray, workers)
    subs = [{"board": board, **({"range0": r0} if r0 else {}), **({"range1": r1} if r1 else {})}
            for board, r0, r1 in subgames]
    for params, (row, public_row, curves) in zip(members, out):
        table.add(*row)
        public.add(*public_row)
        series[f"{params['ranks']} ranks, {params['raises']} raises"] = curves
    for public_row in run_all(_subgame_row, [(params, fraction, time_limit, progress) for params in subs], ray,
                              workers):
        public.add(*public_row)
    report = Report("sampling-pays", [table, public])
    report.notes.append(f"'-' = target not reached within {time_limit:g} s of solver time.")
    if plot:
        loglog_panels(series, plot, "NashConv / target against solver seconds, one panel per game",
                      xlabel="seconds", ylabel="NashConv / target", hlines={"target": 1.0})
        report.figures.append(str(plot))
    return report
