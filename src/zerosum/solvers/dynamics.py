"""Self-play dynamics without averaging (Lab 15 Part 3): does the *current* strategy converge?

Every step computes both players' exact action values q(I, a) against the same current profile
(:mod:`zerosum.core.action_values`: one sparse product, one upward pass and one division per player)
and both players update simultaneously:

* :class:`IteratedBestResponse`: each player switches to a best response to the other.
* :class:`MirrorDescent`: logits z(I, .) += eta q(I, .), policy softmax(z) (the multiplicative
  weights / Hedge update at every information set).
* :class:`MagnetDynamics`: the regularized step of chapter 27 at every information set,
  z <- (z + eta alpha ln rho + eta q) / (1 + eta alpha), toward a magnet rho; its fixed point is
  the magnet-regularized (quantal-response-like) equilibrium, not a Nash equilibrium.  With
  ``reset=500`` the magnet jumps to the current strategy every 500 steps (the lab's moving
  magnet).  The lab's question "a moving magnet that converges" is answered by two options:
  ``settle`` moves the magnet only once the strategies have settled (the largest change of a
  probability in one step is below ``settle``), an inexact proximal-point method; ``shrink``
  multiplies the regularization alpha by a factor after each move.

Conventions that reproduce Lab 15's table to every printed digit: logits start at zero (uniform
strategies); step t is the t-th update (the uniform start is step 0); ln rho enters as the log of
the magnet's probabilities; a moving magnet is reset after steps 500, 1000, ...; best responses
break ties toward the first action and play uniformly where the opponent never lets play reach
(see :func:`zerosum.core.action_values.best_response_strategy`).

Each class keeps the uniform average of the realization plans too, so that it fits the solver
interface of :class:`~zerosum.solvers.cfr.CFRSolver` (``run``, ``average_policy``,
``current_policy``); the point of these dynamics is ``nash_conv_current``.
"""

from __future__ import annotations

import numpy as np

from ..core.action_values import (
    PlayerArrays,
    action_values,
    best_response_step,
    log_softmax,
    logit_step,
)
from ..core.evaluation import nash_conv_of_plans
from ..core.policy import TabularPolicy, as_compiled
from ..core.sequence_form import behavioral_from_realization, realization_plan
from ..errors import ZerosumError
from .base import IterativeSolver
from .nodes import node_counter


def _positive(name: str, value, allow_zero: bool = False) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ZerosumError(f"{name} must be a number, got {value!r}") from None
    if not np.isfinite(v) or v < 0 or (v == 0 and not allow_zero):
        raise ZerosumError(f"{name} must be {'non-negative' if allow_zero else 'positive'}, got {value!r}")
    return v


class SelfPlayDynamics(IterativeSolver):
    """The driver shared by every dynamics: simultaneous steps, checkpoints, policies."""

    name = "dynamics"
    progress_step = 100
    alternating = False  # both players step from the same profile

    def __init__(self, game):
        self.game = as_compiled(game)
        self.trees = self.game.treeplexes
        self.iteration = 0
        self.nodes_touched = 0
        self.strategy = [t.uniform() for t in self.trees]
        self.plan = [realization_plan(t, pi) for t, pi in zip(self.trees, self.strategy)]
        self.average_plan = [np.zeros(t.n_sequences) for t in self.trees]
        self.previous_plan, self.previous_strategy = self.plan, self.strategy  # one step back
        self.arrays = [PlayerArrays(self.game, p) for p in (0, 1)]  # for the fused kernels

    def step(self, player: int, x_opponent: np.ndarray):
        """(strategy, realization plan) of ``player`` after one step against ``x_opponent``, the
        plan already added to ``average_plan[player]`` (one fused kernel call)."""
        raise NotImplementedError

    def after_step(self) -> None:
        """Hook run after both players have stepped (a moving magnet moves here)."""

    def iterate(self, n: int = 1) -> None:
        """Take ``n`` simultaneous steps: both players answer the same profile, then ``after_step``."""
        for _ in range(n):
            self.iteration += 1
            x0, x1 = self.plan
            counter = node_counter(self.game)  # one full-width pass per player (solvers/nodes.py)
            self.nodes_touched += counter.full_width_pass(0, x1) + counter.full_width_pass(1, x0)
            pi0, y0 = self.step(0, x1)
            pi1, y1 = self.step(1, x0)  # from the same profile: simultaneous updates
            self.previous_plan, self.previous_strategy = self.plan, self.strategy
            self.strategy, self.plan = [pi0, pi1], [y0, y1]
            self.after_step()

    # --- results (the same interface as CFRSolver) ---------------------------------------------
    def average_plans(self):
        """The players' average realization plans (the current ones before the first step)."""
        if self.iteration == 0:
            return [p.copy() for p in self.plan]
        return [xs / xs[0] for xs in self.average_plan]

    def average_policy(self) -> TabularPolicy:
        """The average strategy as a policy (the dynamics are judged by their current one)."""
        probs = [behavioral_from_realization(t, xs) for t, xs in zip(self.trees, self.average_plans())]
        return TabularPolicy(self.game, probs)

    def current_policy(self) -> TabularPolicy:
        """The current strategy profile, the one Lab 15 Part 3 measures."""
        return TabularPolicy(self.game, [pi.copy() for pi in self.strategy])

    def nash_conv_current(self) -> float:
        """NashConv of the current profile (sum of both best-response gains)."""
        return nash_conv_of_plans(self.game, *self.plan)

    def checkpoint(self) -> dict:
        """Exact NashConv and value of the average and current profiles, and nodes touched so far."""
        xa, ya = self.average_plans()
        x, y = self.plan
        return {
            "iteration": self.iteration,
            "nash_conv_average": nash_conv_of_plans(self.game, xa, ya),
            "nash_conv_current": nash_conv_of_plans(self.game, x, y),
            "value_average": float(xa @ (self.game.payoff @ ya)),
            "value_current": float(x @ (self.game.payoff @ y)),
            "nodes": self.nodes_touched,
        }


class IteratedBestResponse(SelfPlayDynamics):
    """Naive self-play: each player plays a best response to the other's current strategy."""

    name = "best-response"

    def step(self, p, x_opponent):
        return best_response_step(*self.arrays[p], x_opponent, self.average_plan[p])


class MirrorDescent(SelfPlayDynamics):
    """Entropic mirror descent at every information set: z += eta q, pi = softmax(z)."""

    name = "mirror-descent"

    def __init__(self, game, eta: float = 0.05):
        super().__init__(game)
        self.eta = _positive("eta", eta)
        self.logits = [np.zeros(t.n_sequences) for t in self.trees]
        self.log_magnet = [np.zeros(t.n_sequences) for t in self.trees]  # unused: alpha = 0
        self.alpha = 0.0

    def action_values(self):
        """Both players' q against the current profile (the NumPy path, for inspection)."""
        return [action_values(self.game, p, self.strategy[p], self.plan[1 - p]) for p in (0, 1)]

    def step(self, p, x_opponent):
        # z <- (z + eta alpha ln rho + eta q) / (1 + eta alpha); alpha = 0 here: z += eta q
        return logit_step(*self.arrays[p], x_opponent, self.strategy[p], self.logits[p],
                          self.log_magnet[p], self.eta, self.eta * self.alpha, self.average_plan[p])


class MagnetDynamics(MirrorDescent):
    """Magnet-regularized mirror descent at every information set (chapter 27's first code).

    ``reset=K`` moves the magnet to the current strategy after every K steps (Lab 15's moving
    magnet, K = 500).  ``settle=TOL`` instead moves it when no probability changed by more than
    TOL in the last step (and at least ``min_gap`` steps after the last move); ``shrink=F``
    multiplies alpha by F after each move (F = 1: alpha fixed).
    """

    name = "magnet"
    result_strategy = "current"  # the point of a magnet: its current strategy converges (saved by --save)

    def __init__(self, game, eta: float = 0.05, alpha: float = 0.2, reset: int | None = None,
                 settle: float | None = None, shrink: float = 1.0, min_gap: int = 1,
                 magnet_lr: float = 0.0):
        super().__init__(game, eta)
        self.magnet_lr = _positive("magnet_lr", magnet_lr, allow_zero=True)
        self.alpha = _positive("alpha", alpha)
        if reset is not None and (isinstance(reset, bool) or int(reset) != reset or reset <= 0):
            raise ZerosumError(f"reset must be a positive number of steps, got {reset!r}")
        if reset is not None and settle is not None:
            raise ZerosumError("give reset (every K steps) or settle (when settled), not both")
        self.reset = None if reset is None else int(reset)
        self.settle = None if settle is None else _positive("settle", settle)
        self.shrink = _positive("shrink", shrink)
        self.min_gap = int(min_gap)
        self.log_magnet = [np.log(t.seq_uniform) for t in self.trees]
        self.magnet_moves: list[int] = []  # steps after which the magnet moved

    def after_step(self) -> None:
        t = self.iteration
        if self.reset is not None:
            move = t % self.reset == 0
        elif self.settle is not None:
            last = self.magnet_moves[-1] if self.magnet_moves else 0
            change = max(float(np.max(np.abs(n - o))) for n, o in zip(self.plan, self.previous_plan))
            move = t - last >= self.min_gap and change < self.settle
        else:
            move = False
        if self.magnet_lr > 0:  # drift: ln rho <- (1 - lr) ln rho + lr ln pi, renormalized
            for p, tr in enumerate(self.trees):
                mixed = (1 - self.magnet_lr) * self.log_magnet[p] + self.magnet_lr * log_softmax(tr, self.logits[p])
                self.log_magnet[p] = log_softmax(tr, mixed)
        if move:
            self.log_magnet = [log_softmax(tr, z) for tr, z in zip(self.trees, self.logits)]
            self.magnet_moves.append(t)
            self.alpha *= self.shrink


class MovingMagnet(MagnetDynamics):
    """Lab 15's moving magnet: the magnet jumps to the current strategy every 500 steps
    (unless ``settle`` is given: then it moves when the strategies have settled)."""

    name = "moving-magnet"

    def __init__(self, game, eta: float = 0.05, alpha: float = 0.2, reset: int | None = None,
                 settle: float | None = None, shrink: float = 1.0, min_gap: int = 1):
        if reset is None and settle is None:
            reset = 500
        super().__init__(game, eta, alpha, reset, settle, shrink, min_gap)


#: Lab 15 Part 3's four dynamics, in the table's order
LAB_DYNAMICS = {
    "best response": IteratedBestResponse,
    "mirror descent": MirrorDescent,
    "magnet": MagnetDynamics,
    "moving magnet": MovingMagnet,
}
