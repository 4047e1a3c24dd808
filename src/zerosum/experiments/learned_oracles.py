"""Lab 15, going further: PSRO whose best responses are learned by playing.

PSRO with a Nash meta-solver on the lab's Leduc, its exact best-response oracle replaced by a
learner given a fixed budget of hands per call (:mod:`zerosum.learning`): tabular Q-learning,
tabular policy gradient (REINFORCE with a baseline) and a DQN over feature vectors (when the
``deep`` extra is installed).  For each oracle and budget, over seeds: the meta-strategy's exact
NashConv at the checkpoints, the mean exact oracle error (best-response value minus the learned
response's value against the same meta-strategy), the hands played, and CPU seconds.  The
figure shows NashConv against iterations and against hands played.
"""

from __future__ import annotations

import time

import numpy as np

# the game and solver modules are imported in the functions: the command line reads ORACLES cheaply
from ..errors import ZerosumError
from ..progress import counted
from .report import Report, Table

CHECKPOINTS = (10, 30, 80, 150)
ORACLES = ("q-learning", "policy-gradient", "dqn")


def _dqn_available() -> bool:
    try:
        import jax  # noqa: F401
        import optax  # noqa: F401
    except ImportError:
        return False
    return True


def _run(game, iterations, marks, progress_advance=None, **options):
    from ..solvers.psro import PSROSolver

    t0 = time.process_time()
    solver = PSROSolver(game, "nash", **options)
    rows = solver.run(iterations, range(1, iterations + 1), progress=progress_advance)
    return rows, time.process_time() - t0


#: the warm-up's PSRO run: enough iterations and hands to call every kernel of an oracle once
WARM_UP_ITERATIONS, WARM_UP_HANDS = 2, 20


def warm_up(game, oracles) -> float:
    """Run each oracle (and the exact one) once on a tiny PSRO run so that no timed row pays
    Numba's compile (or cache load) of its kernels; returns the CPU seconds this took.

    Measured (Leduc, ``experiment learned-oracles --quick``, empty Numba cache): without it the
    rows read exact 1.64, Q-learning 1.76 at 300 hands (0.03 at 1,000) and policy gradient 1.06
    (0.03) CPU s; with it 0.02, 0.05 (0.04) and 0.03 (0.03), the warm-up 5.4 CPU s, untimed
    (said in the notes).  Same NashConv either way: the warm-up uses its own seed."""
    t0 = time.process_time()
    for oracle in dict.fromkeys(("exact", *oracles)):
        if oracle == "dqn" and not _dqn_available():
            continue
        options = {} if oracle == "exact" else {"oracle": oracle, "hands": WARM_UP_HANDS, "seed": 0}
        _run(game, WARM_UP_ITERATIONS, [WARM_UP_ITERATIONS], **options)
    return time.process_time() - t0


def _plan_run(game, iterations, marks, oracle, budget, seed, advance=None):
    """One (oracle, budget, seed) PSRO run: its rows and CPU seconds (``game``: the compiled
    game, or its name where this runs as a Ray task: a fresh worker process then warms this
    oracle's kernels up first, untimed)."""
    from ..core.compile import compiled
    from ..games import load_game

    g = compiled(load_game(game)) if isinstance(game, str) else game
    if isinstance(game, str):
        warm_up(g, [oracle])
    options = {} if oracle == "exact" else {"oracle": oracle, "hands": budget, "seed": seed}
    return _run(g, iterations, marks, advance, **options)


def learned_oracles(plot=None, progress=False, iterations: int = 150, budgets=(1000, 10000, 100000),
                    seeds: int = 2, oracles=ORACLES, dqn_max_hands: int = 10000, game: str = "leduc",
                    sanity_budgets=(1000, 10000, 100000, 1000000), ray: str | None = None,
                    workers: int | None = None, sanity_dqn_max_hands: int = 100000) -> Report:
    """The table of NashConv by oracle and budget (mean over ``seeds``); ``plot`` a PNG path or None.

    The DQN runs only at budgets up to ``dqn_max_hands`` (a network step costs far more than a
    table update) and only where JAX is installed; the notes say what was left out.  With
    ``sanity_budgets``, a first table gives each oracle's error against fixed opponents (the DQN
    there up to ``sanity_dqn_max_hands``).
    ``ray`` (auto or an address) runs each (oracle, budget, seed) as a Ray task (same numbers).
    """
    from ..core.compile import compiled
    from ..distributed.parallel import run_all
    from ..games import load_game

    g = compiled(load_game(game))
    marks = [c for c in CHECKPOINTS if c < iterations] + [iterations]
    unknown = [o for o in oracles if o not in ORACLES]
    if unknown:
        raise ZerosumError(f"unknown oracle {unknown[0]!r}; choose from {', '.join(ORACLES)}")
    notes = []
    plan = [("exact", None, 0)]
    for oracle in oracles:
        if oracle == "dqn" and not _dqn_available():
            notes.append("dqn left out: it needs the 'deep' extra (pip install 'zerosum[deep]')")
            continue
        for b in budgets:
            if oracle == "dqn" and b > dqn_max_hands:
                notes.append(f"dqn at {b:,} hands per call left out (--dqn-max-hands {dqn_max_hands:,})")
                continue
            plan += [(oracle, b, s) for s in range(1, seeds + 1)]
    # the first timed row would otherwise pay the compile of its oracle's and PSRO's kernels
    if ray is None:  # a Ray task warms up in its own worker (_plan_run)
        warm_up(g, [o for o, _, _ in plan])
    results: dict[tuple, list] = {}
    with counted(len(plan) * (iterations - 1), "PSRO with learned oracles",
                      enabled=progress and ray is None) as advance:
        calls = [(game if ray else g, iterations, marks, *run, None if ray else advance) for run in plan]
        for (oracle, budget, _), out in zip(plan, run_all(_plan_run, calls, ray, workers)):
            results.setdefault((oracle, budget), []).append(out)
    cols = ["oracle", "hands per call", "seeds"] + [f"NashConv @{m}" for m in marks] + \
        ["mean oracle error", "hands played", "CPU s per run"]
    table = Table(f"PSRO (Nash) on {g.game_id} with learned best responses: exact NashConv of the meta-strategy "
                  f"(mean over seeds)", cols, digits=[None, None, None] + [3] * len(marks) + [4, None, 2])
    series_it, series_hands = {}, {}
    for (oracle, budget), runs in results.items():
        nc = np.array([[rows[m - 1]["nash_conv"] for m in marks] for rows, _ in runs])
        err = float(np.mean([rows[-1]["mean_oracle_error"] for rows, _ in runs]))
        hands = int(np.mean([rows[-1]["hands"] for rows, _ in runs]))
        cpu = float(np.mean([c for _, c in runs]))
        table.add(oracle, budget if budget else "-", len(runs), *nc.mean(axis=0), err, hands, cpu)
        label = "exact" if oracle == "exact" else f"{oracle} {budget:,}"
        curve = np.mean([[r["nash_conv"] for r in rows] for rows, _ in runs], axis=0)
        its = list(range(1, iterations + 1))
        series_it[label] = (its, list(curve))
        if oracle != "exact":
            series_hands[label] = ([runs[0][0][k]["hands"] for k in range(iterations)], list(curve))
    report = Report("learned-oracles", [table], notes=notes)
    if sanity_budgets:
        report.tables.insert(0, oracle_sanity(g, sanity_budgets, oracles, sanity_dqn_max_hands))
    report.notes.append("oracle error: exact best-response value minus the exact value of the learned response "
                        "against the same meta-strategy, mean over both players and all calls (chips); hands "
                        "played: both players' oracle calls together")
    # the same words serial and on Ray (the reports are compared); the warm-up's seconds vary
    report.notes.append("CPU s per run excludes Numba's compile: every oracle first ran once, untimed "
                        f"({WARM_UP_ITERATIONS} PSRO iterations, {WARM_UP_HANDS} hands per call)")
    if plot:
        _figure(series_it, series_hands, plot, g.game_id)
        report.figures.append(str(plot))
    return report


def oracle_sanity(game, budgets=(1000, 10000, 100000, 1000000), oracles=ORACLES, dqn_max_hands: int = 100000,
                  seed: int = 1) -> Table:
    """Each oracle's exact error against two fixed opponents (uniform, CFR+'s 1,000-iteration
    average) by budget, mean over the two players: how much the budget buys (the DQN with its
    large-budget setting, ``SANITY_OPTIONS``)."""
    from ..core.compile import compiled
    from ..core.sequence_form import realization_plan
    from ..games import load_game
    from ..learning.oracle import SANITY_OPTIONS, make_oracle, oracle_error
    from ..learning.simulator import Mixture
    from ..solvers import CFRPlusSolver

    g = compiled(load_game(game)) if isinstance(game, str) else game
    cfr = CFRPlusSolver(g)
    cfr.run(1000)
    opponents = {"uniform": [t.uniform() for t in g.treeplexes], "CFR+ average": list(cfr.average_policy().probs)}
    table = Table(f"Oracle error against a fixed opponent on {g.game_id} (chips, mean over both players)",
                  ["oracle", "opponent", *(f"{b:,} hands" for b in budgets)], digits=[None, None] + [4] * len(budgets))
    for oracle in oracles:
        if oracle == "dqn" and not _dqn_available():
            continue
        for name, opp in opponents.items():
            cells = []
            for b in budgets:
                if oracle == "dqn" and b > dqn_max_hands:
                    cells.append(None)
                    continue
                errs = []
                for p in (0, 1):
                    r = make_oracle(oracle, g, b, seed, **SANITY_OPTIONS.get(oracle, {})).respond(
                        p, Mixture(g, p, [opp[1 - p]]))
                    errs.append(oracle_error(g, p, realization_plan(g.treeplexes[1 - p], opp[1 - p]), r.strategy))
                cells.append(max(float(np.mean(errs)), 0.0))  # >= 0 up to rounding
            table.add(oracle, name, *cells)
    return table


def _figure(series_it, series_hands, path, game_id) -> None:
    from ..plots import pyplot, save_figure

    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6))
    for ax, series, xlabel in ((axes[0], series_it, "PSRO iterations"), (axes[1], series_hands, "hands played")):
        for label, (xs, ys) in series.items():
            pts = [(x, y) for x, y in zip(xs, ys) if x > 0 and y > 0]
            style = {"color": "black", "linewidth": 2} if label == "exact" else {}
            ax.plot([p[0] for p in pts], [p[1] for p in pts], label=label, **style)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("NashConv of the meta-strategy")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].legend(fontsize=7)
    fig.subplots_adjust(wspace=0.3)
    fig.suptitle(f"PSRO (Nash) with learned best responses on {game_id}")
    save_figure(fig, path)
