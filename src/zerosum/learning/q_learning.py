"""Tabular Q-learning as a best-response oracle: epsilon-greedy play, TD or Monte Carlo targets.

One value per sequence (information set, action) of the learner, learned from the hands it
plays against the fixed opponent mixture; the response is greedy in those values.

* **Play**: epsilon-greedy, epsilon falling linearly from ``epsilon`` to ``epsilon_end`` over
  the budget (greedy among the actions tried so far; untried ones are reached by exploration).
* **Targets**, applied backwards along the learner's decisions when the hand ends: ``td``
  (Q-learning: the final reward at the last decision, the best value of the next information
  set before it, so the values estimate what *greedy* play gets) or ``mc`` (the hand's reward at
  every decision, i.e. the value of the exploring policy).
* **Step sizes** 1/n (n: visits of the pair): the value is the plain average of its targets.
* **Response**: the best tried action (first one on ties); uniform at information sets the
  learner never reached, as the exact oracle does where the opponent never goes.

The whole learning loop is one Numba call over the simulator's kernels.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from numba import njit

from ..core.game import TERMINAL
from ..core.sampling import seed_iteration, uniform
from .oracle import LearnedOracle, Response, choice, unit_float
from .simulator import advance, deal_to_learner


@njit(cache=True, inline="always")
def _greedy(q, visits, g, n):
    """First action with the highest value among those tried; -1 if none was tried."""
    best = -1
    for k in range(n):
        if visits[g + k] > 0 and (best < 0 or q[g + k] > q[g + best]):
            best = k
    return best


@njit(cache=True)
def _q_learning(learner, opp_probs, opp_cum, player, seq0, first_child, n_children, edge_prob, payoff, seed,
                stream, hands, eps0, eps1, monte_carlo, q, visits, traj_g, traj_n, traj_a, counts):
    state = np.zeros(1, dtype=np.uint64)
    seed_iteration(state, seed, stream)
    sign = 1.0 if learner == 0 else -1.0
    while counts[0] < hands:
        h, m = deal_to_learner(learner, opp_probs, opp_cum, player, seq0, first_child, n_children, edge_prob,
                               payoff, state, counts)
        eps = eps0 + (eps1 - eps0) * (counts[0] / hands)
        d = 0
        while player[h] != TERMINAL:
            g = seq0[h]
            n = n_children[h]
            a = -1
            if uniform(state) >= eps:
                a = _greedy(q, visits, g, n)
            if a < 0:
                a = min(int(uniform(state) * n), n - 1)
            traj_g[d] = g
            traj_n[d] = n
            traj_a[d] = a
            d += 1
            h = advance(first_child[h] + a, learner, -1, m, opp_probs, player, seq0, first_child, n_children,
                        edge_prob, state)
        target = sign * payoff[h]
        for t in range(d - 1, -1, -1):
            s = traj_g[t] + traj_a[t]
            visits[s] += 1
            q[s] += (target - q[s]) / visits[s]
            if not monte_carlo:
                target = q[traj_g[t] + _greedy(q, visits, traj_g[t], traj_n[t])]


def greedy_strategy(tree, q, visits) -> np.ndarray:
    """Behavioral strategy per sequence: the best tried action, uniform where nothing was tried."""
    pi = tree.uniform()
    for i in range(tree.n_infosets):
        g, n = int(tree.infoset_first[i]), int(tree.infoset_size[i])
        tried = visits[g:g + n] > 0
        if tried.any():
            vals = np.where(tried, q[g:g + n], -np.inf)
            pi[g:g + n] = 0.0
            pi[g + int(np.argmax(vals))] = 1.0
    return pi


class QLearningOracle(LearnedOracle):
    """Tabular Q-learning against the opponent mixture (see the module docstring)."""

    name = "q-learning"
    options: ClassVar[dict] = {"epsilon": (1.0, unit_float("epsilon")), "epsilon_end": (0.0, unit_float("epsilon_end")),
               "targets": ("td", choice("targets", ("td", "mc")))}

    def respond(self, player, opponent, stream=0):
        tree = self.game.treeplexes[player]
        sim = self.sim
        q = np.zeros(tree.n_sequences)
        visits = np.zeros(tree.n_sequences, dtype=np.int64)
        d = sim.max_decisions + 1
        traj = (np.zeros(d, dtype=np.int64), np.zeros(d, dtype=np.int64), np.zeros(d, dtype=np.int64))
        counts = np.zeros(3)
        s = self.settings
        _q_learning(player, opponent.probs, opponent.cum, *sim.arrays, sim.payoff, self.seed, int(stream),
                    self.hands, s["epsilon"], s["epsilon_end"], s["targets"] == "mc", q, visits, *traj, counts)
        self.table, self.visits = q, visits  # the values learned by the last call
        return Response(greedy_strategy(tree, q, visits), int(counts[0]))
