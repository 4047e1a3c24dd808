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
#: no rake (:attr:`TerminalArrays.rake`: rate 0)
NO_RAKE = np.zeros(2)


def rake_array(rake) -> np.ndarray:
    """``rake`` (None or (rate, cap), cap ``inf`` for none) as :attr:`TerminalArrays.rake`."""
    return NO_RAKE if rake is None or not rake[0] else np.array([float(rake[0]), float(rake[1])])


@njit(cache=True, inline="always", error_model="numpy")
def rake_at(rake, st):
    """The house's share of the pot at a terminal with stake ``st`` (each player's part: the pot
    is 2 st, a fold's bet returned): ``min(rate * 2 st, cap)``, as postflop-solver takes it.  The
    winner gets st less it; at a tie each player pays half of it.  So a raked showdown is worth
    ``(st - R / 2) * S - (R / 2) * F`` (S the signed sum over the opponent's reach, F the unsigned
    one: win + tie / 2 = (1 + sign) / 2), and the game is no longer zero-sum."""
    if rake[0] == 0.0:
        return 0.0
    return min(rake[0] * 2.0 * st, rake[1])


@dataclass(frozen=True)
class DenseTerminals:
    weight: np.ndarray  # [boards, n0, n1] chance probability of the deal
    signed: np.ndarray  # [boards, n0, n1] weight * showdown sign for player 0
    rake: tuple | None = None  # (rate, cap) of a raked game (:func:`rake_at`), None for none

    kind = DENSE

    def nbytes(self) -> int:
        return self.weight.nbytes + self.signed.nbytes

    def kernel_args(self) -> TerminalArrays:
        e2 = np.zeros((0, 2), dtype=np.int64)
        e1, i1 = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32)  # (the sweep's types: one compile)
        return TerminalArrays(DENSE, self.weight, self.signed, e2, np.zeros(0), i1, e1, i1, *NO_PREFIX, NO_WINDOW,
                              rake_array(self.rake))


@njit(cache=True, error_model="numpy")
def dense_values(s, opp, val, term):
    """p's values at the terminal ``s`` (a :class:`~zerosum.public_tree.arrays.Site`) into
    ``val[s.row]`` from the opponent's reach ``opp[s.orow]``: a product with the board's matrix
    (``term.weight`` or ``term.signed``), and a raked showdown's with both (see :func:`rake_at`)."""
    n, orow, p, b, st = s.row, s.orow, s.p, s.board, s.stake
    rk = rake_at(term.rake, st)
    if s.is_fold:
        _dense_sums(n, orow, p, opp, val, term.weight[b], -st if s.folder == p else st - rk, False)
        return
    _dense_sums(n, orow, p, opp, val, term.signed[b], st - 0.5 * rk if p == 0 else -(st - 0.5 * rk), False)
    if rk != 0.0:
        _dense_sums(n, orow, p, opp, val, term.weight[b], -0.5 * rk, True)


@njit(cache=True, inline="always", error_model="numpy")
def _dense_sums(n, orow, p, opp, val, m, scale, add):
    """``val[n]`` (+)= scale * (m @ opp[orow]) for p = 0, scale * (opp[orow] @ m) for p = 1."""
    n0, n1 = m.shape[0], m.shape[1]
    if p == 0:
        for i in range(n0):
            s = 0.0
            for j in range(n1):
                s += m[i, j] * opp[orow, j]
            val[n, i] = val[n, i] + scale * s if add else scale * s
        return
    if add:  # (a raked showdown's second sum: by columns, with no scratch row)
        for j in range(n1):
            s = 0.0
            for i in range(n0):
                s += m[i, j] * opp[orow, i]
            val[n, j] += scale * s
        return
    for j in range(n1):
        val[n, j] = 0.0
    for i in range(n0):
        r = opp[orow, i]
        if r != 0.0:
            for j in range(n1):
                val[n, j] += m[i, j] * r
    for j in range(n1):
        val[n, j] *= scale
