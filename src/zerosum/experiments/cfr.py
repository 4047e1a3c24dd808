"""Lab 15 Part 1: CFR and CFR+ with alternating updates on Leduc hold'em, exact NashConv.

Reproduces the lab's table (average and current strategies at 10 ... 1000 iterations), the value
of the game to player 0 and player 0's first action with each card.
"""

from __future__ import annotations

from ..games import load_game
from ..plots import loglog
from ..solvers import CFRPlusSolver, CFRSolver
from .report import Report, Table

CHECKPOINTS = (10, 30, 100, 300, 1000)


def lab_part1(plot=None, progress=False, iterations: int = 1000, game: str = "leduc") -> Report:
    """The Part 1 tables; ``plot`` is a PNG path or None."""
    g = load_game(game)
    marks = [c for c in CHECKPOINTS if c < iterations] + [iterations]
    runs = {}
    for cls in (CFRSolver, CFRPlusSolver):
        solver = cls(g)
        runs[cls.name] = (solver, solver.run(iterations, marks))
    table = Table("Part 1: CFR and CFR+ (alternating updates), NashConv in chips per hand",
                  ["iterations", "CFR average", "CFR current", "CFR+ average", "CFR+ current"],
                  digits=[None, 4, 3, 4, 3])
    for k, m in enumerate(marks):
        a, b = runs["cfr"][1][k], runs["cfr+"][1][k]
        table.add(m, a["nash_conv_average"], a["nash_conv_current"], b["nash_conv_average"], b["nash_conv_current"])
    plus, rows = runs["cfr+"]
    value = Table("value of the game to player 0 (CFR+ average)", ["value"], digits=[4])
    value.add(rows[-1]["value_average"])
    first = Table("player 0's first action with each card (CFR+ average)", ["card", "check", "bet"],
                  digits=[None, 2, 2])
    policy = plus.average_policy()
    tree = policy.game.treeplexes[0]
    for i, label in enumerate(tree.infoset_labels):
        if tree.infoset_parent[i] == 0:
            probs = list(policy.action_probabilities(label, 0).values())
            first.add(label.rstrip(":"), *probs)
    report = Report("cfr", [table, value, first])
    if plot:
        series = {}
        for name, (_, rws) in runs.items():
            its = [r["iteration"] for r in rws]
            series[f"{name.upper()} average"] = (its, [r["nash_conv_average"] for r in rws])
            series[f"{name.upper()} current"] = (its, [r["nash_conv_current"] for r in rws])
        loglog(series, plot, f"Lab 15 Part 1: CFR and CFR+ on {g.id}")
        report.figures.append(str(plot))
    return report
