"""Discounted CFR on the history tree: :class:`zerosum.solvers.rules.DCFR` (Brown and Sandholm
2019) on the CFR driver; the rule, its parameters and why are there."""

from __future__ import annotations

from .cfr import CFRSolver
from .rules import DCFR


class DCFRSolver(CFRSolver):
    """DCFR(alpha, beta, gamma), the paper's (1.5, 0, 2) by default (``restart``: see
    :class:`~zerosum.solvers.rules.DCFR`); alternating updates by default
    (``alternating=False`` for simultaneous)."""

    name = "dcfr"

    def __init__(self, game, alternating: bool = True, alpha: float = 1.5, beta: float = 0.0,
                 gamma: float = 2.0, restart: int = 0, restart_keep: float = 0.0,
                 beta_scale: float = 1.0, restart_until: int = 0):
        super().__init__(game, alternating=alternating,
                         variant=DCFR(alpha=alpha, beta=beta, gamma=gamma, restart=restart, restart_keep=restart_keep,
                                      beta_scale=beta_scale, restart_until=restart_until))
