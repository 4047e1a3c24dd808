"""Lab 15 "Going further: Discounting", and beyond: CFR, CFR+, LCFR, DCFR, PCFR+ and PDCFR+ side
by side, against the exact value from the sequence-form LP.

For each game: NashConv of the average (and current) strategy at checkpoints, the distance of the
average strategy's value to the LP's game value, and the cost of one iteration (timed without the
checkpoints' exact evaluation).  One log-log figure: NashConv of the average against iterations.
"""

from __future__ import annotations

import json
import time

from ..errors import ZerosumError
from ..progress import counted
from .report import Report, Table

#: the default ``--variants`` (the lab's six); ``--variants all`` adds the schedules of HS_VARIANTS
VARIANTS = ("cfr", "cfr+", "lcfr", "dcfr", "pcfr+", "pdcfr+")
HS_VARIANTS = ("hs-dcfr", "hs-pcfr+")
CHECKPOINTS = (10, 30, 100, 300, 1000, 3000, 10000, 30000, 100000)
#: fractions of the uniform policy's NashConv whose first crossing is timed
THRESHOLDS = (1e-3, 1e-5)
#: step of the (untimed) evaluation grid that finds the crossings: the reported CPU time is the
#: one at the first grid point below the threshold, so at most 25% more iterations than needed
GRID_STEP = 1.25

#: the full table's games (docs/lp-and-variants.md)
TABLE_GAMES = ("kuhn,leduc,poker(ranks=6),openspiel:liars_dice,"
               "openspiel:turn_based_simultaneous_game(game=goofspiel(imp_info=True,num_cards=4,"
               "points_order=descending))")


def parse_game(spec: str):
    """``NAME``, ``NAME(key=value,...)`` (values read as JSON: numbers, true/false, lists) or
    ``openspiel:NAME(...)`` (passed to OpenSpiel as written)."""
    from ..games import load_game

    if spec.startswith("openspiel:") or "(" not in spec:
        return load_game(spec)
    if not spec.endswith(")"):
        raise ZerosumError(f"bad game {spec!r}; write NAME(key=value,...), e.g. poker(ranks=6)")
    name, args = spec[:-1].split("(", 1)
    params = {}
    for item in filter(None, (a.strip() for a in args.split(","))):
        key, eq, value = item.partition("=")
        if not eq:
            raise ZerosumError(f"bad parameter {item!r} in {spec!r}; write key=value, e.g. poker(ranks=6)")
        try:
            params[key.strip()] = json.loads(value)
        except ValueError:
            params[key.strip()] = value.strip()
    return load_game(name.strip(), **params)


def _grid(marks, last: int) -> list[int]:
    out, m = set(marks), 1.0
    while m < last:
        out.add(round(m))
        m *= GRID_STEP
    return sorted(c for c in out if 1 <= c <= last)


class _PublicTreeGame:
    """A game solved on its public tree (hold'em subgames: no history tree, no LP): the variant by
    name on :func:`zerosum.public_tree.solver.public_solver`, the exact NashConv of the public tree."""

    def __init__(self, game):
        from ..public_tree.compile import public_tree

        self.tree = public_tree(game)
        self.game_id = game.id

    def solver(self, name: str):
        from ..public_tree.solver import public_solver

        return public_solver(name, self.tree)


def run_variant(cg, name: str, marks, progress=None, uniform_nc: float | None = None):
    """Checkpoints of one variant at ``marks``, its CPU seconds per iteration, and the CPU seconds
    to reach each of :data:`THRESHOLDS` times ``uniform_nc`` (None if not reached).

    Timing: ``time.process_time`` of the iterations only; the checkpoints (exact evaluation) are
    outside it.  The variant's kernels are compiled first on a throwaway solver (3 iterations of
    the same game), so Numba's compile time is not counted: without that the first variant of a
    run paid it (Leduc: cfr 0.14 ms per iteration against dcfr's 0.029 when cfr ran first)."""
    from ..solvers import SOLVERS

    make = cg.solver if isinstance(cg, _PublicTreeGame) else (lambda n: SOLVERS[n](cg))
    make(name).iterate(3)  # warm-up: compile this variant's kernels
    solver = make(name)
    wanted = set(marks)
    rows, spent = [], 0.0
    crossed = {f: None for f in THRESHOLDS}
    for m in _grid(marks, marks[-1]) if uniform_nc else marks:
        t0 = time.process_time()
        solver.iterate(m - solver.iteration)
        spent += time.process_time() - t0
        point = solver.checkpoint()
        for f in THRESHOLDS:
            if uniform_nc and crossed[f] is None and point["nash_conv_average"] <= f * uniform_nc:
                crossed[f] = spent
        if m in wanted:
            if progress is not None:
                progress(1)
            rows.append(point)
    return rows, spent / marks[-1], crossed


def discounting(plot=None, progress=False, iterations: int = 1000, games: str = "kuhn,leduc",
                variants: str = ",".join(VARIANTS)) -> Report:
    # imported here, not above: the command line reads VARIANTS without loading the solvers
    from ..core.compile import compiled
    from ..core.evaluation import evaluate
    from ..core.policy import TabularPolicy
    from ..plots import loglog_panels
    from ..solvers import SOLVERS
    from ..solvers.lp import LPSolver

    if variants.strip() == "all":
        variants = ",".join(VARIANTS + HS_VARIANTS)
    names = [v.strip() for v in variants.split(",") if v.strip()]
    unknown = [v for v in names if v not in SOLVERS or v == "lp"]
    if unknown or not names:
        raise ZerosumError(f"unknown variant(s) {', '.join(unknown) or '(none)'}; choose from "
                           f"{', '.join(VARIANTS + HS_VARIANTS)} (or --variants all)")
    game_names = [g.strip() for g in _split_games(games) if g.strip()]
    if not game_names:
        raise ZerosumError("--games needs at least one game")
    marks = [c for c in CHECKPOINTS if c < iterations] + [iterations]
    report = Report("discounting")
    series = {}
    with counted(len(game_names) * len(names) * len(marks), "discounting", enabled=progress) as advance:
        for gname in game_names:
            game = parse_game(gname)
            if _public_tree_only(game):
                cg, lp = _PublicTreeGame(game), None
                exact = None
                # the average sums start at zero: the uniform policy's NashConv, on the public tree
                uniform_nc = cg.solver("cfr").checkpoint()["nash_conv_average"]
                title = (f"{cg.game_id}: NashConv of the average strategy (public tree: no LP at this size; "
                         f"uniform policy's NashConv {uniform_nc:.4g})")
            else:
                cg = compiled(game)
                lp = LPSolver(cg)
                exact = lp.value
                uniform_nc = evaluate(cg, TabularPolicy.uniform(cg)).nash_conv
                title = (f"{cg.game_id}: NashConv of the average strategy (LP value {exact:.12f}, "
                         f"LP solved in {lp.lp_seconds:.3f} s; uniform policy's NashConv {uniform_nc:.4g})")
            avg = Table(title,
                        ["variant", *[str(m) for m in marks], "current at end", "|value - LP value|",
                         "ms / iteration", "cost vs cfr+",
                         *[f"CPU s to {f:g} x uniform" for f in THRESHOLDS]], digits=None)
            runs = {}
            for name in names:
                runs[name] = run_variant(cg, name, marks, advance, uniform_nc)
            base = runs["cfr+"][1] if "cfr+" in runs else None
            for name, (rows, per_it, crossed) in runs.items():
                avg.add(name, *[float(f"{r['nash_conv_average']:.3e}") for r in rows],
                        float(f"{rows[-1]['nash_conv_current']:.3e}"),
                        None if exact is None else float(f"{abs(rows[-1]['value_average'] - exact):.3e}"),
                        round(per_it * 1e3, 4), round(per_it / base, 2) if base and per_it else None,
                        *[None if crossed[f] is None else round(crossed[f], 4) for f in THRESHOLDS])
                series.setdefault(gname, {})[name] = ([r["iteration"] for r in rows],
                                                      [r["nash_conv_average"] for r in rows])
            report.tables.append(avg)
            if lp is None:
                report.notes.append(f"{cg.game_id}: solved on the public tree (exact NashConv; no LP value at "
                                    f"this size, so |value - LP value| is empty); value of the last average "
                                    f"of each variant: " + ", ".join(
                                        f"{n} {r[0][-1]['value_average']:.6f}" for n, r in runs.items()))
                continue
            report.notes.append(f"{cg.game_id}: the LP's game value is {exact:.12f} (NashConv of the LP "
                                f"strategies {lp.run(1)[0]['nash_conv_average']:.1e}); every variant's value "
                                f"approaches it, see the |value - LP value| column.")
    report.notes.append("CPU time (time.process_time) counts the iterations only, after each variant's "
                        "kernels were compiled on a throwaway 3-iteration run; 'CPU s to F x uniform' is the "
                        "time at the first point of an untimed evaluation grid (x1.25 steps) where the "
                        "average's NashConv is at most F times the uniform policy's (empty: not reached "
                        "within the run).")
    if plot:
        # one panel per game, each variant drawn alike in every panel (12 curves on one axes could not be read)
        loglog_panels(series, plot, "NashConv of the average strategy (LP equilibrium: 0)")
        report.figures.append(str(plot))
    return report


def _public_tree_only(game) -> bool:
    """Hold'em subgames go to the public tree: even the turn subgame's history tree (7.6e9
    histories with full ranges) is out of reach, and the public tree is the form they are solved on."""
    from ..poker.holdem import HoldemGame

    return isinstance(game, HoldemGame)


def _split_games(games: str) -> list[str]:
    """``games`` split at the commas outside parentheses (``poker(ranks=6,rounds=2),kuhn``)."""
    out, depth, cur = [], 0, ""
    for ch in games:
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += (ch == "(") - (ch == ")")
        cur += ch
    return out + [cur]
