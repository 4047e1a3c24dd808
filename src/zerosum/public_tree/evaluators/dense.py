"""The dense evaluator: per board the matrices W (the chance probability of each deal) and
W * sign (player 0's showdown sign), [player 0's hands x player 1's].  Any payoff; the tests use it
as the reference (``tests/pass_oracle.py``), and the poker family's dense form (``rank_form=False``).

May import: numpy, numba, :mod:`zerosum.public_tree.arrays`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..arrays import TerminalArrays

#: the evaluator's kind (:attr:`TerminalArrays.evaluator`)
DENSE = 0
# the prefix-sum showdown's arrays, empty (the evaluators that do not use them)
NO_PREFIX = (np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int64), np.zeros((0, 8), dtype=np.int16),
             np.zeros((0, 2, 53), dtype=np.int32), np.zeros(0, dtype=np.int16))
#: the evaluators without windows (dense and rank terminals: each player's list is its own)
NO_WINDOW = np.zeros((2, 2), dtype=np.int64)


@dataclass(frozen=True)
class DenseTerminals:
    weight: np.ndarray  # [boards, n0, n1] chance probability of the deal
    signed: np.ndarray  # [boards, n0, n1] weight * showdown sign for player 0

    kind = DENSE

    def nbytes(self) -> int:
        return self.weight.nbytes + self.signed.nbytes

    def kernel_args(self) -> TerminalArrays:
        e2 = np.zeros((0, 2), dtype=np.int64)
        e1, i1 = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32)  # (the sweep's types: one compile)
        return TerminalArrays(DENSE, self.weight, self.signed, e2, np.zeros(0), i1, e1, i1, *NO_PREFIX, NO_WINDOW)


@njit(cache=True, error_model="numpy")
def dense_values(n, orow, p, folder, is_fold, st, b, opp, val, weight, signed):
    """p's values at terminal n on board b (stake ``st``; a fold by ``folder``) into ``val[n]``,
    from the opponent's reach ``opp[orow]``: a product with the board's matrix."""
    if p == 0:
        n0, n1 = weight.shape[1], weight.shape[2]
        m = weight[b] if is_fold else signed[b]
        scale = (-st if folder == 0 else st) if is_fold else st
        for i in range(n0):
            s = 0.0
            for j in range(n1):
                s += m[i, j] * opp[orow, j]
            val[n, i] = scale * s
    else:
        n0, n1 = weight.shape[1], weight.shape[2]
        m = weight[b] if is_fold else signed[b]
        scale = (-st if folder == 1 else st) if is_fold else -st
        for j in range(n1):
            val[n, j] = 0.0
        for i in range(n0):
            r = opp[orow, i]
            if r != 0.0:
                for j in range(n1):
                    val[n, j] += m[i, j] * r
        for j in range(n1):
            val[n, j] *= scale
