"""Tabular policy gradient as a best-response oracle: softmax REINFORCE with a baseline.

One logit per sequence of the learner; at each of its decisions it samples from the softmax of
the information set's logits.  When a hand ends with reward r, every decision (I, a) of the
hand moves the logits of I along ``(r - b(I)) * (onehot(a) - pi(I))`` (the score function of the
softmax times the advantage), with step ``learning_rate / payoff scale`` (the largest payoff in
the game, so one setting suits games whose stakes differ), and the baseline b(I) follows the
average reward seen at I.  That is REINFORCE (Williams 1992) with a state-value baseline, one
hand at a time.

An entropy bonus (weight ``entropy`` times the payoff scale, falling linearly to 0 over the
budget) keeps the actor exploring early and lets it settle late.

**Critic.**  Alongside the actor, a table of action values per sequence (information set,
action) learns from the same hands by Q-learning backups: going backwards along the learner's
decisions, the last one's target is the hand's reward and each earlier one's is the best tried
value of the next information set; every value is the plain average of its targets (step 1/n).
So the critic estimates what *greedy* play after a decision gets, whatever the actor still
mixes, and it gathers information about every action the actor tries, while the softmax only
moves as fast as its step allows.

**Response** (``output``): ``critic`` (default) is the best tried action of the critic at each
information set, which is what brings the error at 10^6 Leduc hands under a cent (the softmax
still puts a little weight on worse actions there); ``softmax`` is the final softmax and
``greedy`` its most likely action.  Uniform where the learner never went.  Measured figures:
docs/learned-oracles.md.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from numba import njit

from ..core.game import TERMINAL
from ..core.sampling import seed_iteration
from .oracle import LearnedOracle, Response, choice, nonnegative_float, positive_float
from .q_learning import _greedy, greedy_strategy
from .simulator import advance, deal_to_learner, sample_action


@njit(cache=True, inline="always")
def _softmax_into(theta, g, n, out):
    top = theta[g]
    for k in range(1, n):
        top = max(top, theta[g + k])
    total = 0.0
    for k in range(n):
        out[g + k] = np.exp(theta[g + k] - top)
        total += out[g + k]
    for k in range(n):
        out[g + k] /= total


@njit(cache=True)
def _reinforce(learner, opp_probs, opp_cum, player, seq0, first_child, n_children, edge_prob, payoff, seed,
               stream, hands, step, baseline_step, entropy0, theta, pi, baseline, seen, critic, tried, traj_g, traj_n,
               traj_a, counts):
    state = np.zeros(1, dtype=np.uint64)
    seed_iteration(state, seed, stream)
    sign = 1.0 if learner == 0 else -1.0
    while counts[0] < hands:
        h, m = deal_to_learner(learner, opp_probs, opp_cum, player, seq0, first_child, n_children, edge_prob,
                               payoff, state, counts)
        d = 0
        while player[h] != TERMINAL:
            g = seq0[h]
            n = n_children[h]
            _softmax_into(theta, g, n, pi)
            a = sample_action(pi, g, n, state)
            traj_g[d] = g
            traj_n[d] = n
            traj_a[d] = a
            d += 1
            h = advance(first_child[h] + a, learner, -1, m, opp_probs, player, seq0, first_child, n_children,
                        edge_prob, state)
        r = sign * payoff[h]
        tau = entropy0 * (1.0 - counts[0] / hands)
        for t in range(d):
            g = traj_g[t]
            n = traj_n[t]
            a = traj_a[t]
            seen[g] += 1
            advantage = r - baseline[g]
            baseline[g] += max(1.0 / seen[g], baseline_step) * advantage
            _softmax_into(theta, g, n, pi)
            entropy = 0.0
            for k in range(n):
                entropy -= pi[g + k] * np.log(max(pi[g + k], 1e-300))
            for k in range(n):
                grad = advantage * ((1.0 if k == a else 0.0) - pi[g + k])
                grad -= tau * pi[g + k] * (np.log(max(pi[g + k], 1e-300)) + entropy)
                theta[g + k] += step * grad
        target = r  # the critic: Q-learning backups along the hand, each value the average of its targets
        for t in range(d - 1, -1, -1):
            g = traj_g[t]
            s = g + traj_a[t]
            tried[s] += 1
            critic[s] += (target - critic[s]) / tried[s]
            target = critic[g + _greedy(critic, tried, g, traj_n[t])]


class PolicyGradientOracle(LearnedOracle):
    """Softmax REINFORCE with a baseline against the opponent mixture (see the module docstring)."""

    name = "policy-gradient"
    options: ClassVar[dict] = {"learning_rate": (0.5, positive_float("learning_rate")),
               "baseline_step": (0.01, positive_float("baseline_step")),
               "entropy": (0.15, nonnegative_float("entropy")),
               "output": ("critic", choice("output", ("critic", "softmax", "greedy")))}

    def respond(self, player, opponent, stream=0):
        tree = self.game.treeplexes[player]
        sim = self.sim
        theta = np.zeros(tree.n_sequences)
        pi = np.zeros(tree.n_sequences)
        baseline = np.zeros(tree.n_sequences)
        seen = np.zeros(tree.n_sequences, dtype=np.int64)
        critic = np.zeros(tree.n_sequences)
        tried = np.zeros(tree.n_sequences, dtype=np.int64)
        d = sim.max_decisions + 1
        traj = (np.zeros(d, dtype=np.int64), np.zeros(d, dtype=np.int64), np.zeros(d, dtype=np.int64))
        counts = np.zeros(3)
        s = self.settings
        _reinforce(player, opponent.probs, opponent.cum, *sim.arrays, sim.payoff, self.seed, int(stream), self.hands,
                   s["learning_rate"] / sim.payoff_scale, s["baseline_step"],
                   s["entropy"] * sim.payoff_scale, theta, pi, baseline, seen, critic, tried, *traj,
                   counts)
        self.table = theta  # the logits learned by the last call
        self.critic, self.tried = critic, tried  # the critic of the last call
        if s["output"] == "critic":
            return Response(greedy_strategy(tree, critic, tried), int(counts[0]))
        return Response(softmax_strategy(tree, theta, seen, s["output"] == "greedy"), int(counts[0]))


def softmax_strategy(tree, theta, seen, greedy: bool = False) -> np.ndarray:
    """Softmax of the logits per information set (or its most likely action); uniform where unseen."""
    pi = tree.uniform()
    for i in range(tree.n_infosets):
        g, n = int(tree.infoset_first[i]), int(tree.infoset_size[i])
        if seen[g] == 0:
            continue
        z = theta[g:g + n] - theta[g:g + n].max()
        if greedy:
            pi[g:g + n] = 0.0
            pi[g + int(np.argmax(z))] = 1.0
        else:
            e = np.exp(z)
            pi[g:g + n] = e / e.sum()
    return pi
