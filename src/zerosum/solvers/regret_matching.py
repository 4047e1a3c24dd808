"""Regret matching (Hart and Mas-Colell 2000) on a matrix game, as in the Kuhn notebook.

The strategy is proportional to the positive part of the cumulative regrets, uniform when none
is positive; the *average* strategy is what converges (to a best response against a fixed
opponent, to an equilibrium in self-play).
"""

from __future__ import annotations

import numpy as np

from ..errors import ZerosumError


class RegretMatcher:
    """One learner with n actions."""

    def __init__(self, n_actions: int):
        if n_actions < 1:
            raise ZerosumError("a regret matcher needs at least one action")
        self.regret_sum = np.zeros(n_actions)
        self.strategy_sum = np.zeros(n_actions)

    def strategy(self) -> np.ndarray:
        """The current strategy: proportional to the positive regrets, uniform when none is positive."""
        pos = np.maximum(self.regret_sum, 0.0)
        total = pos.sum()
        return pos / total if total > 0 else np.full(len(pos), 1.0 / len(pos))

    def average_strategy(self) -> np.ndarray:
        """The average of the strategies played so far (uniform before the first update); this is what converges."""
        total = self.strategy_sum.sum()
        n = len(self.strategy_sum)
        return self.strategy_sum / total if total > 0 else np.full(n, 1.0 / n)

    def update(self, action_utilities) -> np.ndarray:
        """Play the current strategy, observe every action's utility, accumulate; return the strategy."""
        u = np.asarray(action_utilities, dtype=float)
        s = self.strategy()
        self.regret_sum += u - s @ u
        self.strategy_sum += s
        return s


def against_fixed(payoffs, opponent, iterations: int) -> np.ndarray:
    """Average strategy of the row player after ``iterations`` rounds against a fixed column mix."""
    a = np.asarray(payoffs, dtype=float)
    u = a @ np.asarray(opponent, dtype=float)
    learner = RegretMatcher(a.shape[0])
    for _ in range(_positive(iterations)):
        learner.update(u)
    return learner.average_strategy()


def self_play(payoffs, iterations: int) -> tuple[np.ndarray, np.ndarray]:
    """Both players run regret matching against each other simultaneously; return the averages."""
    a = np.asarray(payoffs, dtype=float)
    row, col = RegretMatcher(a.shape[0]), RegretMatcher(a.shape[1])
    for _ in range(_positive(iterations)):
        x, y = row.strategy(), col.strategy()
        row.update(a @ y)
        col.update(-(x @ a))
    return row.average_strategy(), col.average_strategy()


def _positive(iterations: int) -> int:
    if int(iterations) != iterations or iterations <= 0:
        raise ZerosumError(f"iterations must be a positive integer, got {iterations}")
    return int(iterations)
