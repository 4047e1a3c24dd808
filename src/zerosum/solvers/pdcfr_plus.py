"""Predictive discounted CFR+, PDCFR+ (Xu, Li, Liu, Fu, Fu, Xing and Cheng 2024, "Minimizing
Weighted Counterfactual Regret with Optimistic Online Mirror Descent", IJCAI).

Why: DCFR's discounting and PCFR+'s prediction help in different games (discounting when early
mistakes are costly, prediction when play is smooth); PDCFR+ uses both.  With
d(s) = s^alpha / (s^alpha + 1) (so d(0) = 0), at each information set and iteration t:

* cumulative regrets ``R_t = max(0, d(t-1) * R_{t-1} + r_t)`` (discounted, floored as in CFR+);
* next strategy by predictive regret matching+ on ``d(t) * R_t`` (the regrets the next update
  starts from) with the last utilities as prediction, bottom-up as in
  :mod:`zerosum.solvers.pcfr` (``prediction="local"``: ``[d(t) * R_t + r_t]^+``, the form of the
  paper's own code);
* iteration t's strategy weighs t^gamma in the average.

The paper's defaults are alpha = 2.3, gamma = 5, with alternating updates.
"""

from __future__ import annotations

import numpy as np

from ..errors import ZerosumError
from .cfr import CFRSolver, RegretRule
from .dcfr import _finite
from .pcfr import PredictiveMixin


class PDCFRPlusSolver(PredictiveMixin, CFRSolver):
    """PDCFR+; alternating updates by default (``alternating=False`` for simultaneous)."""

    name = "pdcfr+"

    def __init__(self, game, alternating: bool = True, alpha: float = 2.3, gamma: float = 5.0,
                 prediction: str = "tree"):
        self.alpha = _finite("alpha", alpha)
        self.gamma = _finite("gamma", gamma)
        if self.alpha < 0 or self.gamma < 0:
            raise ZerosumError(f"pdcfr+: alpha and gamma must be >= 0, got alpha={alpha}, gamma={gamma}")
        super().__init__(game, alternating=alternating)
        self._init_prediction(prediction)

    def _discount(self, s: int) -> float:
        s = float(s)
        return s ** self.alpha / (s ** self.alpha + 1.0) if s > 0 else 0.0

    def regret_rule(self) -> RegretRule:
        return RegretRule(pre=self._discount(self.iteration - 1), floor=True)

    def prediction_scale(self) -> float:
        """d(t): the prediction is added to the regrets the next update starts from."""
        return self._discount(self.iteration)

    def current_strategy(self, player: int) -> np.ndarray:
        return self._predicted_strategy(player, self.prediction_scale() * self.regrets[player])

    def average_weight(self) -> float:
        return float(self.iteration) ** self.gamma

    def state_dict(self) -> dict:
        return self._save_prediction(super().state_dict(), ("alpha", "gamma"))

    def load_state_dict(self, state: dict) -> None:
        super().load_state_dict(state)
        self._load_prediction(state, ("alpha", "gamma"))
