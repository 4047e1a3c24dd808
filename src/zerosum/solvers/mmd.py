"""Magnetic mirror descent with dilated entropy (Sokota et al. 2023, "A Unified Approach to
Reinforcement Learning, Quantal Response Equilibria, and Two-Player Zero-Sum Games").

Why: Lab 15's magnet dynamics apply a one-state update at each information set with conditional
action values; that has no convergence guarantee.  MMD is the same idea done on the sequence form,
with the dilated entropy psi as the mirror map, so that its theory holds: each player solves

    x_{t+1} = argmax_x  eta <g_t, x> - eta alpha B_psi(x; rho) - B_psi(x; x_t),

g_t = A y_t (player 1: -A^T x_t) the values collected under each sequence.  With a fixed
(alpha, eta) the last iterate converges linearly to the rho-regularized equilibrium (a QRE);
annealing alpha_t = alpha0 / sqrt(t), eta_t = eta0 / sqrt(t), the schedule of the paper's Nash
experiments, drives the last iterate toward a Nash equilibrium.

The argmax has a closed form (dilated entropy is a sum of per-information-set entropies weighted
by the parent sequence): with behavioral logs l_t = ln pi_t and m = ln rho,

    c(I, a) = (eta g(I, a) + eta alpha m(I, a) + l_t(I, a)) / (1 + eta alpha),

then, deepest information sets first, pi_{t+1}(. | I) = softmax c(I, .) and the log-partition
logsumexp c(I, .) is added to c of I's parent sequence.  (The "+1 - #children" constants of the
gradient of psi cancel inside every information set, so behavioral logs suffice.)  One step is
a sparse product and one pass over the treeplex depths per player, both players simultaneously.

``magnet_lr`` > 0 moves the magnet geometrically toward the current strategy after each step,
rho <- rho^(1 - magnet_lr) pi^magnet_lr per information set (the paper's moving-magnet variant).
"""

from __future__ import annotations

import numpy as np

from ..action_values import log_softmax
from ..errors import ZerosumError
from ..sequence_form import collected_values
from .dynamics import SelfPlayDynamics, _positive


def dilated_prox(tree, c: np.ndarray) -> np.ndarray:
    """Behavioral logs of argmax_x <c, x> - psi(x) (psi: dilated entropy), bottom-up; c is consumed."""
    parent = tree.infoset_parent
    logp = np.zeros_like(c)
    for lv in reversed(tree.levels):
        block = c[lv.s0:lv.s1]
        m = np.maximum.reduceat(block, lv.offsets)
        lse = m + np.log(np.add.reduceat(np.exp(block - m[lv.local_infoset]), lv.offsets))
        logp[lv.s0:lv.s1] = block - lse[lv.local_infoset]
        c[:lv.s0] += np.bincount(parent[lv.i0:lv.i1], lse, minlength=lv.s0)
    return logp


class MMDSolver(SelfPlayDynamics):
    """Dilated MMD; by default the annealed schedule alpha0 / sqrt(t), eta0 / sqrt(t).

    The defaults alpha0 = 0.1, eta0 = 10 are the best of a small grid on Kuhn and Leduc (sequence-form
    values carry chance's probabilities, so they are smaller than the conditional action values
    for which the paper tuned alpha0 = eta0 = 1).  ``schedule="constant"`` keeps alpha and eta fixed (convergence to the regularized
    equilibrium); ``magnet_lr`` moves the magnet (0: fixed uniform magnet).
    """

    name = "mmd"

    def __init__(self, game, alpha: float = 0.1, eta: float = 10.0, schedule: str = "annealed",
                 magnet_lr: float = 0.0):
        super().__init__(game)
        self.alpha0 = _positive("alpha", alpha, allow_zero=True)
        self.eta0 = _positive("eta", eta)
        if schedule not in ("annealed", "constant"):
            raise ZerosumError(f"schedule must be 'annealed' or 'constant', got {schedule!r}")
        self.schedule = schedule
        self.magnet_lr = _positive("magnet_lr", magnet_lr, allow_zero=True)
        if self.magnet_lr > 1:
            raise ZerosumError(f"magnet_lr must be in [0, 1], got {magnet_lr!r}")
        self.log_policy = [np.log(t.seq_uniform) for t in self.trees]
        self.log_magnet = [np.log(t.seq_uniform) for t in self.trees]

    def parameters(self, t: int) -> tuple[float, float]:
        """(alpha_t, eta_t) at step t >= 1."""
        if self.schedule == "annealed":
            s = 1.0 / np.sqrt(t)
            return self.alpha0 * s, self.eta0 * s
        return self.alpha0, self.eta0

    def next_strategies(self):
        alpha, eta = self.parameters(self.iteration)
        ea = eta * alpha
        gs = [collected_values(self.game, p, self.plan[1 - p]) for p in (0, 1)]
        out = []
        for p, tree in enumerate(self.trees):
            c = eta * gs[p]
            c += ea * self.log_magnet[p]
            c += self.log_policy[p]
            c /= 1.0 + ea
            logp = dilated_prox(tree, c)
            self.log_policy[p] = logp
            if self.magnet_lr > 0:
                mixed = (1 - self.magnet_lr) * self.log_magnet[p] + self.magnet_lr * logp
                self.log_magnet[p] = log_softmax(tree, mixed)
            out.append(np.exp(logp))
        return out

