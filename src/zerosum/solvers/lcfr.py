"""Linear CFR (Brown and Sandholm 2019, "Solving Imperfect-Information Games via Discounted
Regret Minimization", AAAI): iteration t's regrets and strategy both count with weight t.

Why: early iterations are played with poor strategies; weighting iteration t by t lets them fade
away at no cost.  Weighting every instantaneous regret by t is the same, for regret matching, as
multiplying the cumulative regrets by t / (t + 1) after each iteration (a positive factor per
information set does not change the normalized positive part); we do the latter, as OpenSpiel's
``LCFRSolver`` does, so the two agree step by step.  The average weights iteration t by t.
"""

from __future__ import annotations

from .cfr import CFRSolver, RegretRule


class LCFRSolver(CFRSolver):
    """LCFR: DCFR(1, 1, 1).  Alternating updates by default; ``alternating=False`` for simultaneous."""

    name = "lcfr"

    def regret_rule(self) -> RegretRule:
        t = self.iteration
        return RegretRule(pos=t / (t + 1.0), neg=t / (t + 1.0))

    def average_weight(self) -> float:
        return float(self.iteration)
