"""Predictive discounted CFR+ on the history tree: :class:`zerosum.solvers.rules.PDCFRPlus` (Xu et
al. 2024) on the CFR driver; the rule, its parameters and why are there."""

from __future__ import annotations

from .cfr import CFRSolver
from .rules import PDCFRPlus


class PDCFRPlusSolver(CFRSolver):
    """PDCFR+, the paper's alpha = 2.3, gamma = 5 by default; alternating updates by default
    (``alternating=False`` for simultaneous)."""

    name = "pdcfr+"

    def __init__(self, game, alternating: bool = True, alpha: float = 2.3, gamma: float = 5.0,
                 prediction: str = "tree"):
        super().__init__(game, alternating=alternating,
                         variant=PDCFRPlus(alpha=alpha, gamma=gamma, prediction=prediction))
