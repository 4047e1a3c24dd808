"""The order of discounting and adding in DCFR-family rules is not a switch worth having: "discount
the old sum by its own sign with iteration t-1's factors, then add iteration t's regret" (the HS
paper as read by third parties, the PDCFR+ authors' DCFR, postflop-solver) plays the same strategies
as zerosum's :func:`zerosum.solvers.rules.regret_update` ("add, then discount the sum by its sign
with t's factors", OpenSpiel's), because the stored sums differ only by each action's own positive
factor, common to all the positive regrets of an information set, which regret matching divides
out.  Only float rounding parts them (1e-15 at first, growing over the iterations; see
docs/lp-and-variants.md, "Iterations to a share of the pot").  Using t's factors before adding is
zerosum's rule with t+1's factors: an index shift, not an order."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.games import load_game
from zerosum.solvers.cfr import CFRSolver, realization_plan
from zerosum.solvers.rules import DCFR, HSDCFR, RegretRule


class DiscountThenAdd(CFRSolver):
    """R_t = d_{t-1}(sign R_{t-1}) R_{t-1} + r_t, per action."""

    def _update(self, player, g, weight, rule):
        t = self.iteration
        instant = self._instant_regrets(player, g)
        self.average_plan[player] += weight * self.plan[player]
        prev = self.variant.regret_rule(t - 1) if t > 1 else RegretRule()
        regrets = self.regrets[player]
        regrets *= np.where(regrets >= 0, prev.pos, prev.neg)
        regrets += instant
        self.strategy[player] = self.current_strategy(player)
        self.plan[player] = realization_plan(self.trees[player], self.strategy[player])


@pytest.mark.parametrize("variant", [DCFR(), DCFR(alpha=1.5, beta=0.5, gamma=3), HSDCFR(30, 20)],
                         ids=["dcfr", "dcfr-beta", "hs-dcfr"])
def test_discount_then_add_plays_the_same_strategies(variant):
    game = load_game("leduc")
    ours, other = CFRSolver(game, variant=variant), DiscountThenAdd(game, variant=variant)
    for _ in range(20):
        ours.iterate(1)
        other.iterate(1)
        for a, b in zip(ours.strategy, other.strategy):
            np.testing.assert_allclose(a, b, rtol=0, atol=1e-9)
    for a, b in zip(ours.average_plans(), other.average_plans()):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-9)
