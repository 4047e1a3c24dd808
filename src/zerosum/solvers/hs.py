"""The hyperparameter-schedule variants on the history tree: :class:`zerosum.solvers.rules.HSDCFR`
and :class:`zerosum.solvers.rules.HSPCFRPlus` (Zhang, McAleer and Sandholm, arXiv 2404.09097) on
the CFR driver; the schedules and why are there."""

from __future__ import annotations

from .cfr import CFRSolver
from .rules import HSDCFR, HSPCFRPlus


class HSDCFRSolver(CFRSolver):
    """HS-DCFR(gamma_start) planned for ``horizon`` iterations; alternating updates by default."""

    name = "hs-dcfr"

    def __init__(self, game, alternating: bool = True, gamma_start: float = 30.0, horizon: int = 1000):
        super().__init__(game, alternating=alternating, variant=HSDCFR(gamma_start=gamma_start, horizon=horizon))


class HSPCFRPlusSolver(CFRSolver):
    """HS-PCFR+(gamma_start) planned for ``horizon`` iterations; alternating updates by default."""

    name = "hs-pcfr+"

    def __init__(self, game, alternating: bool = True, gamma_start: float = 30.0, horizon: int = 1000,
                 prediction: str = "tree"):
        super().__init__(game, alternating=alternating,
                         variant=HSPCFRPlus(gamma_start=gamma_start, horizon=horizon, prediction=prediction))
