"""Lab 15, going further: "Approximate averages" -- what imitating CFR+'s average with a network costs.

CFR+ runs on the lab's Leduc (1,000 iterations by default); for each network size and sample
count, one MLP per player is fitted to sampled information sets of the average profile
(:func:`zerosum.deep.distill.distill`), tabulated over all information sets, and evaluated
exactly.  The table gives the network policy's NashConv, the tabular average's, and their
difference (the cost of the approximation); a last row samples without exploration, which
shows why the sampling mixes in uniform play.  The figure draws the cost against samples.
"""

from __future__ import annotations

from ..core.compile import compiled
from ..games import load_game
from ..progress import counted
from .report import Report, Table

SIZES = ((16,), (64,), (64, 64))


def approximation(plot=None, progress=False, game: str = "leduc", cfr_iterations: int = 1000,
                  sizes=SIZES, samples=(10_000, 100_000), steps: int = 16000, batch: int = 512,
                  seed: int = 1, explore: float = 0.5) -> Report:
    """The distillation table (see the module docstring); ``plot`` a PNG path or None."""
    from ..deep.distill import distill
    from ..learning.networks import require_jax
    from ..solvers import CFRPlusSolver

    require_jax()
    g = compiled(load_game(game))
    cfr = CFRPlusSolver(g)
    cfr.run(cfr_iterations)
    target = cfr.average_policy()
    plan = [(tuple(h), n, explore) for h in sizes for n in samples]
    plan.append((tuple(sizes[-1]), samples[-1], 0.0))
    table = Table(f"Distilling CFR+'s {cfr_iterations:,}-iteration average on {g.game_id}: exact NashConv of the "
                  f"tabulated networks", ["hidden", "samples", "explore", "NashConv (network)",
                                          "NashConv (CFR+ average)", "cost", "CPU s"],
                  digits=[None, None, None, 4, 5, 4, 1])
    series: dict[str, tuple[list, list]] = {}
    with counted(len(plan), "distillation", enabled=progress) as advance:
        for hidden, n, ex in plan:
            d = distill(g, target, hidden, n, steps=steps, batch=batch, seed=seed, explore=ex)
            name = "x".join(map(str, hidden))
            table.add(name, n, ex, d.nash_conv, d.target_nash_conv, d.cost, d.seconds)
            if ex == explore:
                xs, ys = series.setdefault(f"hidden {name}", ([], []))
                xs.append(n)
                ys.append(max(d.cost, 1e-6))
            advance(1)
    notes = [(f"one MLP per player, ReLU, Adam {steps:,} steps of {batch}; information sets sampled as the average "
             f"profile mixed with {explore} uniform play reaches them (explore 0: the profile alone); cost = "
             f"NashConv of the network policy minus the tabular average's")]
    report = Report("approximation", [table], notes=notes)
    if plot:
        from ..plots import loglog

        loglog(series, plot, f"Distilling CFR+'s average on {g.game_id}", xlabel="sampled information sets",
               ylabel="NashConv cost of the network")
        report.figures.append(str(plot))
    return report
