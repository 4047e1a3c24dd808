"""The Kuhn-poker notebook (GameTheory-13): regret matching, vanilla CFR, CFR+ and convergence.

* regret matching on rock-paper-scissors against "always rock" (the average concentrates on
  paper) and in self-play (the average goes to uniform);
* vanilla CFR with simultaneous updates, as in the notebook, for 20,000 iterations: the value to
  player 0 next to Kuhn's -1/18, and the strategy of the 12 information sets;
* CFR against CFR+ (both simultaneous, as in the notebook);
* the convergence curve over 10 ... 30,000 iterations, drawn on log-log axes.

The notebook's "value of the game" is the running mean of the values of the *current* profiles
over the iterations; the value of the *average* profile is what converges to -1/18 in theory.  Both
are shown.  The notebook's own digits differ from these in the fourth decimal: its solver updates an
information set's regrets during the sweep over deals, so later deals of the same iteration see a
partly updated strategy (the first of Lab 15's "two easy bugs").
"""

from __future__ import annotations

import numpy as np

from ..games import load_game
from ..plots import loglog
from ..progress import counted
from ..solvers import CFRPlusSolver, CFRSolver
from ..solvers.regret_matching import RegretMatcher, against_fixed, self_play
from .report import Report, Table

KUHN_VALUE = -1.0 / 18.0
CHECKPOINTS = (10, 30, 100, 300, 1000, 3000, 10000, 30000)
TRAIN = 20000
RPS = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])  # rock, paper, scissors
#: the notebook's order: card, then the betting "", "p", "pb", "b"
HISTORIES = ("", "p", "pb", "b")
#: extra points for the convergence figure (log-spaced)
PLOT_POINTS = tuple(int(t) for t in np.unique(np.geomspace(10, max(CHECKPOINTS), 49).round()))


def _self_play_from(payoffs, start_regrets, iterations):
    """Regret matching in self-play with the row player's regrets starting at ``start_regrets``."""
    row, col = RegretMatcher(payoffs.shape[0]), RegretMatcher(payoffs.shape[1])
    row.regret_sum[:] = start_regrets
    for _ in range(iterations):
        x, y = row.strategy(), col.strategy()
        row.update(payoffs @ y)
        col.update(-(x @ payoffs))
    return row.average_strategy()


def _train(solver, iterations, marks, advance):
    """Run one iteration at a time, also keeping the running mean of the current profiles' values
    (the notebook's measure).  Returns {iteration: checkpoint dict with "value_mean_current" and
    "policy", the average policy}."""
    game = solver.game
    total = 0.0
    out = {}
    marks = set(marks)
    for t in range(1, iterations + 1):
        x, y = solver.plan
        total += float(x @ (game.payoff @ y))
        solver.iterate(1)
        if t in marks:
            c = solver.checkpoint()
            c["value_mean_current"] = total / t
            if t == TRAIN:
                c["policy"] = solver.average_policy()
            out[t] = c
        if t % 500 == 0:
            advance(500)
    return out


def notebook(plot=None, progress=False) -> Report:
    """All the notebook's tables; ``plot`` is a PNG path or None."""
    game = load_game("kuhn")
    report = Report("kuhn")

    rm = Table("Regret matching on rock-paper-scissors: average strategy",
               ["setting", "iterations", "rock", "paper", "scissors"], digits=[None, None, 3, 3, 3])
    rm.add("against 'always rock'", 1000, *against_fixed(RPS, [1.0, 0.0, 0.0], 1000))
    rm.add("self-play, both from uniform (row player)", 10000, *self_play(RPS, 10000)[0])
    rm.add("self-play, row player starting on rock", 10000, *_self_play_from(RPS, [1.0, 0.0, 0.0], 10000))
    report.tables.append(rm)

    last = max(CHECKPOINTS)
    with counted(last + TRAIN, "Kuhn: CFR and CFR+", enabled=progress) as advance:
        cfr = CFRSolver(game, alternating=False)
        runs = _train(cfr, last, (*CHECKPOINTS, TRAIN, *PLOT_POINTS), advance)
        cfr_plus = CFRPlusSolver(game, alternating=False)
        plus = _train(cfr_plus, TRAIN, (TRAIN,), advance)

    c = runs[TRAIN]
    value = Table(f"Vanilla CFR on Kuhn poker, simultaneous updates, {TRAIN:,} iterations: value to player 0",
                  ["measure", "value", "gap to -1/18"], digits=[None, 4, 6])
    value.add("value of the average strategy", c["value_average"], abs(c["value_average"] - KUHN_VALUE))
    value.add("mean of the iterations' values (the notebook's measure)", c["value_mean_current"],
              abs(c["value_mean_current"] - KUHN_VALUE))
    value.add("Kuhn (1950): -1/18", KUHN_VALUE, 0.0)
    report.tables.append(value)

    policy = runs[TRAIN]["policy"]
    strat = Table(f"Average strategy of vanilla CFR after {TRAIN:,} iterations [pass, bet]",
                  ["infoset", "player", "pass", "bet"], digits=[None, None, 3, 3])
    for card in "JQK":
        for h in HISTORIES:
            label = card + h
            probs = policy.action_probabilities(label)
            strat.add(label, len(h) % 2, probs["p"], probs["b"])
    report.tables.append(strat)
    alpha = policy.action_probabilities("J")["b"]
    report.notes.append(
        f"Kuhn's equilibrium family: player 0 bets the J with some alpha in [0, 1/3], the K with 3*alpha and calls "
        f"with the Q after pass-bet with alpha + 1/3; here alpha = {alpha:.3f}, K bets "
        f"{policy.action_probabilities('K')['b']:.3f} (3*alpha = {3 * alpha:.3f}), Q calls "
        f"{policy.action_probabilities('Qpb')['b']:.3f} (alpha + 1/3 = {alpha + 1 / 3:.3f})")

    vs = Table(f"CFR against CFR+ (simultaneous updates), {TRAIN:,} iterations",
               ["solver", "value of the average", "gap to -1/18", "mean of the iterations' values",
                "NashConv of the average"], digits=[None, 4, 6, 4, 6])
    for name, cp in (("CFR", runs[TRAIN]), ("CFR+", plus[TRAIN])):
        vs.add(name, cp["value_average"], abs(cp["value_average"] - KUHN_VALUE), cp["value_mean_current"],
               cp["nash_conv_average"])
    report.tables.append(vs)

    conv = Table("Convergence of vanilla CFR (simultaneous updates)",
                 ["iterations", "value of the average", "mean of the iterations' values", "NashConv of the average"],
                 digits=[None, 4, 4, 6])
    for t in CHECKPOINTS:
        r = runs[t]
        conv.add(t, r["value_average"], r["value_mean_current"], r["nash_conv_average"])
    report.tables.append(conv)

    if plot:
        its = sorted(set(CHECKPOINTS) | set(PLOT_POINTS))
        loglog({"|value of the average - (-1/18)|": (its, [abs(runs[t]["value_average"] - KUHN_VALUE) for t in its]),
                "|mean of the iterations' values - (-1/18)|":
                    (its, [abs(runs[t]["value_mean_current"] - KUHN_VALUE) for t in its]),
                "NashConv of the average": (its, [runs[t]["nash_conv_average"] for t in its])},
               plot, "Kuhn poker: vanilla CFR, simultaneous updates", ylabel="gap (chips per hand)")
        report.figures.append(str(plot))
    return report
