"""Discounted CFR, DCFR(alpha, beta, gamma) (Brown and Sandholm 2019, "Solving
Imperfect-Information Games via Discounted Regret Minimization", AAAI).

Why: CFR+ floors negative regrets at zero and LCFR weights iterations linearly; DCFR interpolates.
After iteration t, positive cumulative regrets are multiplied by t^alpha / (t^alpha + 1) and negative
ones by t^beta / (t^beta + 1); iteration t's strategy enters the average with weight t^gamma (the
paper's factor (t / (t + 1))^gamma on the running average, unrolled).  The paper's recommended
setting (1.5, 0, 2) is the default.  Same step order as OpenSpiel's ``DCFRSolver``: add the
instantaneous regrets, then discount by sign.
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import ZerosumError
from .cfr import CFRSolver, RegretRule


class DCFRSolver(CFRSolver):
    """DCFR with alternating updates by default (``alternating=False`` for simultaneous)."""

    name = "dcfr"

    def __init__(self, game, alternating: bool = True, alpha: float = 1.5, beta: float = 0.0,
                 gamma: float = 2.0):
        self.alpha = _finite("alpha", alpha)
        self.beta = _finite("beta", beta)
        self.gamma = _finite("gamma", gamma)
        if self.gamma < 0:
            raise ZerosumError(f"dcfr: gamma must be >= 0 (older iterations may not weigh more), got {gamma}")
        super().__init__(game, alternating=alternating)

    def regret_rule(self) -> RegretRule:
        t = float(self.iteration)
        return RegretRule(pos=t ** self.alpha / (t ** self.alpha + 1.0), neg=t ** self.beta / (t ** self.beta + 1.0))

    def state_dict(self) -> dict:
        return save_params(self, super().state_dict(), ("alpha", "beta", "gamma"))

    def load_state_dict(self, state: dict) -> None:
        super().load_state_dict(state)
        check_params(self, state, ("alpha", "beta", "gamma"))

    def average_weight(self) -> float:
        return float(self.iteration) ** self.gamma


def _finite(name: str, value) -> float:
    """A real parameter from the CLI (``--option alpha=1.5``), refused with one line if it is not."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ZerosumError(f"{name} must be a finite number, got {value!r}")
    return float(value)


def save_params(solver, state: dict, names) -> dict:
    """Add a variant's parameters to its saved state (so a resumed run keeps them)."""
    for name in names:
        state[f"param_{name}"] = np.array(getattr(solver, name))
    return state


def check_params(solver, state: dict, names) -> None:
    """Refuse to resume a run saved with other parameters."""
    for name in names:
        saved = state.get(f"param_{name}")
        if saved is None or float(saved) != getattr(solver, name):
            raise ZerosumError(f"the saved run used {name}={None if saved is None else float(saved)}, "
                               f"not {getattr(solver, name)}; pass the same --option {name}=...")
