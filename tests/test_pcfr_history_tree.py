"""PCFR+ checked against a second, independent implementation written on the *history tree*
(recursive traversals, one regret minimizer per information set, no sequence-form kernel):
both prediction forms of :mod:`zerosum.solvers.pcfr`.

* ``local``: next strategy = RM+ on ``[R_t + r_t]^+``, R_t = max(0, R_{t-1} + r_t) (the floored
  regrets exclude the prediction), the form of the PDCFR+ authors' and LiteEFG's code;
* ``tree``: predictive RM+ (Farina, Kroer, Sandholm 2021) with the last utilities as prediction,
  an information set's predicted utilities valuing the information sets below it under their
  *new* strategies (built deepest own depth first, one traversal per depth).

Alternating updates, the average strategy accumulates the strategy played weighted by t^2.
"""

from __future__ import annotations

import numpy as np
import pytest

from zerosum import load_game
from zerosum.core.compile import compiled
from zerosum.solvers.pcfr import PCFRPlusSolver

TERMINAL, CHANCE = -2, -1


def _normalized(v):
    v = np.maximum(v, 0.0)
    return v / v.sum() if v.sum() > 0 else np.full(len(v), 1.0 / len(v))


class HistoryTreePCFR:
    def __init__(self, cg, prediction):
        self.cg, self.tree, self.prediction = cg, cg.tree, prediction
        self.sizes = [t.infoset_size for t in cg.treeplexes]
        self.depth = [t.infoset_depth for t in cg.treeplexes]
        self.policy = [[np.full(n, 1.0 / n) for n in s] for s in self.sizes]
        self.regret = [[np.zeros(n) for n in s] for s in self.sizes]
        self.average = [[np.zeros(n) for n in s] for s in self.sizes]

    def _walk(self, h, p, own, opp, policy_p, utility, reach):
        """Value of history h for player p; adds opp-reach-weighted action values to utility[I]."""
        t = self.tree
        kind = t.player[h]
        if kind == TERMINAL:
            return t.payoff[h] if p == 0 else -t.payoff[h]
        first, n = t.first_child[h], t.n_children[h]
        if kind == CHANCE:
            return sum(t.edge_prob[c] * self._walk(c, p, own, opp * t.edge_prob[c], policy_p, utility, reach)
                       for c in range(first, first + n))
        i = t.infoset[h]
        if kind != p:
            s = self.policy[kind][i]
            return sum(s[k] * self._walk(first + k, p, own, opp * s[k], policy_p, utility, reach)
                       for k in range(n))
        s = policy_p(i)
        values = np.array([self._walk(first + k, p, own * s[k], opp, policy_p, utility, reach)
                           for k in range(n)])
        if utility is not None and i in utility:
            utility[i] += opp * values
            reach[i] = own
        return float(s @ values)

    def iterate(self, t):
        for p in (0, 1):
            n_inf = len(self.sizes[p])
            utility = {i: np.zeros(self.sizes[p][i]) for i in range(n_inf)}
            reach = {}
            self._walk(0, p, 1.0, 1.0, lambda i, cur=self.policy[p]: cur[i], utility, reach)
            old = [s.copy() for s in self.policy[p]]
            instant = [utility[i] - old[i] @ utility[i] for i in range(n_inf)]
            for i in range(n_inf):
                self.average[p][i] += t ** 2 * reach.get(i, 0.0) * old[i]
                self.regret[p][i] = np.maximum(self.regret[p][i] + instant[i], 0.0)
            if self.prediction == "local":
                self.policy[p] = [_normalized(self.regret[p][i] + instant[i]) for i in range(n_inf)]
                continue
            new = {}
            for d in sorted(set(self.depth[p]), reverse=True):  # deepest own depth first
                level = [i for i in range(n_inf) if self.depth[p][i] == d]
                predicted = {i: np.zeros(self.sizes[p][i]) for i in level}
                self._walk(0, p, 1.0, 1.0, lambda i, new=new, old=old: new.get(i, old[i]), predicted, {})
                for i in level:
                    m = predicted[i]
                    new[i] = _normalized(self.regret[p][i] + m - old[i] @ m)
            self.policy[p] = [new[i] for i in range(n_inf)]

    def average_behavioral(self, p):
        return [_normalized(a) for a in self.average[p]]


@pytest.mark.parametrize("prediction", ["local", "tree"])
@pytest.mark.parametrize("game, iterations", [("kuhn", 60), ("leduc", 12)])
def test_pcfr_plus_matches_a_history_tree_implementation(game, iterations, prediction):
    cg = compiled(load_game(game))
    ours = PCFRPlusSolver(cg, prediction=prediction)
    ours.run(iterations)
    ref = HistoryTreePCFR(cg, prediction)
    for t in range(1, iterations + 1):
        ref.iterate(t)
    avg = ours.average_policy()
    for p, tree in enumerate(cg.treeplexes):
        for i in range(tree.n_infosets):
            f, n = tree.infoset_first[i], tree.infoset_size[i]
            np.testing.assert_allclose(avg.probs[p][f:f + n], ref.average_behavioral(p)[i], atol=1e-10)
        # the current strategies agree too (the prediction shapes them directly)
        for i in range(tree.n_infosets):
            f, n = tree.infoset_first[i], tree.infoset_size[i]
            np.testing.assert_allclose(ours.strategy[p][f:f + n], ref.policy[p][i], atol=1e-10)
