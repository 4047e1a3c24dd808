"""Linear CFR on the history tree: :class:`zerosum.solvers.rules.LCFR` (Brown and Sandholm 2019)
on the CFR driver; the rule and why are there."""

from __future__ import annotations

from .cfr import CFRSolver
from .rules import LCFR


class LCFRSolver(CFRSolver):
    """LCFR: DCFR(1, 1, 1).  Alternating updates by default; ``alternating=False`` for simultaneous."""

    name = "lcfr"

    def __init__(self, game, alternating: bool = True):
        super().__init__(game, alternating=alternating, variant=LCFR())
