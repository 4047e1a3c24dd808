"""Predictive CFR+ on the history tree: :class:`zerosum.solvers.rules.PCFRPlus` (Farina, Kroer and
Sandholm 2021) on the CFR driver; the rule and why are there, predictive regret matching+ on the
treeplex is :func:`zerosum.solvers.cfr.predictive_strategy` (importable from here too)."""

from __future__ import annotations

from .cfr import CFRSolver, predictive_strategy  # noqa: F401 (predictive_strategy: its old home)
from .rules import PREDICTIONS, PCFRPlus  # noqa: F401 (PREDICTIONS: its old home)


class PCFRPlusSolver(CFRSolver):
    """PCFR+; alternating updates by default (``alternating=False`` for simultaneous)."""

    name = "pcfr+"

    def __init__(self, game, alternating: bool = True, gamma: float = 2.0, prediction: str = "tree"):
        super().__init__(game, alternating=alternating, variant=PCFRPlus(gamma=gamma, prediction=prediction))
