"""The poker family's O(ranks) evaluator: W(i, j, b) = c(b) (k - [i = j]) (k - [i = b] - [j = b])
with k copies of each rank, and the showdown a strength order (a rank pairing the public card on
top), so each sum over j is a total, a prefix sum in strength order and corrections for j = i and
j = b.

May import: numpy, numba, :mod:`zerosum.public_tree.arrays`, :mod:`.dense` (the empty slots).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..arrays import TerminalArrays
from .dense import NO_PREFIX, NO_RAKE, NO_WINDOW

#: the evaluator's kind (:attr:`TerminalArrays.evaluator`)
RANKS = 2


@dataclass(frozen=True)
class RankTerminals:
    copies: int
    const: np.ndarray  # [boards] c(b): k / (n (n - 1)) without a public card, k / (n (n - 1) (n - 2)) with one
    board_rank: np.ndarray  # [boards] rank of the public card, -1 for none
    order: np.ndarray  # [boards, ranks] ranks by increasing showdown strength (equal ranks split)

    kind = RANKS

    def nbytes(self) -> int:
        return self.const.nbytes + self.board_rank.nbytes + self.order.nbytes

    def kernel_args(self) -> TerminalArrays:
        e3 = np.zeros((0, 0, 0))
        meta = np.array([self.copies, 0], dtype=np.int64)
        # order and the (unused) strength slot int32, as the sweep's: the two evaluators' arguments
        # then have one type and every pass compiles once for both, not once for each
        return TerminalArrays(RANKS, e3, e3, meta.reshape(1, 2), self.const, self.order.ravel().astype(np.int32),
                              self.board_rank, meta.astype(np.int32), *NO_PREFIX, NO_WINDOW, NO_RAKE)


@njit(cache=True, inline="always", error_model="numpy")
def rank_values(s, opp, val, term):
    """RankTerminals (see terminals.py): O(ranks) per terminal (``s``, a
    :class:`~zerosum.public_tree.arrays.Site`); equal ranks split.

    Ranks are in showdown order except a rank pairing the public card, which is on top (the
    ``order`` the build checks against the rules), so the prefix sums run over the ranks directly.
    ``opp[s.orow]`` may be ``val[s.row]`` itself: each hand's reach is read before its value is
    written."""
    n, orow, p, folder, is_fold, st, b = s.row, s.orow, s.p, s.folder, s.is_fold, s.stake, s.board
    k, const, board_rank = term.cards[0, 0], term.const, term.start
    r = val.shape[1]
    total = 0.0
    for j in range(r):
        total += opp[orow, j]
    bb = board_rank[b]
    c = const[b]
    if is_fold:
        scale = (-st if folder == p else st) * c
        if bb < 0:
            kt = k * total
            for i in range(r):
                val[n, i] = scale * (kt - opp[orow, i])
            return
        ybb = opp[orow, bb]
        for i in range(r):
            y = opp[orow, i]
            a = k - (1 if i == bb else 0)
            v = k * a * total - k * ybb - a * y
            if i == bb:
                v += y
            val[n, i] = scale * v
        return
    # showdown, in strength order: the ranks upwards, the one pairing the public card (if any) last
    scale = st * c
    below = 0.0
    ybb = opp[orow, bb] if bb >= 0 else 0.0
    for i in range(r):
        if i == bb:
            continue
        y = opp[orow, i]
        above = total - below - y
        if bb < 0:
            val[n, i] = scale * k * (below - above)
        else:
            val[n, i] = scale * (k * k * (below - above) + k * ybb)
        below += y
    if bb >= 0:
        above = total - below - ybb
        val[n, bb] = scale * (k * (k - 1) * (below - above))
